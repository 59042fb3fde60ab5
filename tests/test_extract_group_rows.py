"""Group rows set like any other label, and ruled tables at the page top (issue 29), generated with their
look-alikes: each reads exactly, or, where the page cannot tell, is doubted with why."""

from __future__ import annotations

from pathlib import Path

import pytest
from extraction_checks import assert_cells_found_in_their_bboxes, assert_read_as_printed, render_and_extract
from papers.group_rows import GROUP_ROW_RENDERERS

from pipeline.fixtures import PaperTruth
from pipeline.model import TablesFile

DOUBTED = {"unruled_group_rows"}  # read joined, doubted: a group label under a label that had no room left


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, PaperTruth, TablesFile]]:
    return render_and_extract(tmp_path_factory.mktemp("group_rows"), GROUP_ROW_RENDERERS)


@pytest.mark.parametrize("name", sorted(set(GROUP_ROW_RENDERERS) - DOUBTED))
def test_each_layout_and_its_look_alike_read_exactly(name: str, rendered: dict) -> None:
    pdf, paper, found = rendered[name]
    assert_read_as_printed(paper, found)
    assert_cells_found_in_their_bboxes(pdf, found)


@pytest.mark.parametrize("name", ["group_rows", "ruled_group_rows"])
def test_a_label_alone_between_rows_of_values_spans_the_table(name: str, rendered: dict) -> None:
    """'Refinement', 'RMSD', 'Ramachandran plot': set like every label, at the rows' pitch, each one row."""
    _, _, found = rendered[name]
    (table,) = found.tables
    groups = {c.text: c.col_span for c in table.cells if c.text in ("Refinement", "RMSD", "Ramachandran plot")}
    assert groups and set(groups.values()) == {table.n_cols}


def test_a_wrapped_label_going_on_with_a_capital_stays_one_cell(rendered: dict) -> None:
    """'Mean B factor of' / 'Protein atoms (Å2)': the word did not fit on the first line, so the second line
    is the label's, though it starts like a new one."""
    _, _, found = rendered["wrapped_stub"]
    (table,) = found.tables
    assert ["Mean B factor of Protein atoms (Å2)", "45.8", "52.1"] in table.grid()


def test_a_group_label_under_a_full_label_without_a_rule_is_doubted(rendered: dict) -> None:
    """Under the widest label nothing tells a group's name from that label's second line: joined, and said so."""
    _, _, found = rendered["unruled_group_rows"]
    (table,) = found.tables
    assert table.confidence < 0.8
    assert any("starting anew" in note for note in table.notes)


def test_a_grid_at_the_page_top_keeps_its_header_row(rendered: dict) -> None:
    """The table's top rule lies where running heads put theirs; the header row under it is the table's."""
    _, _, found = rendered["grid_at_page_top"]
    (table,) = found.tables
    assert table.grid()[0] == ["Sample type", "Sample name", "Stage", "Age", "Sex"]
    assert table.caption_position == "below"


def test_a_label_joined_after_a_line_with_room_is_read_right_or_doubted(rendered: dict) -> None:
    """'glucocorticoids' / 'Median time from': the second label's first line had room on the line above, so it
    is no wrapped end of the first label; where the reading still joins them (values set centred on three-line
    labels), the table says so."""
    _, paper, found = rendered["centred_values"]
    (table,) = found.tables
    if table.grid() != paper.tables[0].cells:
        assert table.confidence < 0.8
        assert any("starting anew" in note for note in table.notes)
