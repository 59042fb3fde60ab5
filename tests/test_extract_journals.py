"""Journal layouts (issue 20) on generated pages with exact truth, and the floor reached on the real journal
papers of ../shared (skipped without it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from papers.journal_layouts import JOURNAL_LAYOUTS, render_stacked_panels
from reportlab.pdfgen.canvas import Canvas

from pipeline.audit.settings import AuditSettings
from pipeline.extract.document.continued import page_parts
from pipeline.extract.document.tables import extract_tables
from pipeline.extract.page.words import build_words
from pipeline.extract.reading.chars import open_page, open_pdf, read_chars, read_graphics
from pipeline.fixtures import PaperTruth
from pipeline.model import TablesFile

ROOT = Path(__file__).resolve().parents[1]
JOURNALS = ROOT.parent / "shared" / "corpus" / "journals"


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[PaperTruth, TablesFile]]:
    folder = tmp_path_factory.mktemp("journal_layouts")
    out = {}
    for name, render in JOURNAL_LAYOUTS.items():
        pdf = folder / f"{name}.pdf"
        truth = render(pdf)
        out[name] = (truth, extract_tables(pdf))
    return out


@pytest.mark.parametrize("name", sorted(JOURNAL_LAYOUTS))
def test_every_table_comes_out_under_its_label_and_nothing_else(name: str, rendered: dict) -> None:
    truth, found = rendered[name]
    assert sorted(str(t.label) for t in found.tables) == sorted(t.label for t in truth.tables)
    for expected in truth.tables:
        (table,) = [t for t in found.tables if t.label == expected.label]
        assert table.grid() == expected.cells


def test_a_bare_caption_is_kept_whole(rendered: dict) -> None:
    _, found = rendered["unpunctuated_caption"]
    assert found.tables[0].caption.startswith("Table 1 Accuracy of five DNA language models")


def test_line_numbers_are_no_column(rendered: dict) -> None:
    _, found = rendered["line_numbers"]
    texts = {c.text for t in found.tables for c in t.cells}
    assert not any(text.isdigit() and int(text) > 100 for text in texts)


def test_a_group_header_heads_the_rows_under_it(rendered: dict) -> None:
    _, found = rendered["group_headers"]
    table = found.tables[0]
    value = next(c for c in table.cells if c.text == "0.781")  # 'tata' under 'Human Core Promoter Detection'
    assert value.row_path[0] == "Human Core Promoter Detection"
    dataset = next(c for c in table.cells if c.text == "0.735")  # 'dataset 1' under the second group
    assert dataset.row_path[0] == "Human Transcription Factor Prediction"


def test_a_sideways_table_reads_with_spaces_and_keeps_page_coordinates(rendered: dict) -> None:
    _, found = rendered["sideways_table"]
    (table,) = found.tables
    assert table.label == "Table 1"
    assert any("read turned 90 degrees" in note for note in table.notes)
    cell = next(c for c in table.cells if c.text == "Human Core Promoter Detection")  # spaces kept
    x0, top, x1, bottom = table.bbox  # on the portrait page the table stands tall and narrow
    assert bottom - top > 2 * (x1 - x0) and 0 <= x0 < x1 <= 612 and 0 <= top < bottom <= 792
    cx0, ctop, cx1, cbottom = cell.bbox
    assert cbottom - ctop > cx1 - cx0  # a sideways line of words runs up the page
    assert x0 - 1 <= cx0 and cx1 <= x1 + 1 and top - 1 <= ctop and cbottom <= bottom + 1


def test_a_continued_table_is_one_table_whose_cells_keep_their_pages(rendered: dict) -> None:
    truth, found = rendered["continued_table"]
    (table,) = found.tables
    assert table.label == "Table 2" and table.page == 1 and table.continued_pages == [2]
    pages = {c.text: c.locator.page for c in table.cells if c.kind != "header"}
    first, last = truth.tables[0].cells[1][0], truth.tables[0].cells[-1][0]
    assert pages[first] == 1 and pages[last] == 2
    assert sum(c.text == "Dataset" for c in table.cells) == 1  # the repeated header is read once


def test_a_page_that_prints_no_header_gets_none_in_its_part_but_keeps_the_column_names(rendered: dict) -> None:
    truth, found = rendered["continued_without_header"]
    (table,) = found.tables
    assert table.continued_pages == [2] and table.headless_pages == [2]
    parts = page_parts(table)
    assert [(p.page, p.header_rows, p.grid()) for p in parts] == [
        (t.page, t.header_rows, t.cells) for t in truth.tables[0].parts
    ]
    last = next(c for c in table.cells if c.text == truth.tables[0].cells[-1][1])
    assert last.locator.page == 2 and last.col_path == [truth.tables[0].cells[0][1]]


def test_values_on_the_middle_line_of_a_wrapped_stub_stay_in_their_columns(rendered: dict) -> None:
    truth, found = rendered["values_between_stub_lines"]
    (table,) = found.tables
    assert table.grid() == truth.tables[0].cells
    # read as the rows its centred cells make (or, were they not centred, as its ruled bands)
    assert any("not a group label" in note or "cells centred on a taller cell" in note for note in table.notes)


def test_stacked_panels_with_their_own_columns_fill_one_grid_from_the_left(tmp_path: Path) -> None:
    expected = render_stacked_panels(tmp_path / "stacked.pdf")
    (table,) = extract_tables(tmp_path / "stacked.pdf").tables
    assert table.label == "Table 7" and table.grid() == expected
    assert any("stacked panels" in note for note in table.notes)
    value = next(c for c in table.cells if c.text == "0.664")  # Panel B, 'Fly' for DNABERT2
    assert value.row_path[0].startswith("Panel B:")


def test_a_tall_header_and_block_labels_name_every_value(rendered: dict) -> None:
    _, found = rendered["tall_header_blocks"]
    (table,) = found.tables
    assert table.header_rows == 2
    value = next(c for c in table.cells if c.text == "9.9 (7.0–12.7)")  # GT of the wrapped cohort
    assert value.col_path == ["Homozygotes", "Odds ratio (95% CI)"]
    assert value.row_path[0] == "European ancestry (ADGC)"
    baseline = next(c for c in table.cells if c.text == "Baseline")
    assert (baseline.row, baseline.row_span) == (0, 2)
    assert any("wrapped over the lines of its ruled block" in note for note in table.notes)


def test_a_short_header_rule_over_a_group_label_still_ends_the_header(rendered: dict) -> None:
    _, found = rendered["group_label_under_a_short_midrule"]
    (table,) = found.tables
    assert table.header_rows == 1
    value = next(c for c in table.cells if c.text == "0.702")
    assert value.col_path == ["NT"] and value.row_path[0] == "Promoters"


def test_a_flowchart_is_set_apart_as_a_figure_not_a_table(rendered: dict) -> None:
    _, found = rendered["flowchart_and_table"]
    assert [t.label for t in found.tables] == ["Table 5"]
    (figure,) = found.figures
    assert figure.page == 1 and "Figure 2." in figure.reason
    assert figure.confidence < AuditSettings().needs_check_below
    assert not any(c.text == "Quality control" for t in found.tables for c in t.cells)


def test_sideways_words_on_an_upright_page_keep_their_spaces(tmp_path: Path) -> None:
    pdf = tmp_path / "label.pdf"
    canvas = Canvas(str(pdf), pagesize=(300, 300))
    canvas.setFont("Helvetica", 10)
    canvas.drawString(100, 250, "Risk matrix")
    canvas.translate(60, 60)
    canvas.rotate(90)
    canvas.drawString(0, 0, "CONSEQUENCES for LOCAL WILDLIFE")
    canvas.save()
    doc = open_pdf(pdf)
    with open_page(doc, 0) as (page, textpage):
        content = read_graphics(page, 1, 2.5, 8.0)
        read_chars(page, textpage, content)
    doc.close()
    words = build_words(content.chars, 0.12)
    assert [w.text for w in words if not w.upright] == ["CONSEQUENCES for LOCAL WILDLIFE"]
    assert [w.text for w in words if w.upright] == ["Risk", "matrix"]


@pytest.mark.skipif(not (JOURNALS / "labels.tsv").is_file(), reason="needs ../shared/corpus/journals")
def test_real_journal_tables_are_found_under_their_labels(tmp_path: Path) -> None:
    """Floor slightly under what the extractor reaches (bench-journals prints the figures)."""
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "bench_journals.py"),
            "--shared",
            str(JOURNALS.parents[1]),
            "--sets",
            "journals",
            "--no-camelot",
            "--skip-audit",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = done.stdout.splitlines()
    recall = next(ln for ln in lines if ln.startswith("label recall"))
    hits, total = (int(x) for x in recall.split()[2].split("/"))
    assert hits / total >= 0.95, recall
    extras = next(ln for ln in lines if ln.startswith("tables over not_tables"))
    assert int(extras.split(";")[1].split()[0]) <= 1, extras
    project = next(ln for ln in lines if ln.startswith("project"))
    assert float(project.split("mean cell F1")[1].split()[0]) >= 0.98, project
