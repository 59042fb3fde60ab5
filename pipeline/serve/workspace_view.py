"""What the workbench shows, read from the workspace: findings and records with their latest decisions.

Every request names a source by id; only ids the workspace already knows reach a path (``known_source``),
so no request text is ever joined into a filesystem path.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.audit.checks.base import SEVERITIES
from pipeline.audit.context import locator_position, table_key_of, table_parts
from pipeline.errors import BadInputError
from pipeline.model import Table
from pipeline.release.records import read_source_records, records_path
from pipeline.reviews import FINDING, RECORD, ReviewEntry, ReviewLog
from pipeline.store import Workspace, read_findings, read_tables

OPEN = "open"


class UnknownSourceError(BadInputError):
    """A request names a source the workspace does not have."""


@dataclass(frozen=True)
class SourceView:
    """One audited source as the workbench reads it."""

    source_id: str
    findings: list[dict[str, Any]]  # findings.json's findings, each with its review "status" and "decision"
    records: list[dict[str, Any]]  # the records file's rows, each with "status" and "decision"
    reviews: list[ReviewEntry]


def known_source(ws: Workspace, source_id: str) -> str:
    """The source id itself when the workspace has it; UnknownSourceError otherwise."""
    if source_id not in ws.scan_sources().ids:
        raise UnknownSourceError(f"source {source_id!r}: not in this workspace")
    return source_id


class StoredRows:
    """Each source's findings and records as last read, read again only when one of their files changed (inode,
    size or modification time): a request does not re-parse a records file the audit has not rewritten."""

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        self._kept: dict[str, tuple[tuple[Any, ...], tuple[list[dict[str, Any]], list[dict[str, Any]]]]] = {}

    def of(self, source_id: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """(findings, records) of a source the workspace has; UnknownSourceError otherwise."""
        source_id = known_source(self.ws, source_id)
        findings_path, found = self.ws.audits_dir(source_id) / "findings.json", records_path(self.ws, source_id)
        signature = tuple(_signature(p) for p in (findings_path, found[0] if found else None))
        kept = self._kept.get(source_id)
        if kept is not None and kept[0] == signature:
            return kept[1]
        rows = (read_findings(findings_path), read_source_records(self.ws, source_id).rows if found else [])
        self._kept[source_id] = (signature, rows)
        return rows


def _signature(path: Path | None) -> tuple[int, int, int] | None:
    if path is None or not path.is_file():
        return None
    stat = path.stat()
    return (stat.st_ino, stat.st_size, stat.st_mtime_ns)


def read_source(rows: StoredRows, source_id: str, log: ReviewLog) -> SourceView:
    """The source's findings and records with their review status; ``log`` is the source's review log."""
    findings, records = rows.of(source_id)
    return SourceView(
        source_id,
        _with_status(findings, log.latest(FINDING), OPEN),
        _with_status(records, log.latest(RECORD), "catalogued"),
        log.entries(),
    )


def _with_status(rows: list[dict[str, Any]], latest: dict[str, ReviewEntry], undecided: str) -> list[dict[str, Any]]:
    out = []
    for row in rows:
        entry = latest.get(row["id"])
        decision = entry.to_dict() if entry else None
        out.append({**row, "status": entry.status if entry else undecided, "decision": decision})
    return out


def finding_summary(finding: dict[str, Any]) -> dict[str, Any]:
    """A finding's line in the queue and in GET /api/findings."""
    keys = ("id", "source_id", "check", "severity", "confidence", "certainty", "status", "message", "table_label")
    row = {key: finding.get(key) for key in keys}
    row["source"] = row.pop("source_id")
    return row


def queue_order(finding: dict[str, Any]) -> tuple[int, float, str]:
    """Worst severity first, then the most confident extraction (the likeliest genuine problem)."""
    confidence = finding.get("confidence")
    severity = SEVERITIES.index(finding["severity"]) if finding["severity"] in SEVERITIES else len(SEVERITIES)
    return (severity, -(confidence if confidence is not None else -1.0), finding["id"])


def filter_findings(findings: list[dict[str, Any]], filters: dict[str, str]) -> list[dict[str, Any]]:
    """Findings whose source, check, severity and status match every filter given (empty filters match all)."""
    names = {"source": "source_id", "check": "check", "severity": "severity", "status": "status"}
    wanted = {names[k]: v for k, v in filters.items() if k in names and v}
    return sorted((f for f in findings if all(f.get(k) == v for k, v in wanted.items())), key=queue_order)


def table_of(ws: Workspace, source_id: str, finding: dict[str, Any]) -> Table | None:
    """The extracted table a finding points at (None for a finding about the whole paper)."""
    key = (finding.get("details") or {}).get("table_key")
    path = ws.extracted_dir(known_source(ws, source_id)) / "tables.json"
    if key is None or not path.is_file():
        return None
    return next((t for t in read_tables(path).tables if table_key_of(t) == key), None)


def flagged_cells(table: Table, finding: dict[str, Any]) -> list[tuple[int, int]]:
    """(row, col) of the finding's cells in its table, on any page it runs over (a continued table's cells carry
    the page they are printed on)."""
    parts = set(table_parts(table))
    cells = []
    for locator in finding.get("locators", []):
        position = locator_position(locator)
        if position and position[0] in parts:
            cells.append((position[1], position[2]))
    return cells


def grid_of(table: Table, flagged: list[tuple[int, int]]) -> list[list[dict[str, Any]]]:
    """The extracted grid as rows of cells (spans kept once, at their top-left), flagged cells marked."""
    rows: list[list[dict[str, Any]]] = [[] for _ in range(table.n_rows)]
    for cell in sorted(table.cells, key=lambda c: (c.row, c.col)):
        if 0 <= cell.row < table.n_rows:
            rows[cell.row].append(
                {
                    "row": cell.row,
                    "col": cell.col,
                    "text": cell.text,
                    "kind": cell.kind,
                    "row_span": cell.row_span,
                    "col_span": cell.col_span,
                    "flagged": (cell.row, cell.col) in flagged,
                }
            )
    return rows
