"""Running stages over sources, and telling which stages are done, missing or stale."""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from pipeline import __version__
from pipeline.errors import EXIT_BAD_INPUT, EXIT_PROBLEMS, LitauditError, StageInputMissingError
from pipeline.settings import Settings
from pipeline.stages import FETCH, STAGES, Stage, StageReport
from pipeline.store import Workspace, read_json, safe_id, sha256_file, write_json

DONE, MISSING, STALE = "done", "missing", "stale"


def utc_now() -> str:
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def _expand(ws: Workspace, source_id: str, patterns: tuple[str, ...]) -> list[Path]:
    sid = safe_id(source_id)
    paths: list[Path] = []
    for pattern in patterns:
        rel = pattern.format(sid=sid)
        if any(ch in rel for ch in "*?["):
            paths.extend(Path(p) for p in sorted(glob.glob(str(ws.root / rel))))
        else:
            paths.append(ws.root / rel)
    return paths


def _rel(ws: Workspace, path: Path) -> str:
    return os.path.relpath(path, ws.root).replace(os.sep, "/")


def input_hashes(ws: Workspace, stage: Stage, source_id: str) -> dict[str, str | None]:
    """Current SHA-256 of each input (None for an optional input that is absent)."""
    return {_rel(ws, p): (sha256_file(p) if p.is_file() else None) for p in _expand(ws, source_id, stage.inputs)}


def stage_state(ws: Workspace, stage: Stage, source_id: str) -> str:
    state_file = ws.root / stage.state_path.format(sid=safe_id(source_id))
    if not state_file.is_file():
        return MISSING
    try:
        recorded = read_json(state_file)
    except LitauditError:
        return STALE
    if any(not p.is_file() for p in _expand(ws, source_id, stage.outputs)):
        return MISSING
    current = {k: v for k, v in input_hashes(ws, stage, source_id).items() if v is not None}
    previous = {k: v for k, v in recorded.get("inputs", {}).items() if v is not None}
    if recorded.get("tool_version") != __version__ or current != previous:
        return STALE
    return DONE


def fetch_state(ws: Workspace, source_id: str) -> str:
    record = ws.source_record_path(source_id)
    if not record.is_file():
        return MISSING
    pdf = ws.pdf_path(source_id)
    if not pdf.is_file() or sha256_file(pdf) != read_json(record).get("sha256"):
        return STALE
    return DONE


def source_status(ws: Workspace, source_id: str) -> dict[str, Any]:
    stages = {FETCH: fetch_state(ws, source_id)}
    for stage in STAGES:
        stages[stage.name] = stage_state(ws, stage, source_id)
    return {"id": source_id, "stages": stages}


@dataclass
class JobResult:
    """One stage on one source, as reported back from a worker."""

    source_id: str
    stage: str
    status: str  # "done" | "skipped" | "failed"
    problems: int = 0
    exit_code: int = 0
    message: str = ""
    summary: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return self.__dict__.copy()


@dataclass(frozen=True)
class Job:
    stage: Stage
    source_id: str
    settings: Settings
    force: bool = False


def run_job(job: Job) -> JobResult:
    """Run one stage for one source; failures come back as results, never as exceptions."""
    ws = Workspace(job.settings.root)
    stage = job.stage
    try:
        if not job.force and stage_state(ws, stage, job.source_id) == DONE:
            recorded = read_json(ws.root / stage.state_path.format(sid=safe_id(job.source_id)))
            problems = int(recorded.get("problems", 0))
            return JobResult(
                job.source_id,
                stage.name,
                "skipped",
                problems=problems,
                exit_code=EXIT_PROBLEMS if problems else 0,
                message="up to date",
                summary=recorded.get("summary", {}),
            )
        missing = [p for p in _expand(ws, job.source_id, stage.inputs[:1]) if not p.is_file()]
        if missing:
            raise StageInputMissingError(f"{_rel(ws, missing[0])}: not found; run the stage before {stage.name} first")
        inputs = input_hashes(ws, stage, job.source_id)
        report: StageReport = stage.function()(ws, job.source_id, job.settings)
        outputs = {_rel(ws, p): sha256_file(p) for p in _expand(ws, job.source_id, stage.outputs)}
        write_json(
            ws.root / stage.state_path.format(sid=safe_id(job.source_id)),
            {
                "stage": stage.name,
                "source_id": job.source_id,
                "tool_version": __version__,
                "finished_at": utc_now(),
                "inputs": inputs,
                "outputs": outputs,
                "problems": report.problems,
                "summary": report.summary,
            },
        )
        return JobResult(
            job.source_id,
            stage.name,
            "done",
            problems=report.problems,
            exit_code=EXIT_PROBLEMS if report.problems else 0,
            summary=report.summary,
        )
    except LitauditError as exc:
        return JobResult(job.source_id, stage.name, "failed", exit_code=exc.exit_code, message=str(exc))
    except Exception as exc:
        return JobResult(
            job.source_id, stage.name, "failed", exit_code=EXIT_BAD_INPUT, message=f"{type(exc).__name__}: {exc}"
        )


def overall_exit(results: list[JobResult]) -> int:
    codes = [r.exit_code for r in results]
    return max(codes, default=0)
