"""Tables set sideways on a page (a landscape table on a portrait page): the page is read in the frame where
their text stands upright, and what is found there is mapped back to the page as displayed."""

from __future__ import annotations

import dataclasses
from collections import Counter

from pipeline.extract.page.words import build_words, group_lines
from pipeline.extract.reading.chars import Char, PageContent
from pipeline.extract.reading.graphics import Rule
from pipeline.extract.regions.captions import bare_caption_label
from pipeline.model import BBox, Table

SIDEWAYS_SHARE = 0.5  # a page is turned when at least this share of its glyphs runs one way sideways
CAPTIONED_SHARE = 0.1  # ... or this share, when a table caption stands among them and none in the upright text


def turn_page(content: PageContent, word_gap: float) -> PageContent:
    """``content`` in the frame where most of its text reads left to right (itself when it already does), or
    where a table caption reads (a sideways table beside upright text: a reference list, a column of prose)."""
    turns = Counter(c.turn for c in content.chars if c.turn in (90, 270))
    turn, n = turns.most_common(1)[0] if turns else (0, 0)
    if not n or n < CAPTIONED_SHARE * len(content.chars):
        return content
    turned = _turned(content, turn)
    if n >= SIDEWAYS_SHARE * len(content.chars):
        return turned
    return turned if _names_a_table(turned, word_gap) and not _names_a_table(content, word_gap) else content


def _names_a_table(content: PageContent, word_gap: float) -> bool:
    """A line of the frame's upright text starts a table caption."""
    words = build_words((c for c in content.chars if c.upright), word_gap)
    return any(bare_caption_label(line.text) for line in group_lines(words))


def _turned(content: PageContent, turn: int) -> PageContent:
    width, height = content.width, content.height
    return dataclasses.replace(
        content,
        width=height,
        height=width,
        chars=[_turn_char(c, turn, width, height) for c in content.chars],
        drawing=dataclasses.replace(
            content.drawing,
            **{name: _turn_boxes(boxes, turn, width, height) for name, boxes in content.drawing.boxes().items()},
        ),
        turn=turn,
    )


def _turn_boxes(boxes: list[Rule], turn: int, width: float, height: float) -> list[Rule]:
    return [Rule(*_forward((r.x0, r.top, r.x1, r.bottom), turn, width, height), r.shade) for r in boxes]


def _forward(box: BBox, turn: int, width: float, height: float) -> BBox:
    x0, top, x1, bottom = box
    if turn == 90:  # read bottom to top: the page's bottom edge becomes the left edge
        return (height - bottom, x0, height - top, x1)
    return (top, width - x1, bottom, width - x0)


def page_box(box: BBox, content: PageContent) -> BBox:
    """A box of the turned frame on the page as displayed."""
    x0, top, x1, bottom = box
    if content.turn == 90:
        return (top, content.width - x1, bottom, content.width - x0)
    if content.turn == 270:
        return (content.height - bottom, x0, content.height - top, x1)
    return box


def _turn_char(c: Char, turn: int, width: float, height: float) -> Char:
    x0, top, x1, bottom = _forward((c.x0, c.top, c.x1, c.bottom), turn, width, height)
    baseline = c.origin_x if turn == 90 else width - c.origin_x
    if c.turn != turn:  # the page's upright text (running heads) is sideways in this frame
        return dataclasses.replace(c, x0=x0, top=top, x1=x1, bottom=bottom, upright=False, turn=-1)
    return dataclasses.replace(c, x0=x0, top=top, x1=x1, bottom=bottom, baseline=baseline, upright=True, turn=0)


def to_page_frame(table: Table, content: PageContent) -> Table:
    """A table read in a turned frame, its boxes put back on the page, and why it was read that way."""
    if not content.turn:
        return table
    table.bbox = page_box(table.bbox, content)
    for cell in table.cells:
        if cell.bbox is not None:
            cell.bbox = page_box(cell.bbox, content)
    table.notes.append(f"read turned {content.turn} degrees: its text runs sideways on the page")
    return table
