"""Where each table sits on its page: grown from its caption through rules and tabular lines."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pipeline.extract.page.gutters import column_of
from pipeline.extract.page.layout import PageLayout, is_prose, is_tabular
from pipeline.extract.page.words import Line, split_line
from pipeline.extract.reading.graphics import Rule
from pipeline.extract.regions.captions import Caption, bare_caption_label, is_figure_caption
from pipeline.extract.settings import ExtractionSettings

_CONTINUATION_NOTE = re.compile(r"^\W*(?:continued\b|cont'd\b|cont\.).{0,30}$", re.IGNORECASE)
# the footnotes under a table, and the table's own DOI line (eLife, PLOS)
_NOTE_START = re.compile(r"^(?:(?:Notes?|Abbreviations?|Footnotes?|Source|DOI)\s*[:.]|https?://(?:dx\.)?doi\.org/)")


@dataclass
class Region:
    x0: float
    top: float
    x1: float
    bottom: float
    caption: Caption | None = None
    caption_position: str | None = None  # where the caption is relative to the table: "above" | "below"
    lines: list[Line] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)
    panel: str | None = None  # a panel of a multi-panel float: its sub-caption
    notes: list[str] = field(default_factory=list)  # why its extent is what it is
    doubts: list[tuple[float, str]] = field(default_factory=list)  # (confidence ceiling, why) the page gives

    @property
    def bbox(self) -> tuple[float, float, float, float]:
        return (self.x0, self.top, self.x1, self.bottom)


Item = Line | Rule
NARROW_BAND_CONFIDENCE = 0.7  # tables parted at a gap narrower than an em may hold a column of their neighbour


def _top(item: Item) -> float:
    return item.top


def _bottom(item: Item) -> float:
    return item.bottom


def caption_span(layout: PageLayout, caption: Caption, below: bool) -> tuple[float, float]:
    """The column the caption sits in, or the page's text width when it spans a gutter; beside another
    caption, its side of the band between them."""
    x0, x1 = column_of(caption.x0, caption.x1, layout.gutters, layout.text_x0, layout.text_x1)
    frame = _frame_rule(layout, caption, x0, x1, below)
    if frame is not None:  # the table's own top (or bottom) rule says how wide it is
        x0, x1 = frame.x0, frame.x1
    for band in layout.bands:
        if band.splits(caption.top, caption.top) and x0 < band.x < x1:
            x0, x1 = (x0, band.x) if caption.x1 <= band.x else (band.x, x1)
    return x0, x1


def _frame_rule(layout: PageLayout, caption: Caption, x0: float, x1: float, below: bool) -> Rule | None:
    """The long rule right under (or over) the caption on the table's side, when it runs across a gutter (a
    full-width table under a column-wide caption) or stops well inside the column (a boxed table beside
    running text); header lines may lie between them, a line wider than the rule may not."""
    reach = 4.5 * caption.size  # a header of two or three lines may come before the first rule
    mid = (caption.x0 + caption.x1) / 2
    near = [
        r
        for r in layout.hrules
        if (
            caption.bottom - 1 <= r.y <= caption.bottom + reach
            if below
            else caption.top - reach <= r.y <= caption.top + 1
        )
        and r.x0 - 2 <= mid <= r.x1 + 2
        and r.length >= 0.3 * (x1 - x0)
        and not _wider_line_between(layout, caption, r, below)
    ]
    if not near:
        return None
    rule = min(near, key=lambda r: abs(r.y - (caption.bottom if below else caption.top)))
    crosses = rule.x0 < x0 - 20 or rule.x1 > x1 + 20
    narrower = rule.x0 > x0 + 20 or rule.x1 < x1 - 20
    return rule if (crosses or narrower) and caption.x0 >= rule.x0 - 20 else None


def _wider_line_between(layout: PageLayout, caption: Caption, rule: Rule, below: bool) -> bool:
    """A line between caption and rule reaching past the rule's ends: the rule is not the table's frame. Where
    the rule is one of a stack (a rule under every row, eLife), only a word running over its ends is."""
    top, bottom = (caption.bottom, rule.y) if below else (rule.y, caption.top)
    between = [
        ln for ln in layout.column_lines if ln not in caption.lines and top - 1 <= ln.top and ln.bottom <= bottom + 1
    ]
    if _stacked(rule, layout):
        return any(w.x0 < end - 2 and w.x1 > end + 2 for ln in between for w in ln.words for end in (rule.x0, rule.x1))
    return any(
        f.x1 > rule.x0 and f.x0 < rule.x1 and (f.x0 < rule.x0 - 5 or f.x1 > rule.x1 + 5)
        for ln in between
        for f in split_line(ln, 1.5)
    )


def _stacked(rule: Rule, layout: PageLayout) -> bool:
    """Three or more rules share the rule's extent: the rows of a table ruled under every row."""
    return sum(abs(r.x0 - rule.x0) < 2 and abs(r.x1 - rule.x1) < 2 for r in layout.hrules) >= 3


def _cut_at(line: Line, span: tuple[float, float]) -> Line:
    """The part of a line inside a table's span where prose runs on beside the table (no gutter was found
    between them): cut where no word crosses the span's edge."""
    if _inside(line.x0, line.x1, span) or any(w.x0 < edge < w.x1 for w in line.words for edge in span):
        return line
    words = [w for w in line.words if span[0] - 2 <= w.x0 and w.x1 <= span[1] + 2]
    return Line(words) if words and len(words) < len(line.words) else line


def _wide_stop(line: Line, span: tuple[float, float], layout: PageLayout) -> bool:
    """A caption or a line of running text reaching over a table's narrow span still ends the table."""
    if line.x1 <= span[0] or line.x0 >= span[1]:
        return False
    return bool(bare_caption_label(line.text) or is_figure_caption(line.text)) or is_prose(
        line, layout.text_x1 - layout.text_x0, layout.body_size
    )


def _inside(x0: float, x1: float, span: tuple[float, float]) -> bool:
    mid = (x0 + x1) / 2
    return span[0] - 2 <= mid <= span[1] + 2 and x0 >= span[0] - 20 and x1 <= span[1] + 20


def _side_items(
    layout: PageLayout, caption: Caption, span: tuple[float, float], below: bool, narrower: bool
) -> list[Item]:
    """The lines and rules on one side of the caption within the span (``narrower``: cut at the span, the
    table being framed narrower than its column)."""
    caption_lines = {id(line) for line in caption.lines}
    lines: list[Item] = [
        ln
        for ln in (_cut_at(line, span) if narrower else line for line in layout.column_lines)
        if id(ln) not in caption_lines
        and layout.body_top <= ln.top
        and ln.bottom <= layout.body_bottom
        and (_inside(ln.x0, ln.x1, span) or _wide_stop(ln, span, layout))
        and ((ln.top >= caption.bottom - 1) if below else (ln.bottom <= caption.top + 1))
    ]
    width = span[1] - span[0]
    rules: list[Item] = [
        _clip(r, span, [*layout.gutters, *(b.x for b in layout.bands)])
        for r in layout.hrules
        if (r.x1 - r.x0) >= max(30.0, 0.1 * width)
        and layout.body_top <= r.top
        and r.bottom <= layout.body_bottom
        and span[0] - 30 <= r.x <= span[1] + 30
        and ((r.top >= caption.bottom - 1) if below else (r.bottom <= caption.top + 1))
    ]
    items = lines + rules
    return sorted(items, key=_top) if below else sorted(items, key=_bottom, reverse=True)


def _framed_in_column(layout: PageLayout, caption: Caption, span: tuple[float, float]) -> bool:
    """The table's own rules make it narrower than its column: a framed table beside running text."""
    column = column_of(caption.x0, caption.x1, layout.gutters, layout.text_x0, layout.text_x1)
    return span[0] > column[0] + 20 or span[1] < column[1] - 20


def _clip(rule: Rule, span: tuple[float, float], gutters: list[float]) -> Rule:
    """A rule that runs on over a gutter into the next column (two tables' top rules drawn as one) is this
    column's part of it."""
    lo = span[0] if any(abs(span[0] - g) < 1 for g in gutters) else rule.x0
    hi = span[1] if any(abs(span[1] - g) < 1 for g in gutters) else rule.x1
    x0, x1 = max(rule.x0, lo), min(rule.x1, hi)
    return rule if (x0, x1) == (rule.x0, rule.x1) else Rule(x0, rule.top, x1, rule.bottom)


def _gap(prev_edge: float, item: Item, below: bool) -> float:
    return (item.top - prev_edge) if below else (prev_edge - item.bottom)


def _is_stop_line(line: Line, width: float, layout: PageLayout) -> bool:
    """Running text, another caption, or a note that the table goes on ('(Continued on next page)');
    running text inside a ruled cell (vertical rules on both sides) is the table's."""
    text = line.text
    if bare_caption_label(text) or is_figure_caption(text) or _CONTINUATION_NOTE.match(text) or _NOTE_START.match(text):
        return True
    if _column_prose(line, width, layout) or (_footnote_mark(line) and len(line.words) >= 4 and not is_tabular(line)):
        return True  # running text in one column under a full-width table; a table's marked footnote sentence
    return is_prose(line, width, layout.body_size) and not _walled(line, layout) and not _ruled_row(line, layout)


def _column_prose(line: Line, width: float, layout: PageLayout) -> bool:
    """A line of running text inside one column of a page set in columns, below or above a table that spans
    them (prose measured against its own column)."""
    x0, x1 = column_of(line.x0, line.x1, layout.gutters, layout.text_x0, layout.text_x1)
    if not layout.gutters or x1 - x0 > 0.7 * width:
        return False
    return is_prose(line, x1 - x0, layout.body_size) and not _walled(line, layout) and not _ruled_row(line, layout)


def _ruled_row(line: Line, layout: PageLayout) -> bool:
    """Running text in a table ruled under every row (PLOS, Word tables): a rule right over the line and
    another within a few lines under it, both spanning it."""
    spans = [r for r in layout.hrules if r.x0 <= line.x0 + 2 and r.x1 >= line.x1 - 2]
    over = any(line.top - 0.8 * line.size <= r.y <= line.top + 1 for r in spans)
    return over and any(line.bottom - 1 <= r.y <= line.bottom + 4.5 * line.size for r in spans)


def _walled(line: Line, layout: PageLayout) -> bool:
    y = (line.top + line.bottom) / 2
    beside = [r.x for r in layout.content.drawing.rules if not r.horizontal and r.top <= y <= r.bottom]
    return any(x <= line.x0 + 1 for x in beside) and any(x >= line.x1 - 1 for x in beside)


def _side_score(items: list[Item], caption: Caption, width: float, layout: PageLayout, below: bool) -> float:
    edge = caption.bottom if below else caption.top
    if not items or _gap(edge, items[0], below) > 3.5 * caption.size + 2 * layout.extra_leading:
        return -5.0
    score = -0.15 * _gap(edge, items[0], below) / caption.size
    for n, item in enumerate(items[:4]):
        if isinstance(item, Rule):
            score += 2.0 if n == 0 else 1.0
        elif _is_stop_line(item, width, layout):
            return score - 3.0
        else:
            score += 1.5 if is_tabular(item) else 0.5
    return score


def side_scores(layout: PageLayout, caption: Caption) -> tuple[float, float]:
    """How much the space below and above the caption looks like a table (> 0: it does)."""
    scores = []
    for below in (True, False):
        span = caption_span(layout, caption, below)
        items = _side_items(layout, caption, span, below, _framed_in_column(layout, caption, span))
        scores.append(_side_score(items, caption, span[1] - span[0], layout, below))
    return scores[0], scores[1]


def grow_region(layout: PageLayout, caption: Caption, settings: ExtractionSettings, below: bool) -> Region | None:
    """The table on one side of ``caption``, walked until prose, a caption or a wide gap."""
    span = caption_span(layout, caption, below)
    width = span[1] - span[0]
    framed = _framed_in_column(layout, caption, span)
    items = _side_items(layout, caption, span, below, framed)
    walked = _walk(items, caption, width, layout, below, settings)
    accepted = _trim_beyond_rules(walked, below, layout)
    notes = []
    if framed:
        notes.append("framed by its rules narrower than its column: text beside them is not the table's")
    if len(accepted) < len(walked) and isinstance(accepted[-1], Rule) and _closes_grid(accepted[-1], layout):
        notes.append("ends at its grid's closing rule: the lines under it are its footnotes")
    if not below:
        accepted = _drop_notes(accepted)
    lines = [it for it in accepted if isinstance(it, Line)]
    rules = [it for it in accepted if isinstance(it, Rule)]
    if not lines:
        return None
    x0 = min([ln.x0 for ln in lines] + [r.x0 for r in rules])
    x1 = max([ln.x1 for ln in lines] + [r.x1 for r in rules])
    top = min(it.top for it in accepted)
    bottom = max(it.bottom for it in accepted)
    region = Region(x0, top, x1, bottom, caption, "above" if below else "below", lines, rules, notes=notes)
    if any(b.narrow and b.splits(caption.top, caption.top) and span[0] - 1 <= b.x <= span[1] + 1 for b in layout.bands):
        region.doubts.append((NARROW_BAND_CONFIDENCE, "beside another caption less than an em away: parted there"))
    return region


def _walk(
    items: list[Item], caption: Caption, width: float, layout: PageLayout, below: bool, settings: ExtractionSettings
) -> list[Item]:
    accepted: list[Item] = []
    edge = caption.bottom if below else caption.top
    line_h = 1.2 * layout.body_size + layout.extra_leading
    frame: Rule | None = None  # the first long rule: the table's other rules share its extent
    for n, item in enumerate(items):
        if (
            isinstance(item, Line)
            and (_is_stop_line(item, width, layout) or _ends_paragraph(item, items[n + 1 :], width, layout))
            and not _wrapped_stub(item, accepted, items[n + 1 :])
            and not _row_between_rules(item, items[n + 1 :], width, layout, frame)
        ):
            break
        limit = (settings.caption_gap if not accepted else settings.max_row_gap) * line_h
        if frame is not None and accepted and isinstance(accepted[-1], Rule) and _same_frame(accepted[-1], frame):
            limit = min(limit, 1.5 * line_h)  # right after one of the table's rules, the next row follows closely
        if _gap(edge, item, below) > limit and not _rule_ahead(items[n:], width, layout, frame):
            break
        if frame is None and isinstance(item, Rule) and item.length >= 0.3 * width:
            frame = item
        accepted.append(item)
        edge = item.bottom if below else item.top
    return accepted


def _wrapped_stub(line: Line, accepted: list[Item], rest: list[Item]) -> bool:
    """A line that reads like prose but stays inside the stub column of the rows above it (it ends before their
    values begin) is a row label wrapped over two or more lines when a value is set beside it (centred on the
    label's lines) or the rows go on right under it; running text under a table fills its column and runs
    over the values' place."""
    if bare_caption_label(line.text) or is_figure_caption(line.text) or _CONTINUATION_NOTE.match(line.text):
        return False
    rows = [it for it in accepted if isinstance(it, Line) and is_tabular(it)][-3:]
    if len(rows) < 2:
        return False
    values_at = min(row.pieces[1].x0 for row in rows) - line.size
    stub_at = min(row.x0 for row in rows) - 2
    if not (stub_at <= line.x0 and line.x1 < values_at):
        return False
    edge = line.bottom
    for item in rest[:3]:  # the label's other lines, its value, the next row
        if not isinstance(item, Line) or item.top - edge > 1.5 * line.size or item.x0 < stub_at:
            return False
        if item.x0 >= values_at or (is_tabular(item) and item.pieces[1].x0 >= values_at - line.size):
            return True
        if item.x1 > values_at:
            return False  # a line running over the values' place: running text, not the label's next line
        edge = max(edge, item.bottom)
    return False


def _row_between_rules(line: Line, rest: list[Item], width: float, layout: PageLayout, frame: Rule | None) -> bool:
    """A line of words across a ruled table (a group's name, a note on the rows under it) is one of its rows
    when the table has not closed: rows go on under it and then a rule of the table's own extent comes,
    before any other line of running text. A paragraph under the table has more lines of prose; another
    table's top rule comes with no rows before it."""
    text = line.text
    if frame is None or bare_caption_label(text) or is_figure_caption(text) or _CONTINUATION_NOTE.match(text):
        return False
    if _NOTE_START.match(text):
        return False
    rows = 0
    for item in rest[:40]:
        if isinstance(item, Rule) and _same_frame(item, frame):
            return rows > 0
        if isinstance(item, Line):
            if _is_stop_line(item, width, layout):
                return False
            rows += is_tabular(item)
    return False


def _same_frame(rule: Rule, frame: Rule) -> bool:
    return abs(rule.x0 - frame.x0) < 4 and abs(rule.x1 - frame.x1) < 4


def _ends_paragraph(line: Line, rest: list[Item], width: float, layout: PageLayout) -> bool:
    """A short untabular line right next to running text is that paragraph's first or last line."""
    if is_tabular(line) or not rest or not isinstance(rest[0], Line):
        return False
    nxt = rest[0]
    close = min(abs(nxt.top - line.bottom), abs(line.top - nxt.bottom)) < 0.8 * line.size
    return close and abs(nxt.x0 - line.x0) < 2 * line.size and is_prose(nxt, width, layout.body_size)


def _rule_ahead(items: list[Item], width: float, layout: PageLayout, frame: Rule | None) -> bool:
    """A wide gap inside a ruled table: another of its rules comes before any prose."""
    for item in items[:40]:
        if isinstance(item, Rule) and (frame is None or _same_frame(item, frame)):
            return True
        if isinstance(item, Line) and _is_stop_line(item, width, layout):
            return False
    return False


def _trim_beyond_rules(accepted: list[Item], below: bool, layout: PageLayout) -> list[Item]:
    """Past the last rule (away from the caption), keep only lines that look like table rows; past the
    closing rule of a box (vertical rules end on it), nothing."""
    last_rule = max((i for i, it in enumerate(accepted) if isinstance(it, Rule)), default=None)
    if last_rule is None:
        return accepted
    if below:
        closing = next((i for i, it in enumerate(accepted) if isinstance(it, Rule) and _closes_grid(it, layout)), None)
        if closing is not None and any(isinstance(it, Line) for it in accepted[:closing]):
            return accepted[: closing + 1]
    kept = accepted[: last_rule + 1]
    if below and _closes_box(accepted[last_rule], layout):
        return kept
    for item in accepted[last_rule + 1 :]:
        gap = _gap(kept[-1].bottom if below else kept[-1].top, item, below)
        rows = [it for it in kept if isinstance(it, Line)][-3:]
        if not isinstance(item, Line) or not (is_tabular(item) or _aligned_with(item, rows)) or gap > 0.8 * item.size:
            break
        if _footnote_mark(item):
            break
        kept.append(item)
    return kept


def _footnote_mark(line: Line) -> bool:
    """A line under the table's last rule that opens with a raised mark ('¹ Fisher exact test.', 'ᵃ ...', '* ...')
    is a footnote, not a row."""
    first = line.words[0].chars[0]
    raised = first.size < 0.85 * line.size and first.baseline < line.baseline - 0.1 * line.size
    return raised or (first.text in "*†‡§¶" and len(line.words) > 2)


def _aligned_with(line: Line, rows: list[Line]) -> bool:
    """A row set with narrow gaps (less than an em) still lines up its words with the rows around it."""
    edges = {round(w.x1) for row in rows for w in row.words[1:]}
    hits = sum(any(abs(round(w.x1) - e) <= 1 for e in edges) for w in line.words[1:])
    return len(line.words) >= 3 and hits >= 2


def _closes_box(rule: Item, layout: PageLayout) -> bool:
    """The rule is a box's bottom edge: vertical rules at both its ends stop on it."""
    ends = [v.x for v in layout.content.drawing.rules if not v.horizontal and abs(v.bottom - rule.y) <= 3]
    return any(abs(x - rule.x0) <= 3 for x in ends) and any(abs(x - rule.x1) <= 3 for x in ends)


def _closes_grid(rule: Item, layout: PageLayout) -> bool:
    """The rule is the bottom edge of a grid (open at the sides, PLOS): two or more of its column rules stop
    on it and none runs on (or starts again) right below it; what follows is the table's footnotes."""
    verticals = [v for v in layout.content.drawing.rules if not v.horizontal and rule.x0 - 3 <= v.x <= rule.x1 + 3]
    reach = rule.y + 3 * layout.body_size
    ends = sum(abs(v.bottom - rule.y) <= 3 for v in verticals)
    return ends >= 2 and not any(v.top < reach and v.bottom > rule.y + 3 for v in verticals)


def _drop_notes(accepted: list[Item]) -> list[Item]:
    """Between a ruled table and its caption below it: note lines ("Runs that did not converge ..."),
    not rows."""
    first_rule = next((i for i, it in enumerate(accepted) if isinstance(it, Rule)), None)
    if first_rule is None:
        return accepted
    head = accepted[:first_rule]
    if all(isinstance(it, Line) and not is_tabular(it) for it in head):
        return accepted[first_rule:]
    return accepted
