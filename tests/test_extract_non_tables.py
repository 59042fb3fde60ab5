"""Blocks aligned like tables that are not (issue 29, kind 8) never come out as tables above the audit's
needs-check bar, while real tables drawn the same way keep their grid and confidence (generated papers)."""

from __future__ import annotations

from pathlib import Path

import pytest
from papers.non_tables import render_author_block, render_boxed_table, render_flowchart

from pipeline.audit.settings import AuditSettings
from pipeline.extract.document.tables import extract_tables

NEEDS_CHECK = AuditSettings().needs_check_below
SURE = 0.9


@pytest.mark.parametrize("captioned", [True, False])
def test_a_flowchart_of_boxed_steps_is_no_table(captioned: bool, tmp_path: Path) -> None:
    """Boxed steps joined by arrows, under a figure caption or with none near: set apart as a figure."""
    render_flowchart(tmp_path / "flow.pdf", captioned)
    found = extract_tables(tmp_path / "flow.pdf")
    assert not [t for t in found.tables if t.confidence >= NEEDS_CHECK], [(t.confidence, t.notes) for t in found.tables]
    (figure,) = found.figures
    assert ("Figure 1." if captioned else "framed boxes of text standing apart") in figure.reason


def test_an_author_block_in_columns_is_no_table(tmp_path: Path) -> None:
    """Authors set in three columns under the title (names, addresses, telephones) line up like a table; the
    real table further down the page is read whole."""
    truth = render_author_block(tmp_path / "authors.pdf")
    found = extract_tables(tmp_path / "authors.pdf")
    (table,) = [t for t in found.tables if t.label == "Table 1"]
    assert table.grid() == truth.tables[0].cells and table.confidence >= SURE
    others = [t for t in found.tables if t.label is None]
    assert all(t.confidence < NEEDS_CHECK and any("front matter" in n for n in t.notes) for t in others), [
        (t.confidence, t.notes) for t in others
    ]


@pytest.mark.parametrize(
    ("captioned", "cell_boxes", "prose"),
    [(True, False, True), (False, False, True), (False, True, True), (False, False, False)],
)
def test_a_real_table_with_boxed_cells_is_read_and_trusted(
    captioned: bool, cell_boxes: bool, prose: bool, tmp_path: Path
) -> None:
    """The look-alike: every cell boxed (ruled through, or one rectangle round each cell, the frames abutting),
    on a first page after its title and a paragraph, or right under the title: a table, at full confidence."""
    truth = render_boxed_table(tmp_path / "boxed.pdf", captioned, cell_boxes, prose)
    found = extract_tables(tmp_path / "boxed.pdf")
    (table,) = found.tables
    assert table.label == ("Table 1" if captioned else None)
    assert table.grid() == truth.tables[0].cells
    assert table.confidence >= SURE, table.notes
    assert not found.figures
