"""The audit stage: run every check on one source, attach findings to records, write the reports.

Reads sources/<sid>/source.pdf, extracted/<sid>/tables.json, extracted/<sid>/records.jsonl and the
catalogue; writes audits/<sid>/findings.json, records.jsonl, report.html and report.md. Everything is
computed first and written last (each file atomically), so a failure leaves the previous audit intact.
"""

from __future__ import annotations

from typing import Any

from pipeline import __version__
from pipeline.audit.attach import attach_findings, attach_reproductions
from pipeline.audit.checks import CHECKS, CheckRun, run_checks
from pipeline.audit.checks.base import SEVERITIES
from pipeline.audit.context import locator_position, table_key_of
from pipeline.audit.inputs import load_inputs
from pipeline.audit.render import CellMark, render_tables
from pipeline.audit.report_data import CheckStatus, Report, build_report
from pipeline.audit.report_html import render_html
from pipeline.audit.report_md import render_markdown
from pipeline.audit.settings import AuditSettings
from pipeline.emit.source_record import source_record
from pipeline.extract.settings import ExtractionSettings
from pipeline.model import Finding, Source
from pipeline.reviews import FINDING, latest_decisions, read_reviews, reviewed, reviews_path
from pipeline.settings import Settings
from pipeline.stage_settings import load_settings
from pipeline.stages import StageReport
from pipeline.store import Workspace, read_source_record, write_json, write_jsonl, write_text


def run(ws: Workspace, source_id: str, settings: Settings) -> StageReport:
    knobs = load_settings(AuditSettings, ws.config_dir, settings.overrides)
    text_limit = load_settings(ExtractionSettings, ws.config_dir, settings.overrides).max_text_bytes
    loaded = load_inputs(ws, source_id, knobs, text_limit)
    inp = loaded.audit
    checked = run_checks(inp)
    entries = read_reviews(reviews_path(ws, source_id))
    on_findings = latest_decisions(entries, FINDING)
    findings = [reviewed(f, on_findings.get(f.id)) for f in checked.findings]
    records, findings = attach_findings(inp.records or [], findings, inp.tables)
    records = attach_reproductions(records, inp.reproductions)
    folder = ws.audits_dir(source_id)
    decisions = latest_decisions(entries)
    statuses = _statuses(checked, findings)
    report = build_report(
        source_id, inp.source_sha256, inp.tables, findings, records, decisions, statuses, loaded.notes
    )
    images = render_tables(loaded.pdf, inp.tables, _marks(report), knobs)
    for section in report.tables:
        section.image = images.get(section.table.index)
    counts = report.counts
    write_jsonl(folder / "records.jsonl", [r.to_dict() for r in records])
    write_text(folder / "report.md", render_markdown(report))
    write_text(folder / "report.html", render_html(report))
    write_json(
        folder / "findings.json", _findings_document(source_id, inp.source_sha256, statuses, loaded.notes, findings)
    )
    source = Source.from_dict(read_source_record(ws.source_record_path(source_id)))
    write_json(folder / "source_record.json", source_record(source, records, findings))
    summary: dict[str, Any] = {**counts, "tables": len(inp.tables), "records": len(records)}
    if checked.skipped:
        summary["skipped"] = ", ".join(sorted(checked.skipped))
    return StageReport(problems=counts["error"] + counts["warning"], summary=summary)


def _statuses(checked: CheckRun, findings: list[Finding]) -> list[CheckStatus]:
    return [
        CheckStatus(
            check.id,
            check.severity,
            check.summary,
            "ran" if check.id in checked.ran else "skipped",
            checked.skipped.get(check.id, ""),
            {s: n for s in SEVERITIES if (n := sum(f.check == check.id and f.severity == s for f in findings))},
        )
        for check in CHECKS
    ]


def _marks(report: Report) -> dict[int, list[CellMark]]:
    """Outlines for the page images: every cell an error or warning points at, labelled with its number."""
    marks: dict[int, list[CellMark]] = {}
    for section in report.tables:
        table = section.table
        key = table_key_of(table)
        for item in section.findings:
            for locator in item.finding.locators:
                position = locator_position(locator)
                cell = table.cell_at(position[1], position[2]) if position and position[0] == key else None
                if cell is not None and cell.bbox is not None and item.finding.severity != "info":
                    mark = CellMark(cell.bbox, item.finding.severity, str(item.number))
                    marks.setdefault(table.index, []).append(mark)
    return marks


def _findings_document(
    source_id: str, sha256: str, statuses: list[CheckStatus], notes: list[str], findings: list[Finding]
) -> dict[str, Any]:
    return {
        "source": {"id": source_id, "sha256": sha256},
        "audit": {"version": __version__, "notes": notes},
        "checks": [
            {"id": s.id, "severity": s.severity, "summary": s.summary, "status": s.status, "reason": s.reason}
            for s in statuses
        ],
        "summary": {s: sum(f.severity == s for f in findings) for s in SEVERITIES},
        "findings": [f.to_dict() for f in findings],
    }
