"""audits/<source>/report.md: the reviewer's report as text, for terminals and diffs."""

from __future__ import annotations

from pipeline.audit.report_data import (
    GridCell,
    Numbered,
    RecordRow,
    Report,
    TableReport,
    certainty,
    plain,
    reproduction_text,
    review_of,
)
from pipeline.model import where_printed
from pipeline.readers.agreement import readings_note

_MARK = {"error": "!!", "warning": "!", "needs-check": "?", "info": "i"}
_LISTED = 8  # record ids listed per finding; the records tables list every record with its findings


def render_markdown(report: Report) -> str:
    lines = [f"# Audit of {report.source_id}", "", f"Source SHA-256: `{report.source_sha256}`", ""]
    counts = ", ".join(f"{n} {severity}" for severity, n in report.counts.items())
    lines += [f"**Findings:** {counts} (counted over the findings listed below).", ""]
    lines += ["| check | default severity | status | findings raised |", "|---|---|---|---|"]
    for check in report.checks:
        status = check.status if check.status == "ran" else f"skipped: {check.reason}"
        lines.append(f"| {check.id} | {check.severity} | {_cell(status)} | {check.raised_text()} |")
    lines.append("")
    lines += [f"- {note}" for note in report.notes]
    if report.notes:
        lines.append("")
    if report.paper_findings:
        lines += ["## Whole paper", ""]
        lines += [line for item in report.paper_findings for line in _finding(item)]
    for section in report.tables:
        lines += _table(section)
    if report.other_records:
        lines += ["## Records outside the tables above", ""]
        lines += _records(report.other_records)
    if report.reproduced_records:
        lines += ["## Reproductions", "", "| record | at | printed | reproduction |", "|---|---|---|---|"]
        for r in report.reproduced_records:
            cells = (r.id, r.locator_readable, r.printed, reproduction_text(r.reproduction or {}))
            lines.append("| " + " | ".join(_cell(x) for x in cells) + " |")
    return "\n".join(lines).rstrip() + "\n"


def _table(section: TableReport) -> list[str]:
    table = section.table
    lines = [
        f"## {section.title} ({where_printed(table.page, table.artifact)})",
        "",
        f"> {_cell(table.caption) or '(no caption)'}",
        "",
    ]
    lines += _grid(section.grid)
    lines.append("")
    if note := readings_note(table):
        lines += [f"Cells {note}.", ""]
    if section.findings:
        lines += [line for item in section.findings for line in _finding(item)]
    else:
        lines += ["No findings.", ""]
    if section.records:
        lines += _records(section.records)
    return lines


def _grid(grid: list[list[GridCell]]) -> list[str]:
    if not grid or not grid[0]:
        return ["(empty table)"]
    rows = [[_grid_cell(c) for c in row] for row in grid]
    out = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(rows[0])]
    out += ["| " + " | ".join(row) + " |" for row in rows[1:]]
    return out


def _grid_cell(cell: GridCell) -> str:
    if cell.text is None:
        return "^"
    text = _cell(cell.text)
    if cell.bold and text:
        text = f"**{text}**"
    if cell.numbers:
        text += f" [{_MARK.get(cell.severity or 'info', 'i')}{','.join(str(n) for n in cell.numbers)}]"
    return text


def _finding(item: Numbered) -> list[str]:
    f = item.finding
    lines = [f"{item.number}. **{f.severity}** `{f.check}` — {f.message}"]
    if review_of(f):
        lines.append(f"   - review: {review_of(f)}")
    if certainty(f):
        lines.append(f"   - certainty: {certainty(f)}")
    for readable, locator in zip(f.locators_readable, f.locators, strict=False):
        lines.append(f"   - at {readable} (`{locator}`)")
    for name, value in (("expected", f.expected), ("found", f.found), ("tolerance", f.tolerance)):
        if plain(value):
            lines.append(f"   - {name}: {plain(value)}")
    for computation in f.details.get("computations", []):
        lines.append(f"   - r{computation['cell'][0]}c{computation['cell'][1]}: {computation['computation']}")
    if f.record_ids:
        shown = ", ".join(f.record_ids[:_LISTED])
        more = f" and {len(f.record_ids) - _LISTED} more" if len(f.record_ids) > _LISTED else ""
        lines.append(f"   - records ({len(f.record_ids)}): {shown}{more}")
    return [*lines, ""]


def _records(rows: list[RecordRow]) -> list[str]:
    lines = [
        "| record | at | printed | metric | dataset | configuration | findings | review |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        r = row.record
        review = ""
        if row.decision is not None:
            d = row.decision
            value = f" → {d.value}" if d.decision == "correct" else ""
            review = f"{d.decision}{value} ({d.reviewer}, {d.date})"
        lines.append(
            "| "
            + " | ".join(
                _cell(x)
                for x in (
                    r.id,
                    r.locator_readable,
                    r.printed,
                    r.metric or "",
                    r.dataset or "",
                    r.configuration or r.model or "",
                    ", ".join(f"{n.number} {n.finding.check}" for n in row.findings),
                    review,
                )
            )
            + " |"
        )
    return [*lines, ""]


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ").strip()
