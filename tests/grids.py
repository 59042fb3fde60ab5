"""Hand-typed tables for tests: ``Table.from_grid`` labelled "Table 1" unless told otherwise."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pipeline.model import Table


def table_from_grid(grid: Sequence[Sequence[str | None]], **options: Any) -> Table:
    options.setdefault("label", "Table 1")
    return Table.from_grid(grid, **options)
