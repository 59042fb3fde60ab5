"""Tables set with tight column gaps (\\tabcolsep 2pt, footnote size): a row's label and its first value are
two cells when they stand further apart than an interword space; a number inside a label stays in it."""

from __future__ import annotations

from pathlib import Path

from pipeline.extract.document.tables import extract_tables
from pipeline.fixtures import render_paper
from pipeline.fixtures.spec import PaperSpec, Paragraph, TableSpec


def _grid(tmp_path: Path, rows: list[list[str]], col_pad: float) -> list[list[str | None]]:
    spec = TableSpec("Table 1", "Scores of three models.", rows, font_size=8.0, col_pad=col_pad)
    paper = PaperSpec("Tight tables", "A. Author", "Abstract.", (Paragraph("Table 1 gives the scores."), spec))
    pdf = tmp_path / "tight.pdf"
    render_paper(paper, pdf)
    [table] = extract_tables(pdf).tables
    return table.grid()


def test_a_label_and_its_first_value_set_close_are_two_cells(tmp_path: Path) -> None:
    rows = [["Task", "A", "B", "C"], ["Bulk RNA expression", "0.431", "0.559", "0.416"]]
    rows.append(["Splice sites", "0.652", "0.648", "0.604"])
    assert _grid(tmp_path, rows, col_pad=2.0) == rows


def test_a_number_inside_a_label_stays_in_it(tmp_path: Path) -> None:
    rows = [["Dataset", "A", "B", "C"], ["tf human 0", "0.431", "0.559", "0.416"]]
    rows += [["GPT 3.5", "0.652", "0.648", "0.604"], ["Layer 12", "0.512", "0.548", "0.504"]]
    assert _grid(tmp_path, rows, col_pad=2.0) == rows
    assert _grid(tmp_path, rows, col_pad=6.0) == rows
