"""Multi-panel tables: a float with sub-captions is one labelled table per panel; plot titles "(a) ..." under a
table are not sub-captions."""

from __future__ import annotations

import pytest
from conftest import SHARED, needs_shared
from papers.genbench_paper import write_genbench_paper

from pipeline.extract.document.tables import extract_tables


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> list:
    path = tmp_path_factory.mktemp("paper") / "genbench.pdf"
    write_genbench_paper(path)
    return extract_tables(path).tables


def test_stacked_panels_keep_their_own_headers(tables: list) -> None:
    panels = [t for t in tables if t.label == "Table 3"]
    assert [t.panel for t in panels] == [
        "(a) Bulk RNA expression",
        "(b) Genomic structure prediction",
        "(c) Drosophila enhancer activity",
    ]
    assert {t.caption for t in panels} == {panels[0].caption} and panels[0].caption.startswith("Table 3: Results")
    assert [(t.n_cols, t.header_rows) for t in panels[:2]] == [(11, 2), (11, 2)]
    first = next(c for c in panels[1].cells if c.kind == "body" and c.value is not None)
    assert first.locator.readable == "Table 3 (b), row 'Genomic structure prediction / H1-ESC', column 'NT MSE'"
    assert first.locator.id.split(":")[2] == "Table3b"


def test_side_by_side_panels_with_sub_captions_below(tables: list) -> None:
    left, right = [t for t in tables if t.label == "Table 6"]
    assert (left.panel, right.panel) == ("(a) Core promoter", "(b) Promoter detection")
    assert left.grid()[0] == right.grid()[0] == ["Model", "notata", "tata", "all"]
    assert left.bbox[2] < right.bbox[0]  # each panel only its own half


@needs_shared
def test_plot_titles_under_a_table_do_not_cut_it_into_panels() -> None:
    """FOA (arXiv 2404.01650) Table 4 runs into Figure 2, whose plots are titled "(a) Effects of ...": the
    table's rules run under all three titles, so they are not its sub-captions."""
    found = extract_tables(SHARED / "corpus" / "papers" / "2404.01650v2_forward_only_tta.pdf").tables
    table4 = [t for t in found if t.label == "Table 4"]
    assert len(table4) == 1 and table4[0].panel is None


def test_continued_table_is_one_table_with_its_pages(tables: list) -> None:
    (table,) = [t for t in tables if t.label == "Table 7"]
    assert table.continued_pages == [table.page + 1]
    pages = {c.locator.page for c in table.cells if c.kind == "body"}
    assert pages == {table.page, table.page + 1} and table.n_rows == 11
