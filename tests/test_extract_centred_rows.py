"""Rows whose short cells are centred on a taller cell, with no space between rows (issue 29, clinical tables set
sideways and continued): a row runs from its first line as far below its centred cells as that line lies above
them; the look-alikes (rows of their own beside a centred source, top-aligned rows) read as before."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from papers.centred_rows import CENTRED_ROW_RENDERERS
from papers.gapped_rows import GAPPED_ROW_RENDERERS

from pipeline.extract.document.continued import page_parts
from pipeline.extract.document.tables import extract_tables
from pipeline.extract.grid.centred import JOINED, SPANNED
from pipeline.fixtures import PaperTruth
from pipeline.model import TablesFile


def _read(render: Callable[[Path], PaperTruth], pdf: Path) -> tuple[PaperTruth, TablesFile]:
    return render(pdf), extract_tables(pdf)


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[PaperTruth, TablesFile]]:
    folder = tmp_path_factory.mktemp("centred")
    return {name: _read(render, folder / f"{name}.pdf") for name, render in CENTRED_ROW_RENDERERS.items()}


@pytest.mark.parametrize("name", ["centred_rows", "grouped_centred_rows"])
def test_lines_around_a_centred_cell_are_one_row(name: str, rendered: dict) -> None:
    """A Yes/No halfway between a finding's two lines, on the middle one of three, a one-line finding centred on a
    two-line diagnosis, the header's labels centred on one wrapped onto three lines: one row each; group labels
    centred on their blocks span them, and the rule between the blocks joins no rows."""
    truth, found = rendered[name]
    (table,) = found.tables
    assert table.grid() == truth.tables[0].cells
    assert table.header_rows == 1
    assert JOINED in table.notes
    assert table.confidence >= 0.9


def test_a_sideways_table_continued_overleaf_reads_on_both_pages(rendered: dict) -> None:
    """Turned a quarter on two portrait pages, the second part under 'Table 2: Continued.' with its header
    repeated: one table, each page's part as printed."""
    truth, found = rendered["centred_rows_sideways"]
    (table,) = found.tables
    assert table.label == "Table 2" and table.page == 1 and table.continued_pages == [2]
    assert any("read turned 90 degrees" in note for note in table.notes)
    parts = [(p.page, p.header_rows, p.grid()) for p in page_parts(table)]
    assert parts == [(t.page, t.header_rows, t.cells) for t in truth.tables[0].parts]
    assert table.confidence >= 0.9


@pytest.mark.parametrize("name", ["rows_beside_centred_source", "top_aligned_rows"])
def test_look_alikes_keep_their_rows(name: str, rendered: dict) -> None:
    """Pathways one a row beside a source centred on their block (each line an item in two columns): the lines stay
    rows and the source spans them; findings whose cells all stand on their row's first line: no lines joined by
    centring. Each read exactly."""
    truth, found = rendered[name]
    (table,) = found.tables
    assert table.grid() == truth.tables[0].cells
    assert JOINED not in table.notes
    assert (SPANNED in table.notes) == (name == "rows_beside_centred_source")


@pytest.mark.parametrize("name", sorted(GAPPED_ROW_RENDERERS))
def test_a_header_with_no_rule_under_it_keeps_its_wrapped_labels(name: str, tmp_path: Path) -> None:
    """'Functional / domain' and 'Subcellular / localization / during function' set on the header's first line,
    the rows a gap apart and no rule under the header: one header row. The look-alike's first two rows stand at
    the line pitch under a one-line header, filling every column: rows, not header lines."""
    pdf = tmp_path / f"{name}.pdf"
    cells = GAPPED_ROW_RENDERERS[name](pdf)
    (table,) = extract_tables(pdf).tables
    assert table.grid() == cells
    assert table.header_rows == 1


def test_rows_ruled_apart_under_group_rows_are_not_joined_by_centring(rendered: dict) -> None:
    """The look-alike: the same centred rows ruled apart, two group rows on lines of their own: no row crosses a
    rule, so each group row stays a row (read as a label in the first column, as ruled bands read it) and the
    header's labels centred on its three-line label are one header row."""
    truth, found = rendered["ruled_groups"]
    (table,) = found.tables
    assert table.grid() == [[text or "" for text in row] for row in truth.tables[0].cells]
    assert table.header_rows == 1
