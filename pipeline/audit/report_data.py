"""What both reports show, gathered once: per table the grid, its findings (numbered), its records and the
reviewers' latest decisions; findings about the whole paper; which checks ran and which were skipped."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pipeline.audit.checks.base import SEVERITIES
from pipeline.audit.context import TableIndex, table_key_of
from pipeline.audit.findings import SEVERITY_ORDER
from pipeline.model import Finding, Record, Table, where_printed
from pipeline.reviews import FINDING, STATUS_AFTER, ReviewEntry


@dataclass
class GridCell:
    text: str | None  # None: covered by a spanning cell
    kind: str = "body"
    bold: bool = False
    row_span: int = 1
    col_span: int = 1
    severity: str | None = None  # the worst finding pointing at the cell
    numbers: list[int] = field(default_factory=list)


@dataclass
class Numbered:
    number: int
    finding: Finding


@dataclass
class RecordRow:
    record: Record
    decision: ReviewEntry | None = None
    findings: list[Numbered] = field(default_factory=list)  # the findings the record carries, as numbered


@dataclass
class TableReport:
    table: Table
    anchor: str
    title: str
    grid: list[list[GridCell]]
    findings: list[Numbered]
    records: list[RecordRow]
    image: bytes | None = None


@dataclass
class CheckStatus:
    id: str
    severity: str
    summary: str
    status: str  # "ran" | "skipped"
    reason: str = ""
    raised: dict[str, int] = field(default_factory=dict)  # severity -> findings of the check at that severity

    def raised_text(self) -> str:
        """The severities its findings actually carry ("1 warning"), which can differ from the default."""
        return ", ".join(f"{n} {severity}" for severity, n in self.raised.items()) or "0"


@dataclass
class Report:
    source_id: str
    source_sha256: str
    counts: dict[str, int]
    checks: list[CheckStatus]
    notes: list[str]
    paper_findings: list[Numbered]
    tables: list[TableReport]
    other_records: list[RecordRow]

    @property
    def all_findings(self) -> list[Numbered]:
        return [*self.paper_findings, *(n for t in self.tables for n in t.findings)]

    @property
    def reproduced_records(self) -> list[Record]:
        """The records that carry a reproduction (litaudit probe reproduce), in report order."""
        rows = [*(r for t in self.tables for r in t.records), *self.other_records]
        return [row.record for row in rows if row.record.reproduction]


def reproduction_text(reproduction: dict[str, Any]) -> str:
    """A reproduction in words: the verdict with the reproduced value and interval, or the reason."""
    verdict, value, interval = reproduction.get("verdict"), reproduction.get("value"), reproduction.get("interval")
    if value is None or not interval:
        return f"{verdict}: {reproduction.get('reason', '')}"
    gap = reproduction.get("distance_widths")
    away = f", {gap} interval widths away" if verdict == "differs" and gap is not None else ""
    return f"{verdict}: {value:.3f} [{interval[0]:.3f}, {interval[1]:.3f}]{away}"


def table_title(table: Table) -> str:
    return table.label or f"Unlabelled table {table.index + 1} ({where_printed(table.page, table.artifact)})"


def build_report(
    source_id: str,
    source_sha256: str,
    tables: list[Table],
    findings: list[Finding],
    records: list[Record],
    decisions: dict[str, ReviewEntry],
    checks: list[CheckStatus],
    notes: list[str],
    images: dict[int, bytes] | None = None,
) -> Report:
    """Findings, records and cell marks go to their table by locator, each once: a report grows with the
    tables, cells and findings, whatever the labels."""
    index = TableIndex(tables)
    order = {table_key_of(t): i for i, t in enumerate(tables)}
    ordered = sorted(
        findings,
        key=lambda f: (order.get(f.details.get("table_key"), -1), SEVERITY_ORDER.get(f.severity, 9), f.id),
    )
    numbered = [Numbered(i, f) for i, f in enumerate(ordered, 1)]
    by_id = {n.finding.id: n for n in numbered}
    own: dict[str, list[Numbered]] = {}
    marks: dict[str, list[tuple[Numbered, int, int]]] = {}
    for item in numbered:
        own.setdefault(item.finding.details.get("table_key") or "", []).append(item)
        for locator in item.finding.locators:
            if (position := index.position(locator)) is not None:
                marks.setdefault(position[0], []).append((item, position[1], position[2]))

    def row(record: Record) -> RecordRow:
        return RecordRow(record, decisions.get(record.id), [by_id[i] for i in record.findings if i in by_id])

    rows: dict[str, list[RecordRow]] = {}
    others = []
    for record in records:
        position = index.position(record.locator or "")
        if position is not None and position[0] in order:
            rows.setdefault(position[0], []).append(row(record))
        else:
            others.append(row(record))
    paper = [n for n in numbered if n.finding.details.get("table_key") not in order]
    sections = [
        TableReport(
            table,
            anchor=f"table-{table.index}",
            title=table_title(table),
            grid=_grid(table, marks.get(key := table_key_of(table), [])),
            findings=own.get(key, []),
            records=rows.get(key, []),
            image=(images or {}).get(table.index),
        )
        for table in tables
    ]
    counts = {s: sum(f.severity == s for f in findings) for s in SEVERITIES}
    return Report(source_id, source_sha256, counts, checks, notes, paper, sections, others)


def _grid(table: Table, marks: list[tuple[Numbered, int, int]]) -> list[list[GridCell]]:
    grid = [[GridCell("") for _ in range(table.n_cols)] for _ in range(table.n_rows)]
    for cell in table.cells:
        for r in range(cell.row, min(cell.row + cell.row_span, table.n_rows)):
            for c in range(cell.col, min(cell.col + cell.col_span, table.n_cols)):
                grid[r][c] = GridCell(None)
        if cell.row < table.n_rows and cell.col < table.n_cols:
            grid[cell.row][cell.col] = GridCell(cell.text, cell.kind, cell.bold, cell.row_span, cell.col_span)
    for item, row, col in marks:
        if row >= table.n_rows or col >= table.n_cols:
            continue
        target = grid[row][col]
        if item.number not in target.numbers:
            target.numbers.append(item.number)
        rank = SEVERITY_ORDER.get(item.finding.severity, 9)
        if target.severity is None or rank < SEVERITY_ORDER.get(target.severity, 9):
            target.severity = item.finding.severity
    return grid


def plain(value: Any) -> str:
    """Expected / found / tolerance values as one line of text."""
    if value is None:
        return ""
    if isinstance(value, dict):
        return "; ".join(f"{k}: {plain(v)}" for k, v in value.items() if v not in (None, "", [], {}))
    if isinstance(value, list):
        return ", ".join(plain(v) for v in value)
    return str(value)


def review_of(finding: Finding) -> str:
    """The reviewer's latest decision on the finding, in words; empty when undecided."""
    review = finding.details.get("review")
    if not review:
        return ""
    note = f": {review['note']}" if review.get("note") else ""
    return f"{STATUS_AFTER[FINDING][review['decision']]} by {review['reviewer']} ({review['date']}){note}"


def certainty(finding: Finding) -> str:
    """How sure the finding is and why ("likely: the metric is named only by the caption"), with the table's
    extraction confidence; empty for findings written before certainties existed."""
    if not finding.certainty:
        return ""
    parts = [finding.certainty + (f": {finding.reason}" if finding.reason else "")]
    if finding.confidence is not None:
        parts.append(f"extraction confidence {finding.confidence:.2f}")
    return "; ".join(parts)
