"""Running one stage on one source: skipped when done, refused when what it reads is not, recorded either way."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pipeline.errors import (
    EXIT_INTERNAL,
    EXIT_PROBLEMS,
    LitauditError,
    StageInputMissingError,
    UpstreamNotDoneError,
    internal_error_line,
)
from pipeline.settings import Settings
from pipeline.stages import Stage, StageReport, upstream_of
from pipeline.state import (
    DONE,
    MODIFIED,
    StageState,
    expand,
    file_hashes,
    own_state,
    read_state,
    record_done,
    record_failed,
    relpath,
    source_status,
)
from pipeline.store import Workspace, remove_leftovers

SKIPPED, FAILED_JOB = "skipped", "failed"


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


def _check_upstream(ws: Workspace, job: Job) -> StageState:
    """The stage's own state; raises when a stage it reads from is not done (its outputs are not to be trusted)."""
    status = source_status(ws, job.source_id)
    for up in upstream_of(job.stage):
        state = status.stages[up.name]
        if not state.done:
            files = f" ({', '.join(state.files)})" if state.files else ""
            raise UpstreamNotDoneError(f"{up.name} is {state.state}{files}: {state.reason}; run '{state.fix}' first")
    return status.stages.get(job.stage.name) or own_state(ws, job.stage, job.source_id)


def _skipped(ws: Workspace, job: Job) -> JobResult:
    recorded = read_state(ws, job.stage, job.source_id) or {}
    problems = int(recorded.get("problems", 0))
    return JobResult(
        job.source_id,
        job.stage.name,
        SKIPPED,
        problems=problems,
        exit_code=EXIT_PROBLEMS if problems else 0,
        message="up to date",
        summary=recorded.get("summary", {}),
    )


def run_job(job: Job) -> JobResult:
    """Run one stage for one source; failures come back as results, never as exceptions.

    A failure of the stage itself is recorded (the stage becomes ``failed``, so nothing downstream counts
    as done); a refusal because an input is missing or not done leaves the record as it was.
    """
    ws = Workspace(job.settings.root)
    stage = job.stage
    for folder in {p.parent for p in expand(ws, job.source_id, stage.outputs)}:
        remove_leftovers(folder)
    try:
        own = _check_upstream(ws, job)
        if own.done and not job.force:
            return _skipped(ws, job)
        missing = [p for p in expand(ws, job.source_id, stage.inputs[:1]) if not p.is_file()]
        if missing:
            raise StageInputMissingError(
                f"{relpath(ws, missing[0])}: not found; run the stage before {stage.name} first"
            )
    except LitauditError as exc:
        return JobResult(job.source_id, stage.name, FAILED_JOB, exit_code=exc.exit_code, message=str(exc))
    inputs = file_hashes(ws, job.source_id, stage.inputs)
    try:
        report: StageReport = stage.function()(ws, job.source_id, job.settings)
        record_done(ws, stage, job.source_id, inputs, report.problems, report.summary)
    except LitauditError as exc:
        return _failed(ws, job, inputs, str(exc), exc.exit_code)
    except Exception as exc:
        return _failed(ws, job, inputs, internal_error_line(exc), EXIT_INTERNAL)
    redone = f"redone: {', '.join(own.files)} {own.reason}" if own.state == MODIFIED else ""
    return JobResult(
        job.source_id,
        stage.name,
        DONE,
        problems=report.problems,
        exit_code=EXIT_PROBLEMS if report.problems else 0,
        message=redone,
        summary=report.summary,
    )


def _failed(ws: Workspace, job: Job, inputs: dict[str, str | None], message: str, code: int) -> JobResult:
    try:
        record_failed(ws, job.stage, job.source_id, inputs, message)
    except OSError as exc:
        message += f" (and its failure could not be recorded: {exc.strerror or exc})"
    return JobResult(job.source_id, job.stage.name, FAILED_JOB, exit_code=code, message=message)


def overall_exit(results: list[JobResult]) -> int:
    codes = [r.exit_code for r in results]
    return max(codes, default=0)
