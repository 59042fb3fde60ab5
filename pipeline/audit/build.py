"""Tables built from grids of strings (gold files, tests, the seeded-error benchmark).

The checks take Table objects; this lets a benchmark seed errors into a grid and audit it without
typesetting a PDF.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pipeline.model import Cell, Table


def table_from_grid(
    grid: Sequence[Sequence[str | None]],
    *,
    header_rows: int = 1,
    stub_cols: int = 1,
    bold: Iterable[tuple[int, int]] = (),
    spans: Iterable[dict[str, int]] = (),
    label: str | None = "Table 1",
    caption: str = "",
    page: int = 1,
    index: int = 0,
) -> Table:
    """A Table whose cells are the grid's strings; None marks a position covered by a span."""
    bold_set = {tuple(p) for p in bold}
    span_at = {(s["row"], s["col"]): (s.get("row_span", 1), s.get("col_span", 1)) for s in spans}
    n_rows, n_cols = len(grid), max((len(r) for r in grid), default=0)
    cells = []
    for r, row in enumerate(grid):
        for c, text in enumerate(row):
            if text is None:
                continue
            row_span, col_span = span_at.get((r, c), (1, 1))
            kind = "header" if r < header_rows else ("stub" if c < stub_cols else "body")
            cells.append(Cell(r, c, text, row_span=row_span, col_span=col_span, kind=kind, bold=(r, c) in bold_set))
    return Table(
        index=index,
        page=page,
        label=label,
        caption=caption,
        bbox=(0.0, 0.0, 0.0, 0.0),
        n_rows=n_rows,
        n_cols=n_cols,
        header_rows=header_rows,
        stub_cols=stub_cols,
        cells=cells,
        engine="grid",
        confidence=1.0,  # typed by hand or generated: nothing was guessed
    )


def table_from_gold(data: dict[str, Any], index: int = 0, caption: str | None = None) -> Table:
    """A Table from one gold file's JSON (format: shared/corpus/gold/README.md)."""
    return table_from_grid(
        data["cells"],
        header_rows=data["header_rows"],
        stub_cols=data["stub_cols"],
        bold=[tuple(p) for p in data.get("bold", [])],
        spans=data.get("spans", []),
        label=data.get("label"),
        caption=caption if caption is not None else data.get("caption_start", ""),
        page=data.get("page", 1),
        index=index,
    )


def table_from_truth(truth: Any, index: int = 0) -> Table:
    """A Table from a fixture paper's TableTruth, positioned on its page (bbox and cell boxes kept)."""
    table = table_from_grid(
        truth.cells,
        header_rows=truth.header_rows,
        stub_cols=truth.stub_cols,
        bold=truth.bold,
        spans=[span.to_dict() for span in truth.spans],
        label=truth.label,
        caption=truth.caption,
        page=truth.page,
        index=index,
    )
    table.bbox = tuple(truth.bbox)
    for cell in table.cells:
        box = truth.cell_bboxes[cell.row][cell.col]
        cell.bbox = tuple(box) if box else None
    return table
