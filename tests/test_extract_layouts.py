"""Layouts seen in real papers, on generated papers with exact truth: captions below stacked tables,
values centred across two columns, sparse grids with row groups, header levels, a column of group
labels, two tables side by side."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from extraction_checks import assert_cells_found_in_their_bboxes, render_and_extract, spans
from papers.extra_features import EXTRA_FEATURE_PAPERS, render_side_by_side

from pipeline.fixtures import PaperTruth, render_paper
from pipeline.model import TablesFile

Render = Callable[[Path], PaperTruth]
RENDERERS: dict[str, Render] = {
    **{name: (lambda path, spec=spec: render_paper(spec, path)) for name, spec in EXTRA_FEATURE_PAPERS.items()},
    "side_by_side": render_side_by_side,
}


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, PaperTruth, TablesFile]]:
    return render_and_extract(tmp_path_factory.mktemp("layouts"), RENDERERS)


@pytest.mark.parametrize("name", sorted(RENDERERS))
def test_layout_tables_come_out_exactly(name: str, rendered: dict) -> None:
    _, paper, found = rendered[name]
    assert sorted(t.label for t in found.tables) == sorted(t.label for t in paper.tables)
    for truth in paper.tables:
        (table,) = [t for t in found.tables if t.label == truth.label]
        assert table.grid() == truth.cells
        assert table.page == truth.page
        assert table.caption == truth.caption
        assert table.caption_position == truth.caption_position
        assert table.header_rows == truth.header_rows
        assert spans(table) == sorted((s.row, s.col, s.row_span, s.col_span) for s in truth.spans)
        assert sorted((c.row, c.col) for c in table.cells if c.bold) == sorted(map(tuple, truth.bold))


@pytest.mark.parametrize("name", ["stacked_captions_below", "side_by_side"])
def test_each_table_keeps_its_own_box(name: str, rendered: dict) -> None:
    _, paper, found = rendered[name]
    for truth in paper.tables:
        (table,) = [t for t in found.tables if t.label == truth.label]
        x0, top, x1, bottom = table.bbox
        assert x0 >= truth.bbox[0] - 2 and x1 <= truth.bbox[2] + 2
        assert top >= truth.bbox[1] - 2 and bottom <= truth.bbox[3] + 2


def test_locators_name_the_table_whose_caption_sits_below_it(rendered: dict) -> None:
    _, _, found = rendered["stacked_captions_below"]
    tables = {t.label: t for t in found.tables}
    for label in ("Table 2", "Table 3", "Table 4"):
        assert tables[label].caption.startswith(label)
        assert {c.locator.table_label for c in tables[label].cells if c.locator} == {label}
    assert tables["Table 2"].bbox[3] < tables["Table 3"].bbox[1] < tables["Table 3"].bbox[3] < tables["Table 4"].bbox[1]


def test_values_centred_across_two_columns_span_them_and_keep_their_value(rendered: dict) -> None:
    _, _, found = rendered["centred_spans"]
    cell = next(c for t in found.tables for c in t.cells if c.text == "22.7")
    assert (cell.col, cell.col_span, cell.value) == (3, 2, 22.7)


@pytest.mark.parametrize("name", sorted(RENDERERS))
def test_each_cell_text_is_found_again_inside_its_bbox(name: str, rendered: dict) -> None:
    pdf, _, found = rendered[name]
    assert_cells_found_in_their_bboxes(pdf, found)
