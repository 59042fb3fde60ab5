"""Tables from hand-checked grids (the gold files of ../shared/corpus/gold), so the checks can run on tables
nobody extracted (tests, the seeded-error benchmark); a typeset paper's truth has ``TableTruth.to_table``."""

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
