"""A table's label where it is printed other than as "Table N." over its grid (issue 29): a heading in capitals
naming a table continued overleaf under a "Continued" line, a double-spaced manuscript's caption, a label alone
on its line with the title under it; and their look-alikes (a heading over prose, a new table overleaf, a label
mentioned in running text, a paragraph after the caption)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from extraction_checks import assert_cells_found_in_their_bboxes, render_and_extract, typed_chars
from papers import tables
from papers.label_layouts import CAPTION, LABEL_LAYOUT_RENDERERS, PLAIN_CAPTION, SHORT_TITLE

from pipeline.extract.document.continued import merge_continuations, page_parts
from pipeline.extract.document.pages import DocumentPages
from pipeline.extract.document.tables import _read
from pipeline.extract.page.gutters import find_gutters
from pipeline.extract.page.words import build_words, group_lines
from pipeline.extract.reading.chars import open_pdf
from pipeline.extract.settings import ExtractionSettings
from pipeline.fixtures import PaperTruth
from pipeline.model import Table, TablesFile


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, PaperTruth, TablesFile]]:
    return render_and_extract(tmp_path_factory.mktemp("labels"), LABEL_LAYOUT_RENDERERS)


def test_a_part_under_a_continued_line_takes_the_label_of_the_table_it_continues(rendered: dict) -> None:
    """Overleaf the part has no caption of its own, only 'Continued' inside its rules and the header again: one
    table under the heading that names it, each page's part with its header; the heading in capitals over the
    prose after it names no table."""
    pdf, paper, found = rendered["key_resources"]
    (truth,) = paper.tables
    (table,) = found.tables
    assert (table.label, table.caption, table.page, table.continued_pages) == ("KEY RESOURCES TABLE",) * 2 + (1, [2])
    assert table.grid() == truth.cells and table.header_rows == 1
    assert not table.headless_pages
    assert [(p.page, p.header_rows, p.grid()) for p in page_parts(table)] == [
        (t.page, t.header_rows, t.cells) for t in truth.parts
    ]
    assert table.confidence >= 0.8
    assert_cells_found_in_their_bboxes(pdf, found)


def test_a_new_table_at_the_head_of_the_next_page_is_not_a_continuation(rendered: dict) -> None:
    """As many columns, but its own header and no 'Continued' line: a table of its own, unlabelled."""
    _, paper, found = rendered["new_table_overleaf"]
    first, other = paper.tables
    kr, new = found.tables
    assert (kr.label, kr.continued_pages, kr.grid()) == ("KEY RESOURCES TABLE", [], first.cells)
    assert (new.label, new.page, new.grid(), new.header_rows) == (None, 2, other.cells, 1)


def test_a_double_spaced_caption_is_one_caption_and_a_mention_is_none(rendered: dict) -> None:
    """The caption's lines are as far apart as the manuscript's lines; lines of running text that start with
    'Table 2 of' or, in mid-sentence (the line above as far as the page sets its lines), 'Table S3:' mention
    tables and name none: the page's only caption is the table's."""
    pdf, paper, found = rendered["double_spaced_caption"]
    (table,) = found.tables
    assert (table.label, table.caption) == ("Table 1", f"Table 1 {CAPTION}")
    assert table.grid() == paper.tables[0].cells
    doc = open_pdf(pdf)
    try:
        page = DocumentPages(lambda i: _read(doc, i, ExtractionSettings(), {}), len(doc)).get(0)
    finally:
        doc.close()
    assert [c.label for c in page.captions] == ["Table 1"]


def test_a_label_alone_on_its_line_takes_the_title_under_it_and_no_more(rendered: dict) -> None:
    """'TABLE 1' alone and centred under the table, its title on the next double-spaced lines; the paragraph after
    a blank line is running text."""
    _, paper, found = rendered["label_alone_below"]
    (table,) = found.tables
    assert (table.label, table.caption, table.caption_position) == ("Table 1", f"TABLE 1 {CAPTION}", "below")
    assert table.grid() == paper.tables[0].cells


def test_running_text_right_after_a_double_spaced_caption_is_not_the_caption(rendered: dict) -> None:
    """The paragraph after the caption follows at the manuscript's line spacing, as the caption's own lines would:
    its lines run wider than the caption, so the caption ends at its own line."""
    _, paper, found = rendered["paragraph_after_caption"]
    (table,) = found.tables
    assert (table.label, table.caption, table.caption_position) == ("Table 1", SHORT_TITLE, "below")
    assert table.grid() == paper.tables[0].cells


def test_a_plain_label_over_a_table_starts_its_caption_and_one_under_a_table_is_running_text(rendered: dict) -> None:
    """'Table 1 Accuracy ...' in the body's type, a table right under it: its caption. 'Table 2 Results ...' in
    the paragraph right under the table is running text: no caption, so no label left unplaced beside the
    table to doubt it."""
    _, paper, found = rendered["plain_caption"]
    (table,) = found.tables
    assert (table.label, table.caption) == ("Table 1", f"Table 1 {PLAIN_CAPTION}")
    assert table.grid() == paper.tables[0].cells
    assert table.confidence >= 0.8


def test_a_table_printed_under_its_label_alone_takes_its_title_from_the_page_of_captions(rendered: dict) -> None:
    """'Table 1' alone over the table, its title with the other captions a page before: the table takes it, and
    says where it was printed; Table 2, printed under its own full caption, keeps that one."""
    _, paper, found = rendered["title_elsewhere"]
    one, two = found.tables
    truth_one, truth_two = paper.tables
    assert (one.label, one.page, one.caption) == ("Table 1", 2, f"Table 1. {tables.booktabs().caption}")
    assert any("title is printed on page 1" in note for note in one.notes)
    assert (two.label, two.caption) == ("Table 2", truth_two.caption)
    assert not any("title is printed" in note for note in two.notes)
    assert one.grid() == truth_one.cells and two.grid() == truth_two.cells


def _part(rows: Sequence[Sequence[str | None]], page: int, label: str | None) -> Table:
    return Table.from_grid(rows, label=label, page=page)


def test_a_first_row_that_only_starts_with_continued_is_no_marker() -> None:
    """'Continued treatment' heads a new table's header: it does not say the part goes on from the page before."""
    first = _part([["Drug", "Dose", "N"], ["A", "10", "4"], ["B", "20", "5"]], 1, "Table 1")
    new = _part([["Continued treatment", "Dose", "N"], ["A", "15", "3"]], 2, None)
    marked = _part([["(continued)", "", ""], ["Drug", "Dose", "N"], ["C", "30", "6"]], 2, None)
    assert len(merge_continuations([first, new])) == 2
    (merged,) = merge_continuations([_part(first.grid(), 1, "Table 1"), marked])
    assert merged.grid() == [["Drug", "Dose", "N"], ["A", "10", "4"], ["B", "20", "5"], ["C", "30", "6"]]


DIGITS, WORDS = "1415926 5358979 3238462 6433832", "the model reads it so very well"


@pytest.mark.parametrize(("cell", "columns"), [(DIGITS, 0), (WORDS, 2)])
def test_channels_between_columns_of_numbers_are_no_gutters(cell: str, columns: int) -> None:
    """A page-high table of digit groups (retro Table 21: samples of the decimals of pi) leaves channels down the
    page between its columns; rows of numbers are no running text, so they make no page columns (which would cut
    its header cells into 'running text' and leave its caption unplaced). The same layout in words is three
    columns of running text, parted by two gutters."""
    chars = [c for i in range(20) for x0 in (72, 212, 352) for c in typed_chars(cell, x0, 100 + 10 * i, 7.0)]
    lines = group_lines(build_words(chars, 0.12))
    assert len(find_gutters(lines, 612)) == columns
