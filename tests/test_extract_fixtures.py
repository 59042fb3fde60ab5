"""The extractor on generated papers with exact truth, one paper per layout feature."""

from __future__ import annotations

from pathlib import Path

import pytest
from extraction_checks import assert_cells_found_in_their_bboxes, spans
from papers import FEATURE_PAPERS

from pipeline.extract.document.tables import extract_tables
from pipeline.fixtures import PaperTruth, TableTruth, demo_truth, render_paper, write_demo_paper
from pipeline.model import Table, TablesFile


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, PaperTruth, TablesFile]]:
    out = {}
    folder = tmp_path_factory.mktemp("features")
    for name, spec in FEATURE_PAPERS.items():
        pdf = folder / f"{name}.pdf"
        truth = render_paper(spec, pdf)
        out[name] = (pdf, truth, extract_tables(pdf))
    return out


def _parts(found: TablesFile, truth: TableTruth) -> list[Table]:
    parts = [t for t in found.tables if t.label == truth.label]
    assert parts, f"{truth.label} not found; found {[t.label for t in found.tables]}"
    return parts


@pytest.mark.parametrize("name", sorted(FEATURE_PAPERS))
def test_feature_paper_tables_come_out_exactly(name: str, rendered: dict) -> None:
    _, paper, found = rendered[name]
    assert len({t.label for t in found.tables}) == len(paper.tables)
    for truth in paper.tables:
        (table,) = _parts(found, truth)  # a continued table is one table, its rows from every page
        assert table.grid() == truth.cells
        assert [c.locator.page for c in sorted(table.cells, key=lambda c: c.row) if c.locator] == [
            truth.row_pages[c.row] for c in sorted(table.cells, key=lambda c: c.row) if c.locator
        ]
        assert table.page == truth.page
        assert table.caption == truth.caption
        assert table.caption_position == truth.caption_position
        assert table.header_rows == truth.header_rows
        assert table.stub_cols == truth.stub_cols
        assert spans(table) == sorted((s.row, s.col, s.row_span, s.col_span) for s in truth.spans)
        assert sorted((c.row, c.col) for c in table.cells if c.bold) == sorted(map(tuple, truth.bold))
        assert table.continued_pages == truth.continued_pages


@pytest.mark.parametrize("name", ["bold_underline", "value_forms", "superscripts"])
def test_styles_and_marks_match_the_truth(name: str, rendered: dict) -> None:
    _, paper, found = rendered[name]
    for truth in paper.tables:
        table = _parts(found, truth)[0]
        assert sorted((c.row, c.col) for c in table.cells if c.underline) == sorted(map(tuple, truth.underline))
        assert sorted((c.row, c.col) for c in table.cells if c.italic) == sorted(map(tuple, truth.italic))
        marks = sorted((c.row, c.col, m) for c in table.cells for m in c.marks)
        assert marks == sorted(map(tuple, truth.superscripts))


def test_values_keep_the_printed_text_beside_the_number(rendered: dict) -> None:
    _, _, found = rendered["value_forms"]
    body = [c for t in found.tables for c in t.cells if c.kind == "body" and c.value is not None]
    assert body
    for cell in body:
        digits = "".join(ch for ch in cell.text if ch.isdigit())
        assert digits, cell.text
        assert cell.locator is not None and cell.locator.row == cell.row and cell.locator.col == cell.col


@pytest.mark.parametrize("name", sorted(FEATURE_PAPERS))
def test_each_cell_text_is_found_again_inside_its_bbox(name: str, rendered: dict) -> None:
    pdf, _, found = rendered[name]
    assert_cells_found_in_their_bboxes(pdf, found)


def test_demo_paper_tables_come_out_exactly(tmp_path: Path) -> None:
    pdf = write_demo_paper(tmp_path / "demo.pdf")
    truth, found = demo_truth(), extract_tables(pdf)
    for table in truth.tables:
        parts = _parts(found, table)
        assert [p.grid() for p in parts] == [p.cells for p in table.parts or [table]]
        assert spans(parts[0]) == sorted((s.row, s.col, s.row_span, s.col_span) for s in table.spans)
