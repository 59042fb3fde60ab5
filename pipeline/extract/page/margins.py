"""What a page prints in its margins and is no part of its content: line numbers of a submitted manuscript
(they would become a table column and glue two tables into one) and running heads and feet (a footer of a
journal name, a DOI and a page count reads like a small table)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from itertools import pairwise
from typing import TYPE_CHECKING

from pipeline.extract.page.words import Line, Word
from pipeline.extract.reading.graphics import Rule

if TYPE_CHECKING:
    from pipeline.extract.page.layout import PageLayout

MIN_LINE_NUMBERS = 5  # a margin column needs this many numbers before it is taken for line numbering
_DIGITS = re.compile(r"\d+")


def drop_line_numbers(words: list[Word], rules: Sequence[Rule] = ()) -> list[Word]:
    """``words`` without the page's line numbers: integers rising down the page in a margin strip left (or
    right) of all other text, that no rule crosses (a table's numbered first column sits under its rules)."""
    numbers = [w for w in words if w.upright and w.text.isdigit() and len(w.text) <= 5]
    if len(numbers) < MIN_LINE_NUMBERS:
        return words
    strips: dict[int, list[Word]] = {}
    for w in numbers:  # left margins align the numbers' left edges, right margins their right edges
        strips.setdefault(round(w.x0 / 3), []).append(w)
        strips.setdefault(-1 - round(w.x1 / 3), []).append(w)
    dropped: set[int] = set()
    for strip in strips.values():
        if len(strip) >= MIN_LINE_NUMBERS and _numbering(strip, words) and not _ruled_over(strip, rules):
            dropped |= {id(w) for w in strip}
    return [w for w in words if id(w) not in dropped] if dropped else words


def _numbering(strip: list[Word], words: list[Word]) -> bool:
    ordered = sorted(strip, key=lambda w: w.top)
    values = [int(w.text) for w in ordered]
    if any(b <= a for a, b in pairwise(values)):
        return False
    x0, x1 = min(w.x0 for w in strip), max(w.x1 for w in strip)
    members = {id(w) for w in strip}
    others = [w for w in words if id(w) not in members and w.upright]
    if not others:
        return False
    allowed = max(2, len(others) // 50)  # a stray banner word; a table's numbered column has prose beside it
    left_margin = sum(w.x0 < x1 + 2 for w in others) <= allowed
    right_margin = sum(w.x1 > x0 - 2 for w in others) <= allowed
    return left_margin or right_margin


def _ruled_over(strip: list[Word], rules: Sequence[Rule]) -> bool:
    x0, x1 = min(w.x0 for w in strip), max(w.x1 for w in strip)
    top, bottom = min(w.top for w in strip), max(w.bottom for w in strip)
    return any(r.horizontal and r.x0 < x0 and r.x1 > x1 and top - 30 <= r.y <= bottom + 30 for r in rules)


def running_text(line: Line) -> str:
    """A margin line's text with its numbers blanked: the same on every page of a running head or foot."""
    return _DIGITS.sub("#", line.text)


def _edge_lines(layout: PageLayout, reach: float) -> list[Line]:
    """The two lines nearest the top and the two nearest the bottom, within ``reach`` of the page edge."""
    height = layout.content.height
    ordered = sorted(layout.lines, key=lambda ln: ln.top)
    return [ln for ln in ordered[:2] if ln.top < reach * height] + [
        ln for ln in ordered[-2:] if ln.bottom > (1 - reach) * height
    ]


def running_texts(layout: PageLayout, reach: float = 0.12) -> set[str]:
    """What the page prints at its top and bottom edges, numbers blanked: counted over the document's pages
    to tell running heads and feet (see ``trim_running_matter``)."""
    return {running_text(ln) for ln in _edge_lines(layout, reach)}


def trim_running_matter(layout: PageLayout, seen: Counter[str], reach: float = 0.12) -> None:
    """Narrow the page's body band past its running heads and feet: edge lines whose text (numbers aside)
    recurs on at least two other pages (``seen``: ``running_texts`` counted over the document's pages)."""
    middle = layout.content.height / 2
    for ln in _edge_lines(layout, reach):
        if seen[running_text(ln)] < 3 or len(ln.text) < 6:
            continue
        if ln.top > middle:
            layout.body_bottom = min(layout.body_bottom, ln.top - 1)
        else:
            layout.body_top = max(layout.body_top, ln.bottom + 1)
