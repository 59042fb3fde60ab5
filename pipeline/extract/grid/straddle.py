"""Cells that straddle columns: a value printed once, centred across two columns, or a body cell that
spans several. Such cells hide the gap between the columns they cross, so they are found first, left
out when the columns are cut, and placed spanning."""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from pipeline.extract.grid.rows import Row
from pipeline.extract.page.words import Line
from pipeline.numbers import looks_numeric

Span = tuple[float, float]


def straddling_segments(rows: list[Row]) -> set[int]:
    """Ids of body segments that straddle two columns of another row's numbers: segments that reach over
    two of them (each not much wider than the segment), or that sit centred in the gap between two
    neighbouring ones with nothing else of their own row there. Lines of one segment (group labels,
    wrapped text) are left out, and only numbers count as evidence of columns (justified text in a
    narrow cell breaks into pieces too). Cells of one column share a common point (the edge or centre
    they are aligned on), so a real column's cells do neither."""
    rows = [r for r in rows if len(r.segments) > 1]
    numbers = [[(t.x0, t.x1) for t in r.segments if looks_numeric(t.text)] for r in rows]
    evidence = [(k, nums, [x0 for x0, _ in nums]) for k, nums in enumerate(numbers) if len(nums) >= 2]
    pooled = sorted((x0, x1, k) for k, nums, _ in evidence for x0, x1 in nums)
    starts = [x0 for x0, _, _ in pooled]
    found = set()
    for i, r in enumerate(rows):
        for s in r.segments:
            near = [(x0, x1) for x0, x1, k in pooled[: bisect_left(starts, s.x1)] if k != i and x1 > s.x0]
            over = not _common_point(near)  # else no row has two numbers under it
            if any(
                k != i and ((over and _over_two(s, nums, xs)) or _centred_in_gap(s, r, nums, xs))
                for k, nums, xs in evidence
            ):
                found.add(id(s))
    return found


def _common_point(spans: list[Span]) -> bool:
    return not spans or max(x0 for x0, _ in spans) < min(x1 for _, x1 in spans)


def _over_two(s: Line, numbers: list[Span], starts: list[float]) -> bool:
    wide = 1.25 * (s.x1 - s.x0)
    end = bisect_left(starts, s.x1 - 0.5)
    under = [1 for x0, x1 in numbers[:end] if x1 > s.x0 + 0.5 and x1 - x0 <= wide]
    return len(under) >= 2


def _centred_in_gap(s: Line, row: Row, numbers: list[Span], starts: list[float]) -> bool:
    centre = (s.x0 + s.x1) / 2
    k = bisect_right(starts, centre)  # numbers[k] is the first to start right of the centre
    if k == 0 or k == len(numbers):
        return False
    (a0, a1), (b0, b1) = numbers[k - 1], numbers[k]
    gap = b0 - a1
    if gap <= 0 or centre < a1 or abs(centre - (a1 + b0) / 2) > 0.2 * gap + 1.0:
        return False
    return not any(t is not s and t.x1 > a0 and t.x0 < b1 for t in row.segments)
