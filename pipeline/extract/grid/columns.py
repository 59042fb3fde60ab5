"""Table columns from the body rows' whitespace, and every row's words placed into them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from pipeline.extract.grid.rows import Row
from pipeline.extract.page.words import Line, Word
from pipeline.extract.reading.graphics import Rule


@dataclass
class Column:
    x0: float  # extent of the body text in the column
    x1: float

    @property
    def center(self) -> float:
        return (self.x0 + self.x1) / 2


@dataclass
class Placed:
    """A run of words placed in the grid, before it becomes a Cell."""

    row: int
    col: int
    words: list[Word]
    col_span: int = 1
    row_span: int = 1


HANGING_INDENT = (0.4, 4.0)  # em: how much further right than its cell's first line a continued line starts


def left_edges(placed: list[Placed], header_rows: int) -> dict[int, float]:
    """Each left-aligned column's edge: the start most of its body cells share, to a point (where a cell's first
    line starts); columns whose cells start anywhere (centred, set right) have none."""
    lines: dict[int, list[tuple[float, float]]] = {}
    for p in placed:
        if p.row >= header_rows and p.col_span == 1:
            top = min(w.top for w in p.words)
            first = [w for w in p.words if w.top - top < 1.0]
            lines.setdefault(p.col, []).append((min(w.x0 for w in first), max(w.x1 for w in first)))
    edges = {}
    for col, spans in lines.items():
        xs = [x0 for x0, _ in spans]
        edge = max(xs, key=lambda x: sum(abs(x - y) <= 1.0 for y in xs))
        if sum(abs(x - edge) <= 1.0 for x in xs) * 2 >= len(xs) and not _set_by_centre_or_end(spans):
            edges[col] = edge
    return edges


def _set_by_centre_or_end(spans: list[tuple[float, float]]) -> bool:
    """Lines of unequal width sharing their centre or their end: a centred or right-set column, whose
    shorter cells start further right with no indent meant (a column of repeated names shares its starts too)."""
    starts = [x0 for x0, _ in spans]
    if max(starts) - min(starts) <= 1.0:
        return False
    centres = [(x0 + x1) / 2 for x0, x1 in spans]
    ends = [x1 for _, x1 in spans]
    return max(centres) - min(centres) <= 1.0 or max(ends) - min(ends) <= 1.0


def indent_from_edge(p: Placed, edges: dict[int, float]) -> float | None:
    """How far right of its column's left edge the cell starts, in em; None in a column without one."""
    if p.col not in edges:
        return None
    return (min(w.x0 for w in p.words) - edges[p.col]) / max(w.size for w in p.words)


def find_columns(
    body: list[Row],
    vrules: list[Rule],
    min_gap: float,
    extra: Sequence[tuple[float, float]] = (),
    straddling: set[int] | frozenset[int] = frozenset(),
) -> list[Column]:
    """Columns are the x-ranges the body rows' segments cover, cut where no row has ink; a vertical rule
    through the body always cuts; a valley inside a block that only a few rows bridge cuts too. Segments
    that straddle columns (``straddling``) do not hide the gap they cross."""
    rows = [r for r in body if len(r.segments) > 1] or body
    spans = [(s.x0, s.x1) for r in rows for s in r.segments if id(s) not in straddling] + list(extra)
    if not spans:
        return []
    lo, hi = min(s[0] for s in spans), max(s[1] for s in spans)
    gaps = _gap_cuts(spans, min_gap)
    blocks = list(pairwise([lo, *gaps, hi]))
    valleys = [c for a, b in blocks for c in _valley_cuts(len(rows), [s for s in spans if a <= s[0] < b], min_gap)]
    cuts = sorted(gaps + valleys + [r.x for r in vrules])
    edges = [lo, *[c for c in cuts if lo < c < hi], hi]
    columns = []
    for a, b in pairwise(edges):
        inside = [(max(x0, a), min(x1, b)) for x0, x1 in spans if min(x1, b) - max(x0, a) > 0.5]
        if inside:
            columns.append(Column(min(s[0] for s in inside), max(s[1] for s in inside)))
    return columns


def orphan_columns(columns: list[Column], rows: list[Row], straddling: set[int]) -> list[Column]:
    """Columns the body's multi-cell rows miss: text of two or more rows (a header, group labels set
    beside their rows) standing clear of every column, aligned with each other (cells that straddle
    two columns stand clear too, and are no column)."""
    clear = [
        (s.x0, s.x1, i)
        for i, r in enumerate(rows)
        for s in r.segments
        if id(s) not in straddling and not any(min(s.x1, c.x1) - max(s.x0, c.x0) > -1.0 for c in columns)
    ]
    found: list[tuple[float, float, set[int]]] = []
    for x0, x1, row in sorted(clear):
        if found and x0 < found[-1][1]:
            a, b, seen = found[-1]
            found[-1] = (a, max(b, x1), seen | {row})
        else:
            found.append((x0, x1, {row}))
    extra = [Column(a, b) for a, b, seen in found if len(seen) >= 2]
    return sorted([*columns, *extra], key=lambda c: c.x0)


def _gap_cuts(spans: list[tuple[float, float]], min_gap: float) -> list[float]:
    """Centres of the x-bands that no segment covers."""
    cuts = []
    ordered = sorted(spans)
    reach = ordered[0][1]
    for x0, x1 in ordered[1:]:
        if x0 - reach >= min_gap:
            cuts.append((reach + x0) / 2)
        reach = max(reach, x1)
    return cuts


def _valley_cuts(n_rows: int, spans: list[tuple[float, float]], min_gap: float) -> list[float]:
    """Inside one block of overlapping segments: a band covered by only a few rows (a long stub, a label
    that spans) with well-used stretches on both sides."""
    if n_rows < 4 or not spans:
        return []
    lo, hi = int(min(s[0] for s in spans)), int(max(s[1] for s in spans)) + 1
    cover = [0] * (hi - lo + 1)
    for x0, x1 in spans:
        for x in range(int(x0) - lo, int(x1) - lo + 1):
            cover[x] += 1
    limit = max(1, n_rows // 8)
    cuts, start = [], None
    for i, c in enumerate([*cover, limit + 1]):
        low = c <= limit
        if low and start is None:
            start = i
        elif not low and start is not None:
            inner = start > 0 and i < len(cover) and i - start >= max(min_gap, 2)
            if inner and min(max(cover[:start]), max(cover[i:])) >= 3 * limit:
                cuts.append(lo + (start + i) / 2)
            start = None
    return cuts


def place_segment(segment: Line, columns: list[Column]) -> list[tuple[int, int, list[Word]]]:
    """(first column, span, words) pieces of one segment: split where a column edge falls in a word gap,
    spanning where a word itself crosses columns."""
    pieces: list[tuple[int, int, list[Word]]] = []
    for word in segment.words:
        first, last = columns_of(word.x0, word.x1, columns)
        if pieces and pieces[-1][0] <= first <= pieces[-1][0] + pieces[-1][1] - 1:
            start, span, words = pieces[-1]
            pieces[-1] = (start, max(span, last - start + 1), [*words, word])
        elif pieces and first < pieces[-1][0]:
            start, span, words = pieces[-1]
            pieces[-1] = (first, start + span - first, [*words, word])
        else:
            pieces.append((first, last - first + 1, [word]))
    return pieces


def columns_of(x0: float, x1: float, columns: list[Column]) -> tuple[int, int]:
    """First and last column a box covers substantially (by overlap), or the nearest column."""
    hit = []
    for i, col in enumerate(columns):
        overlap = min(x1, col.x1) - max(x0, col.x0)
        if overlap > 0.5 * min(x1 - x0, max(col.x1 - col.x0, 1.0)) or (col.x0 <= (x0 + x1) / 2 <= col.x1):
            hit.append(i)
    if not hit:
        mid = (x0 + x1) / 2
        i = min(range(len(columns)), key=lambda k: _distance(mid, columns[k]))
        return i, i
    return hit[0], hit[-1]


def header_columns(x0: float, x1: float, columns: list[Column]) -> tuple[int, int]:
    """First and last column whose body text a header's extent overlaps, or the nearest column."""
    hit = [i for i, col in enumerate(columns) if min(x1, col.x1) - max(x0, col.x0) > 1.0]
    return (hit[0], hit[-1]) if hit else columns_of(x0, x1, columns)


def _distance(x: float, col: Column) -> float:
    return 0.0 if col.x0 <= x <= col.x1 else min(abs(x - col.x0), abs(x - col.x1))


def centred_span(p: Placed, columns: list[Column], taken: set[int]) -> tuple[int, int]:
    """A cell spanning columns, widened over free neighbouring columns while that centres the columns
    on its text (a centred cell's ink need not reach its outer columns)."""
    x0, x1 = min(w.x0 for w in p.words), max(w.x1 for w in p.words)
    first, last = p.col, p.col + p.col_span - 1

    def off(a: int, b: int) -> float:
        return abs((columns[a].x0 + columns[b].x1) / 2 - (x0 + x1) / 2)

    while True:
        options = [(off(a, b), a, b) for a, b in ((first - 1, last), (first, last + 1)) if a >= 0 and b < len(columns)]
        options = [o for o in options if not ({o[1], o[2]} - {first, last}) & taken and o[0] < off(first, last)]
        if not options:
            return first, last - first + 1
        _, first, last = min(options)
