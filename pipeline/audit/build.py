"""Tables from hand-checked grids (the gold files of ../shared/corpus/gold) and from a typeset paper's truth,
so the checks can run on tables nobody extracted (tests, the seeded-error benchmark)."""

from __future__ import annotations

from typing import Any

from pipeline.model import Table


def table_from_gold(data: dict[str, Any], index: int = 0, caption: str | None = None) -> Table:
    """A Table from one gold file's JSON (format: shared/corpus/gold/README.md)."""
    return Table.from_grid(
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
    table = Table.from_grid(
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
