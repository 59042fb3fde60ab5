"""What a check is (an id, a severity, a function) and what it returns (issues pointing at cells)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pipeline.audit.context import AuditInput
from pipeline.audit.tableview import Pos
from pipeline.model import Table

SEVERITIES = ("error", "warning", "info")

# Which records a finding concerns: the cells it points at, their whole rows or columns, the whole table
# or every record of the paper.
SCOPES = ("cells", "rows", "columns", "table", "paper")


@dataclass
class Issue:
    """One problem a check found, before it gets an id and locators."""

    message: str
    table: Table | None = None
    cells: list[Pos] = field(default_factory=list)  # evidence, first the cell the problem is about
    scope: str = "cells"
    subjects: list[Pos] | None = None  # cells whose records carry the finding (default: the first cell)
    elsewhere: list[tuple[Table, Pos]] = field(default_factory=list)  # evidence in other tables
    expected: Any = None
    found: Any = None
    tolerance: Any = None
    severity: str | None = None  # overrides the check's default (e.g. "info" for a consistent aggregate)
    details: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Check:
    id: str
    severity: str
    summary: str
    run: Callable[[AuditInput], list[Issue]]
    needs: tuple[str, ...] = ()  # inputs without which the check is skipped: "text", "catalogue", "records"

    def missing(self, inp: AuditInput) -> list[str]:
        return [need for need in self.needs if not inp.has(need)]
