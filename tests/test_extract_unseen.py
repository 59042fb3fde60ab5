"""Layouts that broke extraction on papers kept aside (issue 29), generated with their look-alikes: each kind
reads exactly, and each look-alike reads as it did before the rule for the kind was added."""

from __future__ import annotations

from pathlib import Path

import pytest
from extraction_checks import assert_cells_found_in_their_bboxes
from papers.unseen_layouts import UNSEEN_LAYOUT_PAPERS, UNSEEN_LAYOUT_RENDERERS

from pipeline.extract.document.tables import extract_tables
from pipeline.fixtures import PaperTruth, render_paper
from pipeline.model import TablesFile


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, PaperTruth, TablesFile]]:
    folder = tmp_path_factory.mktemp("unseen")
    out = {}
    renderers = {
        **{name: (lambda path, spec=spec: render_paper(spec, path)) for name, spec in UNSEEN_LAYOUT_PAPERS.items()},
        **UNSEEN_LAYOUT_RENDERERS,
    }
    for name, render in renderers.items():
        pdf = folder / f"{name}.pdf"
        truth = render(pdf)
        out[name] = (pdf, truth, extract_tables(pdf))
    return out


DOUBTED = {"note_row_over_rule", "three_across_narrow"}  # read as two tables, each doubted; parted in doubt


@pytest.mark.parametrize("name", sorted({*UNSEEN_LAYOUT_PAPERS, *UNSEEN_LAYOUT_RENDERERS} - DOUBTED))
def test_each_layout_and_its_look_alike_read_exactly(name: str, rendered: dict) -> None:
    pdf, paper, found = rendered[name]
    assert [t.label for t in found.tables] == [t.label for t in paper.tables]
    for truth, table in zip(paper.tables, found.tables, strict=True):
        assert table.grid() == truth.cells
        assert table.page == truth.page
        assert table.header_rows == truth.header_rows
        assert table.caption == truth.caption
    if not any("read turned" in note for table in found.tables for note in table.notes):  # (pdfplumber: upright)
        assert_cells_found_in_their_bboxes(pdf, found)
    assert all(t.confidence >= 0.8 for t in found.tables)  # not doubted (a spanning row lowers the shape share)


def test_a_label_wrapped_beside_centred_values_is_one_row(rendered: dict) -> None:
    """The first line of 'Mouse enhancers from the candidate / cis-regulatory element registry of ENCODE' reads
    like running text; the table goes on past it, and both lines are one label beside its centred value."""
    _, paper, found = rendered["wrapped_labels"]
    (table,) = found.tables
    rows = table.grid()
    assert ["Mouse enhancers from the candidate cis-regulatory element registry of ENCODE", "1,210 (1)"] in rows
    assert len(rows) == len(paper.tables[0].cells)
    assert table.confidence >= 0.9


def test_a_page_high_table_is_not_cut_at_its_own_column_gap(rendered: dict) -> None:
    """The channel between the descriptions and the references runs down the whole page like a gutter, and a
    reference ('Chung and Erickson, 1997') reads like running text in that 'column'; the table is one."""
    _, paper, found = rendered["page_high_table"]
    (table,) = found.tables
    assert table.n_rows == len(paper.tables[0].cells) == 41
    x0, _, x1, _ = table.bbox
    assert x0 <= paper.tables[0].bbox[0] + 2 and x1 >= paper.tables[0].bbox[2] - 2


def test_a_note_row_between_the_table_rules_is_a_spanning_row(rendered: dict) -> None:
    """The note reads like running text, but rows and the table's bottom rule come after it: it is a row of
    the table, spanning its columns, not the end of the stub cell above it."""
    _, _, found = rendered["note_row"]
    (table,) = found.tables
    (note,) = [c for c in table.cells if c.text.startswith("Models below")]
    assert (note.row, note.col, note.col_span) == (4, 0, 4)


def test_a_table_cut_at_a_note_row_is_doubted_in_both_parts(rendered: dict) -> None:
    """With a rule right under the note row, the captioned part ends over the note and the rows under it come
    out as an uncaptioned table. Neither part is sure: both under the audit's warning bar (0.8), each saying
    why; the same table without the note row stays sure (the look-alike above)."""
    pdf, paper, found = rendered["note_row_over_rule"]
    truth = paper.tables[0].cells
    head, rest = found.tables
    assert head.label == "Table 1" and rest.label is None
    assert head.grid() == truth[:4]
    assert [row[0] for row in rest.grid()] == [row[0] for row in truth[5:]]
    assert head.confidence < 0.8 and rest.confidence < 0.8
    assert any("may be cut in two" in note for note in head.notes)
    assert any("may be its rest" in note for note in rest.notes)
    assert_cells_found_in_their_bboxes(pdf, found)


def test_a_sideways_table_beside_upright_text_is_read_turned(rendered: dict) -> None:
    """Most glyphs of the page stand upright (a reference list), but the only table caption runs up the page:
    the page is read in the frame where the caption stands; a sideways margin notice with no caption beside
    an upright table does not turn its page (the look-alike reads exactly, upright)."""
    _, _, found = rendered["sideways_beside_references"]
    (table,) = found.tables
    assert any("read turned 90 degrees" in note for note in table.notes)
    x0, top, x1, bottom = table.bbox
    assert bottom - top > x1 - x0  # the table runs up the page
    _, _, upright = rendered["upright_beside_margin_note"]
    assert not any("read turned" in note for table in upright.tables for note in table.notes)


def test_captions_an_ordinary_space_apart_part_their_tables_in_doubt(rendered: dict) -> None:
    """Three caption starts on one line part three tables even with no gap wider than an em between them;
    each is read under its own label, but where one ends and the next begins is a guess: doubted."""
    _, paper, found = rendered["three_across_narrow"]
    assert sorted(t.label for t in found.tables) == ["Table 1", "Table 2", "Table 3"]
    for truth in paper.tables:
        (table,) = [t for t in found.tables if t.label == truth.label]
        assert table.grid() == truth.cells
        assert table.caption == truth.caption
    doubted = {t.label for t in found.tables if t.confidence < 0.8 and any("less than an em" in n for n in t.notes)}
    assert doubted == {"Table 1", "Table 2"}  # the captions an ordinary space apart; Tables 2 and 3 an em apart


@pytest.mark.parametrize("name", ["hanging_indent", "spaced_rows"])
def test_wrapped_lines_of_a_table_of_words_are_no_rows(name: str, rendered: dict) -> None:
    """A line starting a hanging indent, set closer than rows are, or going on from a stub that ends open (';') is a
    line of the row above; a row with an empty stub, or a stub alone that ends closed, stays a row."""
    _, paper, found = rendered[name]
    (table,) = found.tables
    rows = table.grid()
    assert len(rows) == len(paper.tables[0].cells)
    assert any(row[0] == "" and row[1] for row in rows)  # a row with an empty stub
    assert any(row[0] and not any(row[1:]) for row in rows)  # a stub alone on its row


def test_a_stub_indented_under_its_parent_is_a_row_of_its_own(rendered: dict) -> None:
    """Sub-row stubs set an indent right, beside cells at their columns' edges (or none), are rows."""
    _, paper, found = rendered["sub_rows"]
    (table,) = found.tables
    assert table.grid() == paper.tables[0].cells
    assert ["FN 1-3", "", ""] in table.grid()


@pytest.mark.parametrize("name", ["centred_long_labels", "top_long_labels"])
def test_labels_wrapped_over_many_lines_keep_their_own_values(name: str, rendered: dict) -> None:
    """A value centred on a label of three or five lines has the label's first lines above it: set a row apart
    from the label above and close to the value's line, they are its label's, not the end of the label above."""
    _, paper, found = rendered[name]
    (table,) = found.tables
    assert table.grid() == paper.tables[0].cells
    assert ["Time to neutrophil engraftment", ""] in table.grid()  # a label with no value is a row of its own
    assert table.confidence >= 0.9
