"""A table's confidence: how regular its body rows came out, capped where the page gives a reason to doubt it
(doubts.py), with the reason written on the table (the audit reads the figure: under 0.5 a finding is
needs-check, under 0.8 an error becomes a warning)."""

from __future__ import annotations

from collections import Counter

from pipeline.extract.grid.structure import Grid
from pipeline.model import Table

FIGURE_LIKE_CONFIDENCE = 0.4  # a captioned table drawn like a figure: under the audit's needs-check bar (0.5)


RAGGED_FLOOR = 0.75  # a grid none of whose rows fill the modal number of cells; blank cells and group rows are common


def confidence(grid: Grid) -> float:
    """Lowered by the share of body rows that do not fill the modal number of cells, but gently: sparse columns,
    group rows and spans make correct grids ragged too; the doubts (doubts.py) tell a misread grid apart."""
    counts = Counter(sum(1 for p in grid.placed if p.row == r) for r in range(grid.header_rows, grid.n_rows))
    body = sum(counts.values())
    if not body or grid.n_cols < 2:
        return 0.2
    modal, n = counts.most_common(1)[0]
    regular = RAGGED_FLOOR + (1 - RAGGED_FLOOR) * min(1.0, n / body)
    return round(regular * (1.0 if modal >= 2 else 0.5), 3)


def doubt(table: Table, ceiling: float, reason: str) -> Table:
    """The table with its confidence capped at `ceiling` and the reason for the doubt in its notes."""
    table.confidence = min(table.confidence, ceiling)
    table.notes.append(reason)
    return table
