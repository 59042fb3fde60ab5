"""A table's confidence tells the truth: each kind of doubt the page gives lowers it under the audit's 0.8 bar with
its reason written on the table, and a clean look-alike of the same layout keeps it high (generated papers)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from types import SimpleNamespace

import pytest
from extraction_checks import DOUBT, SURE, doubts, only_table
from papers.doubt_layouts import (
    GRID_LAYOUTS,
    render_at_foot,
    render_grid_layout,
    render_header_under_caption,
    render_lost_symbol,
    render_uncaptioned,
)
from papers.extra_features import render_side_by_side
from papers.non_tables import render_boxed_table

import pipeline.extract.document.tables as document
from pipeline.extract.confidence.doubts import SIGNALS, Evidence, goes_on_below, symbol_font_letters
from pipeline.extract.document.tables import extract_tables
from pipeline.extract.grid.columns import Placed
from pipeline.extract.grid.structure import Grid
from pipeline.extract.page.words import Line, Word
from pipeline.extract.reading.chars import Char
from pipeline.extract.regions.grow import Region


@pytest.mark.parametrize("signal", sorted(GRID_LAYOUTS))
def test_a_doubtful_layout_is_under_the_bar_with_its_reason(signal: str, tmp_path: Path) -> None:
    doubtful, _ = GRID_LAYOUTS[signal]
    truth = render_grid_layout(doubtful(), tmp_path / "doubtful.pdf")
    table = only_table(tmp_path / "doubtful.pdf")
    assert table.label == truth.tables[0].label
    assert table.confidence < DOUBT, (table.confidence, table.notes)
    assert doubts(table), table.notes


@pytest.mark.parametrize("signal", sorted(GRID_LAYOUTS))
def test_a_clean_look_alike_keeps_its_confidence(signal: str, tmp_path: Path) -> None:
    _, clean = GRID_LAYOUTS[signal]
    truth = render_grid_layout(clean(), tmp_path / "clean.pdf")
    table = only_table(tmp_path / "clean.pdf")
    assert table.grid() == truth.tables[0].cells
    assert table.confidence >= SURE, (table.confidence, table.notes)
    assert not doubts(table)


def test_a_table_open_at_the_foot_of_the_page_may_run_on(tmp_path: Path) -> None:
    truth = render_at_foot(tmp_path / "open.pdf", closed=False)
    table = only_table(tmp_path / "open.pdf")
    assert table.grid() == truth.tables[0].cells
    assert table.confidence < DOUBT
    assert any("foot of the page" in n for n in doubts(table)), table.notes


def test_a_table_closed_by_its_rule_at_the_foot_is_whole(tmp_path: Path) -> None:
    truth = render_at_foot(tmp_path / "closed.pdf", closed=True)
    table = only_table(tmp_path / "closed.pdf")
    assert table.grid() == truth.tables[0].cells
    assert table.confidence >= SURE and not doubts(table), table.notes


def test_every_signal_states_a_principle() -> None:
    """Each registered signal says, in its docstring, what holds on any page (not what one paper shows)."""
    for name, (ceiling, signal) in SIGNALS.items():
        assert 0 < ceiling < DOUBT, name
        assert signal.__doc__ and len(signal.__doc__.split()) >= 15, name


@pytest.mark.parametrize("at_head", [True, False])
def test_an_uncaptioned_table_at_the_head_of_a_page_may_continue_another(at_head: bool, tmp_path: Path) -> None:
    truth = render_uncaptioned(tmp_path / "uncaptioned.pdf", at_head)
    table = only_table(tmp_path / "uncaptioned.pdf")
    assert table.label is None and table.grid() == truth.tables[0].cells
    doubted = any("head of the page" in n for n in doubts(table))
    assert doubted == at_head and (table.confidence < DOUBT) == at_head, (table.confidence, table.notes)


@pytest.mark.parametrize("lost", [True, False])
def test_a_caption_beside_a_table_with_no_table_of_its_own_doubts_it(
    lost: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two tables side by side, each under its caption; when the right one's table (Table 6) is not read, its caption
    is a label seen but not placed, and the table beside it may hold it too."""
    render_side_by_side(tmp_path / "side.pdf")
    read = document.table_from_region

    def losing_table_2(layout, region, *rest):  # type: ignore[no-untyped-def]
        caption = region.caption
        return None if lost and caption is not None and caption.label == "Table 6" else read(layout, region, *rest)

    monkeypatch.setattr(document, "table_from_region", losing_table_2)
    found = {t.label: t for t in extract_tables(tmp_path / "side.pdf").tables}
    left = found["Table 5"]
    doubted = any("caption of Table 6" in n for n in doubts(left))
    assert doubted == lost and (left.confidence < DOUBT) == lost, (left.confidence, left.notes)


@pytest.mark.parametrize("open_head", [True, False])
def test_a_header_read_as_the_captions_last_line_is_doubted(open_head: bool, tmp_path: Path) -> None:
    """A header line set with no rule over it, as close under the caption as the caption's lines, is read as one
    more caption line; its words, parted by column gaps over the grid's columns, say it is no caption text."""
    truth = render_header_under_caption(tmp_path / "head.pdf", open_head)
    table = only_table(tmp_path / "head.pdf")
    assert table.label == "Table 1"
    if open_head:
        assert table.confidence < DOUBT and any("set in pieces over the columns" in n for n in doubts(table))
    else:
        assert table.grid() == truth.tables[0].cells
        assert table.confidence >= SURE and not doubts(table), table.notes


@pytest.mark.parametrize("lost", [True, False])
def test_a_symbol_read_as_a_digit_is_doubted(lost: bool, tmp_path: Path) -> None:
    """'726±88' with its '±' from a symbol font the text layer reads as '6': a lone digit in a font of its own
    inside a number says the cell is not what is printed; the same table with '±' in the text font is trusted."""
    truth = render_lost_symbol(tmp_path / "symbol.pdf", lost)
    table = only_table(tmp_path / "symbol.pdf")
    if lost:
        assert table.confidence < DOUBT and any("font of its own" in n for n in doubts(table)), table.notes
    else:
        assert table.grid() == truth.tables[0].cells
        assert table.confidence >= SURE and not doubts(table), table.notes


@pytest.mark.parametrize("cut", [True, False])
def test_a_row_left_inside_the_tables_frame_is_doubted(
    cut: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full-grid table whose region starts below its header row (as when a bold header is taken for a heading):
    the column rules run on above the region over words no cell holds; the whole region has none left out."""
    render_boxed_table(tmp_path / "grid.pdf", captioned=True)
    read = document.table_from_region

    def below_the_header(layout, region, *rest):  # type: ignore[no-untyped-def]
        first = min(ln.bottom for ln in region.lines if ln.top > region.top - 1)
        shrunk = dataclasses.replace(region, top=first + 1) if cut else region
        return read(layout, shrunk, *rest)

    monkeypatch.setattr(document, "table_from_region", below_the_header)
    table = only_table(tmp_path / "grid.pdf")
    doubted = any("column rules run on above it over 'Model Parameters" in n for n in doubts(table))
    assert doubted == cut and (table.confidence < DOUBT) == cut, (table.confidence, table.notes)


def _word_in(font: str, text: str, x0: float) -> Word:
    chars = [Char(ch, x0 + 4 * i, x0 + 4 * (i + 1), 100.0, 108.0, 106.0, 8.0, font) for i, ch in enumerate(text)]
    return Word(chars, chars[0].x0, chars[-1].x1, 100.0, 108.0, 8.0)


@pytest.mark.parametrize(
    ("font", "text", "doubted"),
    [
        ("Universal-GreekwithMathPi", "ab", True),  # α β given as the Latin letters of their codes
        ("ABCDEF+SymbolMT", "1", True),  # a '+' given as its code's digit
        ("Symbol", "αβ", False),  # the look-alike: a symbol font that maps its glyphs to Greek
        ("Times-Roman", "ab", False),  # Latin letters in a Latin font
    ],
)
def test_letters_of_a_symbol_font_without_its_own_unicode_are_doubted(font: str, text: str, doubted: bool) -> None:
    """A Greek or symbol font with no Unicode of its own yields its glyphs' codes: the text read is not printed."""
    cells = [Placed(0, 0, [_word_in("Times-Roman", "Integrin", 10.0)]), Placed(0, 1, [_word_in(font, text, 60.0)])]
    grid = Grid(cells, n_rows=1, n_cols=2, header_rows=0)
    evidence = Evidence(grid, region=None, layout=None, stubs=1)  # type: ignore[arg-type]  # the signal reads the grid
    assert (symbol_font_letters(evidence) is not None) == doubted


@pytest.mark.parametrize(
    ("text", "gap", "doubted"),
    [
        ("and monocytes", 2.0, True),  # the last label's next line, left out of the region
        ("and monocytes", 9.0, False),  # a line a gap below: not the table's
        ("Note: values are means", 2.0, False),  # a note starts anew
        ("aOdds ratio per allele", 2.0, False),  # a footnote's raised mark, then its text
    ],
)
def test_a_line_going_on_right_under_the_last_row_is_doubted(text: str, gap: float, doubted: bool) -> None:
    """Words set at a cell's line pitch right under the table's last line, in lower case, go on from its last row."""
    words = []
    for i, token in enumerate(text.split()):
        word = _word_in("Helvetica", token, 60.0 + 40 * i)
        word.top, word.bottom = 100.0 + gap, 108.0 + gap
        words.append(word)
    if text.startswith("aOdds"):
        words[0].chars[0].size = 5.0  # the footnote mark is set small
    region = Region(50.0, 20.0, 300.0, 100.0)
    layout = SimpleNamespace(column_lines=[Line(words)], body_size=8.0)
    evidence = Evidence(Grid([], 0, 0, 0), region, layout, stubs=1)  # type: ignore[arg-type]  # lines and region
    assert (goes_on_below(evidence) is not None) == doubted
