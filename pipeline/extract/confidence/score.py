"""A table's confidence: the share of its body rows that came out whole, capped where the page gives a reason
to doubt it, with the reason written on the table (the audit reads the figure: under 0.5 a finding is
needs-check, under 0.8 an error becomes a warning)."""

from __future__ import annotations

from collections import Counter

from pipeline.extract.grid.structure import Grid
from pipeline.model import Table

FIGURE_LIKE_CONFIDENCE = 0.4  # a captioned table drawn like a figure: under the audit's needs-check bar (0.5)


def confidence(grid: Grid) -> float:
    """Share of body rows that fill the modal number of cells: low for a grid that came out ragged."""
    counts = Counter(sum(1 for p in grid.placed if p.row == r) for r in range(grid.header_rows, grid.n_rows))
    body = sum(counts.values())
    if not body or grid.n_cols < 2:
        return 0.2
    modal, n = counts.most_common(1)[0]
    return round(min(1.0, n / body) * (1.0 if modal >= 2 else 0.5), 3)


def doubt(table: Table, ceiling: float, reason: str) -> Table:
    """The table with its confidence capped at `ceiling` and the reason for the doubt in its notes."""
    table.confidence = min(table.confidence, ceiling)
    table.notes.append(reason)
    return table
