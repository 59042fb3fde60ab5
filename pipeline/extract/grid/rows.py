"""Table rows: the region's words clustered by baseline, with the header/body boundary found."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import pairwise
from statistics import median

from pipeline.extract.page.words import Line, Word, group_lines, split_line
from pipeline.extract.reading.graphics import Rule
from pipeline.numbers import is_numeric


@dataclass
class Row:
    words: list[Word]
    segments: list[Line] = field(default_factory=list)  # runs of words closer than the cell gap

    @property
    def top(self) -> float:
        return min(w.top for w in self.words)

    @property
    def bottom(self) -> float:
        return max(w.bottom for w in self.words)

    @property
    def middle(self) -> float:
        return (self.top + self.bottom) / 2

    @property
    def size(self) -> float:
        return max(w.size for w in self.words)

    @property
    def x0(self) -> float:
        return min(w.x0 for w in self.words)

    @property
    def x1(self) -> float:
        return max(w.x1 for w in self.words)


def build_rows(words: list[Word], cell_gap: float) -> list[Row]:
    """One row per text line; segments split where words are further apart than ``cell_gap`` em."""
    rows = []
    for line in group_lines(w for w in words if w.upright):
        segments = [piece for seg in split_line(line, cell_gap) for piece in split_values(seg)]
        rows.append(Row(line.words, split_label_value(segments)))
    return rows


LABEL_GAP = 0.45  # em: wider than any interword space (Computer Modern's is 0.33 em; table cells do not stretch)


def split_label_value(segments: list[Line]) -> list[Line]:
    """A row of values whose label ran into its first value ('Bulk RNA expression 0.431', a table set with
    tight column gaps): the trailing value is its own cell when it stands further from the label than an
    interword space. A number inside a label ('dataset 0', 'GPT 3.5') is one space away and stays."""
    if len(segments) < 3 or not all(segment_is_numeric(s) for s in segments[1:]):
        return segments
    words = segments[0].words
    if len(words) < 2 or not _VALUE.match(words[-1].text) or is_numeric(words[-2].text):
        return segments
    a, b = words[-2], words[-1]
    if b.x0 - a.x1 < LABEL_GAP * max(a.size, b.size):
        return segments
    return [Line(words[:-1]), Line([b]), *segments[1:]]


# a short value ('0.074', '(0.79)', '12%', a lone sign); grouped thousands ('1,249,752') are set wide apart anyway
_VALUE = re.compile(r"^(?:[(\[]?[-+\u2212]?\d+(?:\.\d+)?%?[)\]]?[*†‡a-d]?|[-+\u2212\u2013]|NA|ND)$")
VALUE_GAP = 0.35  # em: two values set this far apart are two cells, however narrow the column gap


def split_values(segment: Line) -> list[Line]:
    """A segment of values set close together (narrow columns: '0.074 0.015 0.153') split between values;
    a value and its interval in parentheses ('0.76 (0.79)') stay one cell."""
    pieces = [Line([segment.words[0]])]
    for a, b in pairwise(segment.words):
        apart = b.x0 - a.x1 >= VALUE_GAP * max(a.size, b.size)
        if apart and _VALUE.match(a.text) and _VALUE.match(b.text) and not b.text.startswith(("(", "[")):
            pieces.append(Line([b]))
        else:
            pieces[-1].words.append(b)
    return pieces


def segment_is_numeric(segment: Line) -> bool:
    return is_numeric(segment.text)


def numeric_share(row: Row) -> float:
    if not row.segments:
        return 0.0
    return sum(segment_is_numeric(s) for s in row.segments) / len(row.segments)


def count_header_rows(rows: list[Row], rules: list[Rule], x0: float, x1: float) -> int:
    """Rows above the rule that separates header from body; without such a rule, the rows before
    the first row that is mostly numbers."""
    if len(rows) < 2:
        return 0
    width = x1 - x0
    long_rules = sorted(
        (
            r
            for r in rules
            if r.horizontal
            and r.x1 - r.x0 >= 0.6 * width
            and not any(_crosses_text(r, row) for row in rows)  # a rule between lines
        ),
        key=lambda r: r.y,
    )
    for k, rule in enumerate(long_rules):
        above = [r for r in rows if r.middle < rule.y]
        below = [r for r in rows if r.middle > rule.y]
        nxt = long_rules[k + 1].y if k + 1 < len(long_rules) else None
        under = [r for r in below if nxt is not None and r.middle < nxt]  # the lines down to the next rule
        if under and _over_header_level(rule, under, x0, width):
            continue
        if above and below:
            if len(above) > 1 and all(_like_body(row, below) for row in above):
                return 0  # a band of data rows over the first rule: the header is not printed here (lost, continued)
            if len(above) <= max(4, len(rows) // 3) or _label_lines(above, below):
                return _labels_before_data(above)
            break
    for i, row in enumerate(rows[:6]):
        if numeric_share(row) >= 0.5 and len(row.segments) >= 2:
            return i
    return 1 + _wrapped_labels_under(rows) if len(rows) > 2 else 0


WRAPPED_HEADER_LINES = 3  # at most this many lines under a ruleless header's first line continue its labels


def _wrapped_labels_under(rows: list[Row]) -> int:
    """Lines under the first that go on with its labels where no rule marks the header: each set at the line pitch
    under a label of the first line, with fewer labels than it and no number, a wider gap after the last of them
    (a table whose rows stand a gap apart, a cell's lines closer)."""
    base = [median(w.baseline for w in r.words) for r in rows]
    steps = [b - a for a, b in pairwise(base)]
    pitch = min(steps, default=0.0)
    if pitch <= 0:
        return 0
    first = rows[0].segments
    n = 0
    while n < min(WRAPPED_HEADER_LINES, len(steps) - 1) and steps[n] <= 1.15 * pitch:
        row = rows[n + 1]
        under = all(any(s.x0 < f.x1 and f.x0 < s.x1 for f in first) for s in row.segments)
        if not under or len(row.segments) >= len(first) or any(segment_is_numeric(s) for s in row.segments):
            return 0
        n += 1
    return n if n and steps[n] >= 1.25 * pitch else 0


def _like_body(row: Row, body: list[Row]) -> bool:
    """A row that prints values where the body's first row does, each of the same shape ('0.81' over '0.77',
    '1,204' over '980'), in as many cells: a data row. Column labels are words, or numbers of another shape
    (years over decimals)."""
    first = body[0]
    if len(row.segments) != len(first.segments) or numeric_share(first) < 0.5:
        return False
    return all(value_shape(a.text) == value_shape(b.text) for a, b in zip(row.segments, first.segments, strict=True))


def value_shape(text: str) -> str:
    """A cell's kind: words, or a number by its decimals and its percent sign."""
    if not is_numeric(text):
        return "text"
    decimals = re.search(r"\.(\d+)\D*$", text)
    return f"number.{len(decimals.group(1)) if decimals else 0}{'%' if '%' in text else ''}"


def _label_lines(above: list[Row], below: list[Row]) -> bool:
    """Lines of labels only over at least as many lines of values: a tall header (labels wrapped and set
    between its lines), not body rows above a rule."""
    return len(above) <= len(below) and not any(segment_is_numeric(s) for r in above for s in r.segments)


def _over_header_level(rule: Rule, under: list[Row], x0: float, width: float) -> bool:
    """A rule that leaves the stub columns out, with only lines of labels under it down to the next rule, the
    first labelling the stub columns too (set lower, centred in a tall header): it runs under the header's
    upper level (the groups of columns), not between the header and the body."""
    if rule.x0 <= x0 + 0.15 * width or any(segment_is_numeric(s) for r in under for s in r.segments):
        return False
    return any(s.x1 <= rule.x0 for s in under[0].segments)


def _crosses_text(rule: Rule, row: Row) -> bool:
    """The rule runs through the row's full-size glyphs (a lowered subscript reaching past it does not count)."""
    main = [w for w in row.words if w.size >= 0.85 * row.size]
    return min(w.top for w in main) + 0.5 < rule.y < max(w.bottom for w in main) - 0.5


def _labels_before_data(above: list[Row]) -> int:
    """Rows above the header rule, less a row under the labels that names itself in the stub and holds
    numbers (a reference result set above the rule is data; sub-labels like '5 20 100' stay header)."""
    left = min(r.x0 for r in above)
    for i, row in enumerate(above[1:], start=1):
        stub = row.segments[0]
        named = not segment_is_numeric(stub) and stub.x0 - left < row.size
        if named and numeric_share(row) >= 0.5 and len(row.segments) >= 2:
            return i
    return len(above)
