"""Findings attach to the records they concern, so that a record carries its limitations."""

from __future__ import annotations

import dataclasses
from typing import Any

from pipeline.audit.context import TableIndex
from pipeline.model import Finding, Record, Table
from pipeline.reproductions import summary_of


def concerns(finding: Finding, position: tuple[str, int, int] | None) -> bool:
    """Whether a finding is about the record at ``position`` (table key, row, col; None for a record of no
    cell), from the finding's scope (cells, rows, columns, table, paper)."""
    scope = finding.details.get("scope", {})
    kind = scope.get("kind", "cells")
    if kind == "paper":
        return True
    if position is None or position[0] != finding.details.get("table_key"):
        return False
    _, row, col = position
    cells = {tuple(c) for c in scope.get("cells", [])}
    if kind == "table":
        return True
    if kind == "rows":
        return row in {r for r, _ in cells}
    if kind == "columns":
        return col in {c for _, c in cells}
    return (row, col) in cells


def limitation(finding: Finding) -> str:
    """The finding in words, as a record's limitation."""
    return f"{finding.message} [{finding.check}, {finding.severity}; finding {finding.id}]"


def attach_findings(
    records: list[Record], findings: list[Finding], tables: list[Table]
) -> tuple[list[Record], list[Finding]]:
    """Copies of the records with finding ids and limitations added, and of the findings with record ids.

    Every finding is linked (ids); only those that limit (:attr:`Finding.is_limitation`) become words in
    ``limitations`` (a consistent aggregate is not a limitation of its cells, nor a dismissed finding). A record
    is weighed against the findings of its own table (by locator) and those about the whole paper only, so the
    cost grows with records and findings, not with their product.
    """
    index = TableIndex(tables)
    by_table: dict[str | None, list[int]] = {}
    for number, finding in enumerate(findings):
        paper = finding.details.get("scope", {}).get("kind") == "paper"
        by_table.setdefault(None if paper else finding.details.get("table_key"), []).append(number)
    linked: dict[str, list[str]] = {f.id: [] for f in findings}
    out_records = []
    for record in records:
        position = index.position(record.locator or "")
        candidates = sorted([*by_table.get(None, []), *(by_table.get(position[0], []) if position else [])])
        mine = [findings[n] for n in candidates if concerns(findings[n], position)]
        for finding in mine:
            linked[finding.id].append(record.id)
        words = [limitation(f) for f in mine if f.is_limitation]
        out_records.append(
            dataclasses.replace(
                record,
                findings=list(dict.fromkeys([*record.findings, *(f.id for f in mine)])),
                limitations=list(dict.fromkeys([*record.limitations, *words])),
            )
        )
    out_findings = [dataclasses.replace(f, record_ids=linked[f.id]) for f in findings]
    return out_records, out_findings


def attach_reproductions(records: list[Record], entries: list[dict[str, Any]]) -> list[Record]:
    """Copies of the records with the summary of their reproduction; one made from another reading of the
    cell (its printed text differs) is stale and left off."""
    by_record = {e.get("record_id"): e for e in entries}
    out = []
    for record in records:
        entry = by_record.get(record.id)
        fresh = entry is not None and entry.get("printed_text") == record.printed
        out.append(dataclasses.replace(record, reproduction=summary_of(entry) if fresh and entry else None))
    return out
