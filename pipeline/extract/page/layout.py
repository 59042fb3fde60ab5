"""One page read and arranged: words, text lines, the gutters, column lines and the body font size."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from pipeline.extract.page.gutters import cut_at_gutters, find_gutters
from pipeline.extract.page.margins import drop_line_numbers
from pipeline.extract.page.minipages import Band, cut_at_bands, find_bands
from pipeline.extract.page.once import made_once
from pipeline.extract.page.words import Line, Word, build_words, group_lines
from pipeline.extract.reading.chars import PageContent
from pipeline.extract.reading.graphics import Rule
from pipeline.extract.settings import ExtractionSettings


@dataclass
class PageLayout:
    content: PageContent
    words: list[Word]
    lines: list[Line]  # whole page lines (may run across both columns)
    column_lines: list[Line]  # lines cut at the gutters: what a reader reads as one line
    gutters: list[float]
    body_size: float
    text_x0: float
    text_x1: float
    body_top: float  # running heads and page numbers lie outside [body_top, body_bottom]
    body_bottom: float
    bands: list[Band] = field(default_factory=list)  # local gutters between captions set side by side

    @property
    def number(self) -> int:
        return self.content.number

    @property
    def hrules(self) -> list[Rule]:
        return self.content.drawing.hrules

    @made_once
    def spacing(self) -> float:
        """How far apart the page sets its lines, relative to single spacing: 2 on a double-spaced
        manuscript, whose gaps between rows and captions are twice as wide too."""
        steps = sorted(
            b.baseline - a.baseline
            for a, b in pairwise(self.column_lines)
            if 0.5 * self.body_size < b.baseline - a.baseline < 4 * self.body_size
        )
        if len(steps) < 10:
            return 1.0
        return max(1.0, steps[len(steps) // 2] / (1.3 * self.body_size))

    @property
    def extra_leading(self) -> float:
        """Points of extra space between lines beyond single spacing (0 on a typeset page)."""
        return (self.spacing - 1.0) * 1.3 * self.body_size

    def words_in(self, x0: float, top: float, x1: float, bottom: float) -> list[Word]:
        """Words whose centre lies inside the box."""
        return [w for w in self.words if x0 <= w.center_x <= x1 and top <= w.middle <= bottom]


def arrange_page(content: PageContent, settings: ExtractionSettings) -> PageLayout:
    words = drop_line_numbers(build_words(content.chars, settings.word_gap), content.drawing.rules)
    upright = [w for w in words if w.upright]
    lines = group_lines(upright)
    gutters = find_gutters(lines, content.width)
    sizes: Counter[float] = Counter()
    for w in upright:  # glyphs counted per word: one rounding per word
        sizes[round(w.size, 1)] += len(w.chars)
    body_size = sizes.most_common(1)[0][0] if sizes else 10.0
    long_lines = [ln for ln in lines if ln.x1 - ln.x0 > 0.2 * content.width] or lines
    text_x0 = min((ln.x0 for ln in long_lines), default=0.0)
    text_x1 = max((ln.x1 for ln in long_lines), default=content.width)
    body_top, body_bottom = body_bounds(content, lines)
    column_lines = cut_at_gutters(lines, gutters)
    bands = find_bands(column_lines, body_size)
    return PageLayout(
        content,
        words,
        lines,
        cut_at_bands(column_lines, bands),
        gutters,
        body_size,
        text_x0,
        text_x1,
        body_top,
        body_bottom,
        bands,
    )


def body_bounds(content: PageContent, lines: Sequence[Line] = ()) -> tuple[float, float]:
    """The band between the running head (and its rule) and the page number. A rule that vertical rules hang
    from or cross, or one that tops a ruled row of the page's ``lines``, is a framed table's top set high on the
    page, not the rule under a running head; without ``lines`` (a screen before the text is read) only the
    vertical rules tell."""
    top, bottom = 0.055 * content.height, 0.95 * content.height
    rules = content.drawing.hrules
    vertical = [r for r in content.drawing.rules if not r.horizontal]
    head_rules = [
        r
        for r in rules
        if r.y < 0.09 * content.height
        and r.length > 0.3 * content.width
        and not any(r.x0 - 1 <= v.x <= r.x1 + 1 and v.top - 1.5 <= r.y <= v.bottom + 1.5 for v in vertical)
        and not _tops_ruled_row(r, rules, lines)
    ]
    if head_rules:
        top = max(top, min(r.bottom for r in head_rules) + 0.5)
    return top, bottom


def _tops_ruled_row(rule: Rule, rules: list[Rule], lines: Sequence[Line]) -> bool:
    """The rule is a table's top edge, not a running head's: the line right under it is closed by another rule
    of the same extent (a ruled table set at the top of the page, its caption below it)."""
    under = [ln for ln in lines if rule.y - 1 <= ln.top <= rule.y + ln.size and rule.x0 - 2 <= ln.x0 <= rule.x1]
    if not under:
        return False
    line = min(under, key=lambda ln: ln.top)
    if any(rule.y < other.y < line.top for other in rules):
        return False  # another rule comes first: the table's own top rule under the head's
    return any(
        other is not rule
        and abs(other.x0 - rule.x0) < 3
        and abs(other.x1 - rule.x1) < 3
        and line.bottom - 1 <= other.y <= line.bottom + line.size
        for other in rules
    )


def is_prose(line: Line, span_width: float, body_size: float) -> bool:
    """A line of running text: one stretch of closely spaced words, most of the column wide."""
    if len(line.pieces) > 1 or len(line.words) < 4:
        return False
    letters = sum(ch.isalpha() for ch in line.text)
    if letters < 0.6 * len(line.text.replace(" ", "")):
        return False
    return line.x1 - line.x0 >= 0.6 * span_width and line.size >= 0.85 * body_size


def is_tabular(line: Line) -> bool:
    return len(line.pieces) > 1
