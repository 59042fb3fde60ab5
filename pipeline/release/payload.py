"""What a release holds: per source its record, reviewed records, findings and review log; the
catalogue and the settings used.

Readiness, decided here: a source is refused when any stage that ran is not done (pipeline/state.py:
*stale* because its inputs changed, *modified* or with a deleted output because someone edited what
litaudit wrote, *failed*), when it has no records at all, or when its records were made from another
PDF than the one fetched. A stage that never ran is fine as long as records exist: an unaudited source
is released with its emitted records, and release.json says so.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipeline.catalogue.load import resolve_catalogue_dir
from pipeline.errors import EXIT_PROBLEMS, LitauditError
from pipeline.release.records import AUDITED, NoRecordsError, RecordsFile, read_source_records
from pipeline.reproductions import VERDICTS, read_reproductions, reproductions_path, verdict_counts
from pipeline.reviews import (
    FINDING,
    RECORD,
    ReviewEntry,
    apply_review,
    latest_decisions,
    read_reviews,
    reviews_path,
    undecided,
)
from pipeline.selection import Selection
from pipeline.settings import Settings
from pipeline.stages import STAGES
from pipeline.state import StageState, read_state, source_status
from pipeline.store import Workspace, jsonl_text, read_findings, read_source_record, safe_id

Content = bytes | Path  # bytes to write, or a workspace file to copy as is


class NotReadyError(LitauditError):
    """Some sources cannot be released as they stand (stale stages, no records, mismatched PDF)."""

    exit_code = EXIT_PROBLEMS


@dataclass
class SourcePlan:
    """One source as it will be released."""

    source: dict[str, Any]
    records: RecordsFile
    reviews: list[ReviewEntry]
    findings_path: Path | None
    pdf_path: Path | None
    stage_settings: dict[str, Any] = field(default_factory=dict)  # stage -> the settings it ran with

    @property
    def folder(self) -> str:
        return safe_id(self.source["id"])

    def released_records(self) -> list[dict[str, Any]]:
        latest = latest_decisions(self.reviews)
        return [apply_review(row, latest.get(row["id"])) for row in self.records.rows]

    def summary(self, released: list[dict[str, Any]]) -> dict[str, Any]:
        ids = self.records.ids()
        findings = [f["id"] for f in read_findings(self.findings_path)] if self.findings_path else []
        return {
            "id": self.source["id"],
            "folder": self.folder,
            "sha256": self.source.get("sha256"),
            "title": self.source.get("title"),
            "records": len(released),
            "records_from": self.records.relpath,
            "audited": self.records.origin == AUDITED,
            "findings": len(findings),
            "findings_undecided": len(undecided(findings, self.reviews, FINDING)),
            "reviews": len(self.reviews),
            "orphan_reviews": sum(1 for e in self.reviews if e.kind == RECORD and e.target not in ids),
            "review_status": dict(sorted(Counter(r["review_status"] for r in released).items())),
            "pdf": self.pdf_path is not None,
            "stage_settings": self.stage_settings,
        }


@dataclass
class Payload:
    """The files of a release's ``data/`` folder, keyed by their path there, plus what they hold."""

    files: dict[str, Content] = field(default_factory=dict)
    sources: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def write(self, folder: Path) -> None:
        for rel, content in sorted(self.files.items()):
            target = folder / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, Path):
                shutil.copyfile(content, target)
            else:
                target.write_bytes(content)


def _stage_problem(source_id: str, state: StageState) -> str:
    files = f" ({', '.join(state.files)})" if state.files else ""
    return f"{source_id}: {state.stage} is {state.state}{files}: {state.reason}; run '{state.fix}'"


def _problems_of(ws: Workspace, source_id: str, with_pdfs: bool) -> tuple[SourcePlan | None, list[str]]:
    problems = [_stage_problem(source_id, s) for s in source_status(ws, source_id).not_done() if s.ran]
    if problems:  # its files cannot be trusted, so they are not read
        return None, problems
    source = read_source_record(ws.source_record_path(source_id))
    try:
        records = read_source_records(ws, source_id)
    except NoRecordsError:
        return None, [*problems, f"{source_id}: has no records (run extract, map and emit first, or leave it out)"]
    if not records.rows:
        problems.append(f"{source_id}: {records.relpath} holds no records")
    other = sorted({r.get("source_sha256") for r in records.rows} - {source.get("sha256")}, key=str)
    if other:
        problems.append(f"{source_id}: records were made from another PDF (sha256 {other[0]})")
    findings = ws.audits_dir(source_id) / "findings.json"
    plan = SourcePlan(
        source=source,
        records=records,
        reviews=read_reviews(reviews_path(ws, source_id)),
        findings_path=findings if findings.is_file() else None,
        pdf_path=ws.pdf_path(source_id) if with_pdfs and ws.pdf_path(source_id).is_file() else None,
        stage_settings=_settings_ran_with(ws, source_id),
    )
    return plan, problems


def _settings_ran_with(ws: Workspace, source_id: str) -> dict[str, Any]:
    """The settings each stage recorded when it ran for the source (stages without settings record none)."""
    found = {}
    for stage in STAGES:
        settings = (read_state(ws, stage, source_id) or {}).get("settings")
        if settings is not None:
            found[stage.name] = settings
    return found


def plan_sources(ws: Workspace, selection: Selection, with_pdfs: bool) -> list[SourcePlan]:
    """Every source ready to release; otherwise one error listing each source that is not, and why."""
    plans: list[SourcePlan] = []
    problems = [f"{label}: {problem}" for label, problem in selection.problems.items()]
    for sid in selection.ids:
        plan, found = _problems_of(ws, sid, with_pdfs)
        problems.extend(found)
        if plan is not None:
            plans.append(plan)
    if problems:
        raise NotReadyError("cannot freeze: " + "; ".join(problems))
    return plans


def settings_used(settings: Settings) -> dict[str, Any]:
    """The settings in force, less the workspace path (which says nothing about the results)."""
    return {k: v for k, v in settings.to_dict().items() if k != "root"}


def build_payload(ws: Workspace, settings: Settings, plans: list[SourcePlan]) -> Payload:
    payload = Payload()
    for plan in plans:
        base = f"sources/{plan.folder}"
        released = plan.released_records()
        payload.files[f"{base}/source.json"] = ws.source_record_path(plan.source["id"])
        payload.files[f"{base}/records.jsonl"] = jsonl_text(released).encode()
        if plan.findings_path:
            payload.files[f"{base}/findings.json"] = plan.findings_path
            catalogue_record = plan.findings_path.with_name("source_record.json")  # written with the findings
            if catalogue_record.is_file():
                payload.files[f"{base}/source_record.json"] = catalogue_record
        if plan.reviews:
            payload.files[f"{base}/reviews.jsonl"] = reviews_path(ws, plan.source["id"])
        if plan.pdf_path:
            payload.files[f"{base}/source.pdf"] = plan.pdf_path
        summary = plan.summary(released)
        reproductions = reproductions_path(ws, plan.source["id"])
        if reproductions.is_file():  # the entries name their data, weights and protocol hashes
            payload.files[f"{base}/reproductions.jsonl"] = reproductions
        summary["reproductions"] = verdict_counts(read_reproductions(reproductions))
        payload.sources.append(summary)
        if not summary["audited"]:
            payload.notes.append(f"{summary['id']}: not audited; records taken from {summary['records_from']}")
        if summary["orphan_reviews"]:
            payload.notes.append(
                f"{summary['id']}: {summary['orphan_reviews']} review decisions name records not in this release"
            )
    for path in sorted(resolve_catalogue_dir(ws.config_dir).glob("*.yaml")):  # the catalogue the records used
        payload.files[f"config/catalogue/{path.name}"] = path
    overrides = ws.config_dir / "overrides.yaml"
    if overrides.is_file():
        payload.files["config/overrides.yaml"] = overrides
    payload.files["settings.json"] = (json.dumps(settings_used(settings), indent=2, sort_keys=True) + "\n").encode()
    return payload


def release_counts(payload: Payload) -> dict[str, Any]:
    statuses: Counter[str] = Counter()
    for source in payload.sources:
        statuses.update(source["review_status"])
    return {
        "sources": len(payload.sources),
        "records": sum(s["records"] for s in payload.sources),
        "findings": sum(s["findings"] for s in payload.sources),
        "findings_undecided": sum(s["findings_undecided"] for s in payload.sources),
        "reviews": sum(s["reviews"] for s in payload.sources),
        "pdfs": sum(s["pdf"] for s in payload.sources),
        "catalogue_files": sum(1 for rel in payload.files if rel.startswith("config/catalogue/")),
        "review_status": dict(sorted(statuses.items())),
        "not_audited": sum(not s["audited"] for s in payload.sources),
        "reproductions": {v: sum(s["reproductions"][v] for s in payload.sources) for v in VERDICTS},
    }
