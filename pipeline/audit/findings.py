"""Issues become Findings: a stable id, the locators of their cells, and which records they concern."""

from __future__ import annotations

import hashlib
from typing import Any

from pipeline.audit.checks.base import Check, Issue, settle
from pipeline.audit.context import AuditInput, table_key_of
from pipeline.model import Finding, Table, where_printed

SEVERITY_ORDER = {"error": 0, "warning": 1, "needs-check": 2, "info": 3}


def evidence_confidence(inp: AuditInput, issue: Issue) -> float | None:
    """The extraction confidence a finding rests on: the least of its tables' (evidence in other tables
    included); a finding about the whole paper ("no table prints a spread") rests on every table."""
    tables = [issue.table] if issue.table is not None else list(inp.tables) if issue.scope == "paper" else []
    tables += [table for table, _ in issue.elsewhere]
    return min((t.confidence for t in tables), default=None)


def make_finding(inp: AuditInput, check: Check, issue: Issue) -> Finding:
    confidence = evidence_confidence(inp, issue)
    severity = issue.severity or check.severity
    settled = settle(severity, issue.certainty, check.reason_for(issue, severity), confidence, inp.settings)
    locators, readable = [], []
    if issue.table is not None:
        view = inp.view_of(issue.table)
        for row, col in issue.cells:
            locator = view.locator(row, col, inp.source_sha256)
            locators.append(locator.id)
            readable.append(locator.readable)
    for table, (row, col) in issue.elsewhere:
        locator = inp.view_of(table).locator(row, col, inp.source_sha256)
        locators.append(locator.id)
        readable.append(locator.readable)
    details: dict[str, Any] = dict(issue.details)
    details["scope"] = _scope(issue)
    table_label = None
    if issue.table is not None:
        where = where_printed(issue.table.page, issue.table.artifact)
        table_label = issue.table.label or f"Unlabelled table {issue.table.index + 1} ({where})"
        details["table_key"] = table_key_of(issue.table)
    parts = [inp.source_sha256, check.id, table_label or "", *locators, issue.message]
    if issue.table is not None and _printed_before(inp, issue.table):
        parts.append(details["table_key"])  # a label printed again: told apart by where it is printed
    digest = hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:10]
    return Finding(
        id=f"{check.id}:{digest}",
        check=check.id,
        severity=settled.severity,
        message=issue.message,
        source_id=inp.source_id,
        table_label=table_label,
        locators=locators,
        locators_readable=readable,
        expected=issue.expected,
        found=issue.found,
        tolerance=issue.tolerance,
        details=details,
        certainty=settled.certainty,
        reason=settled.reason,
        confidence=confidence,
    )


def _printed_before(inp: AuditInput, table: Table) -> bool:
    """Whether another table of this input has the same label and comes first (ids of findings about the first
    stay what they were before labels printed again were told apart)."""
    first = inp.cache.setdefault("first by label", {})
    if not first:
        for t in inp.tables:
            first.setdefault(t.label, t)
    return table.label is not None and first.get(table.label, table) is not table


def _scope(issue: Issue) -> dict[str, Any]:
    """Which records a finding concerns, in a form attach.py can apply without the Table."""
    subjects = issue.subjects if issue.subjects is not None else issue.cells[:1]
    scope: dict[str, Any] = {"kind": issue.scope}
    if issue.scope in ("cells", "rows", "columns"):
        scope["cells"] = [list(p) for p in subjects]
    return scope


def sort_findings(findings: list[Finding]) -> list[Finding]:
    """Errors first, then by table and check; stable across runs."""
    return sorted(findings, key=lambda f: (SEVERITY_ORDER.get(f.severity, 9), f.table_label or "", f.check, f.id))
