"""What the checks read: the tables, the paper's text, the catalogue and the records of one source."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from pipeline.audit.settings import AuditSettings
from pipeline.audit.tableview import Pos, TableView, view_table
from pipeline.audit.text import PaperText
from pipeline.catalogue import Catalogue
from pipeline.model import Record, Table, table_key

_LOCATOR_TAIL = re.compile(r":(?P<table>[^:]+):r(?P<row>\d+):c(?P<col>\d+)$")


def table_key_of(table: Table) -> str:
    """The table part of a Locator id ("Table3", "table-0")."""
    return table_key(table.label, table.index, table.panel)


def record_position(record: Record) -> tuple[str, int, int] | None:
    """(table key, row, col) of the cell a record was read from, from its locator id."""
    match = _LOCATOR_TAIL.search(record.locator or "")
    return (match.group("table"), int(match.group("row")), int(match.group("col"))) if match else None


@dataclass
class AuditInput:
    """Everything one audit reads; ``text``, ``catalogue`` and ``records`` are None when absent."""

    source_id: str
    source_sha256: str
    tables: list[Table]
    text: PaperText | None = None
    catalogue: Catalogue | None = None
    records: list[Record] | None = None
    reproductions: list[dict[str, Any]] = field(default_factory=list)  # audits/<sid>/reproductions.jsonl
    settings: AuditSettings = field(default_factory=AuditSettings)
    views: list[TableView] = field(default_factory=list, init=False)
    cache: dict[Any, Any] = field(default_factory=dict, init=False, repr=False)  # derived facts, computed once
    _by_cell: dict[tuple[str, int, int], Record] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        self.views = [view_table(t) for t in self.tables]
        for record in self.records or []:
            position = record_position(record)
            if position is not None:
                self._by_cell.setdefault(position, record)

    def record_at(self, table: Table, pos: Pos) -> Record | None:
        return self._by_cell.get((table_key_of(table), *pos))

    def records_of(self, table: Table) -> list[Record]:
        key = table_key_of(table)
        return [r for r in self.records or [] if (p := record_position(r)) is not None and p[0] == key]

    def has(self, need: str) -> bool:
        return getattr(self, need) is not None
