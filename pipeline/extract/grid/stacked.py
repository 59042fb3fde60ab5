"""Stacked panels under one caption (Cell Press 'Panel A: ...'): each panel a title line across the table, its
own header line, then its rows. Where the panels' columns do not line up, each panel is read on its own
columns and the grids are stacked, every panel filled from the left."""

from __future__ import annotations

from itertools import pairwise
from statistics import median

from pipeline.extract.grid.rows import Row, segment_is_numeric


def panel_blocks(rows: list[Row]) -> list[list[Row]]:
    """The table's rows cut into panels at their title lines, or [] when the table is not stacked panels whose
    columns differ: at least two panels, each opening with a title line set from the table's left edge over a
    header line with an empty stub, each with a row of values."""
    if len(rows) < 6:
        return []
    em = median(r.size for r in rows)
    left = min(r.x0 for r in rows)
    titles = [i for i in range(len(rows) - 1) if _title(rows[i], left, em) and _header_line(rows[i + 1], left, em)]
    if len(titles) < 2 or titles[0] != 0:
        return []
    blocks = [rows[a:b] for a, b in pairwise([*titles, len(rows)])]
    if not all(any(sum(map(segment_is_numeric, r.segments)) >= 2 for r in block) for block in blocks):
        return []
    headers = [block[1] for block in blocks]
    if all(_aligned(a, b, em) for a, b in pairwise(headers)):
        return []  # one set of columns serves every panel
    return blocks


def _title(row: Row, left: float, em: float) -> bool:
    return len(row.segments) == 1 and not segment_is_numeric(row.segments[0]) and row.x0 <= left + 0.5 * em


def _header_line(row: Row, left: float, em: float) -> bool:
    return len(row.segments) >= 2 and row.x0 > left + 2 * em and not any(map(segment_is_numeric, row.segments))


def _aligned(a: Row, b: Row, em: float) -> bool:
    """Two panels' header lines name the same columns: as many labels, each centred where the other's is."""
    if len(a.segments) != len(b.segments):
        return False
    return all(abs((s.x0 + s.x1) - (t.x0 + t.x1)) / 2 <= em for s, t in zip(a.segments, b.segments, strict=True))
