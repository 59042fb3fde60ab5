"""A Table from a grid of printed strings: hand-checked gold grids and hand-typed tables go through the
same mapper as extracted ones (row and column paths are then read off the grid)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pipeline.model import Cell, Table


def table_from_grid(
    grid: Sequence[Sequence[str | None]],
    header_rows: int,
    stub_cols: int,
    *,
    label: str | None = None,
    caption: str = "",
    page: int = 1,
    index: int = 0,
    spans: Iterable[dict[str, int]] = (),
) -> Table:
    """``grid`` holds the text of each position, None where a spanning cell covers it (gold conventions)."""
    span_of = {(s["row"], s["col"]): (s["row_span"], s["col_span"]) for s in spans}
    cells = []
    for r, row in enumerate(grid):
        for c, text in enumerate(row):
            if text is None:
                continue
            kind = "header" if r < header_rows else ("stub" if c < stub_cols else "body")
            row_span, col_span = span_of.get((r, c), (1, 1))
            cells.append(Cell.printed(r, c, text, kind, row_span=row_span, col_span=col_span))
    n_cols = max((len(row) for row in grid), default=0)
    return Table(index, page, label, caption, (0.0, 0.0, 0.0, 0.0), len(grid), n_cols, header_rows, stub_cols, cells)


def table_from_gold(data: dict[str, Any], index: int = 0, caption: str | None = None) -> Table:
    """A gold table file (../shared/corpus/gold format) as a Table; the gold keeps only the caption's start."""
    return table_from_grid(
        data["cells"],
        data["header_rows"],
        data["stub_cols"],
        label=data.get("label"),
        caption=caption if caption is not None else data.get("caption_start", ""),
        page=data.get("page", 1),
        index=index,
        spans=data.get("spans", []),
    )
