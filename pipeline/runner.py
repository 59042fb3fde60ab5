"""Running one stage on one source: skipped when done, refused when what it reads is not, recorded either way."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pipeline.errors import (
    EXIT_BAD_INPUT,
    EXIT_INTERNAL,
    EXIT_PROBLEMS,
    OUT_OF_MEMORY,
    LitauditError,
    StageInputMissingError,
    UpstreamNotDoneError,
    internal_error_line,
)
from pipeline.settings import Settings
from pipeline.stage_settings import recorded_settings
from pipeline.stages import ARTIFACTS, Stage, StageReport, upstream_of
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
    status = source_status(ws, job.source_id, overrides=job.settings.overrides)
    for up in upstream_of(job.stage):
        state = status.stages[up.name]
        if not state.done:
            files = f" ({', '.join(state.files)})" if state.files else ""
            raise UpstreamNotDoneError(f"{up.name} is {state.state}{files}: {state.reason}; run '{state.fix}' first")
    return status.stages.get(job.stage.name) or own_state(
        ws, job.stage, job.source_id, overrides=job.settings.overrides
    )


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


@dataclass
class Ran:
    """What calling a stage function gave: its report, or the one-line error it failed with."""

    report: StageReport | None = None
    error: str = ""
    exit_code: int = 0


def call_stage(ws: Workspace, job: Job) -> Ran:
    """The stage function on a workspace (the real one, or a worker's copy); never raises."""
    try:
        return Ran(report=job.stage.function()(ws, job.source_id, job.settings))
    except LitauditError as exc:
        return Ran(error=str(exc), exit_code=exc.exit_code)
    except MemoryError:  # the machine, not a bug: say what to do
        return Ran(error=OUT_OF_MEMORY, exit_code=EXIT_BAD_INPUT)
    except Exception as exc:
        return Ran(error=internal_error_line(exc), exit_code=EXIT_INTERNAL)


def admit(ws: Workspace, job: Job) -> JobResult | StageState:
    """The job's result when it need not run (up to date) or must not (what it reads is not done);
    otherwise the stage's own state, which the result will quote when it redoes a modified output."""
    for folder in {p.parent for p in expand(ws, job.source_id, job.stage.outputs)}:
        remove_leftovers(folder)
    try:
        own = _check_upstream(ws, job)
        if own.done and not job.force:
            return _skipped(ws, job)
        first = ARTIFACTS if job.stage.inputs[0] in ARTIFACTS else job.stage.inputs[:1]  # any artifact will do
        wanted = expand(ws, job.source_id, first)
        if not any(p.is_file() for p in wanted):
            raise StageInputMissingError(
                f"{relpath(ws, wanted[0])}: not found; run the stage before {job.stage.name} first"
            )
    except LitauditError as exc:
        return JobResult(job.source_id, job.stage.name, FAILED_JOB, exit_code=exc.exit_code, message=str(exc))
    return own


def conclude(ws: Workspace, job: Job, own: StageState, inputs: dict[str, str | None], ran: Ran) -> JobResult:
    """Record what the stage did, with the hashes of what it read and wrote, and report it.

    A failure of the stage itself is recorded (the stage becomes ``failed``, so nothing downstream counts
    as done); the outputs of an earlier run stay on disk.
    """
    if ran.report is None:
        return _failed(ws, job, inputs, ran.error, ran.exit_code)
    report = ran.report
    try:
        settings = recorded_settings(ws.config_dir, job.stage.name, job.settings.overrides)
        record_done(ws, job.stage, job.source_id, inputs, report.problems, report.summary, settings)
    except OSError as exc:
        return _failed(ws, job, inputs, f"{exc.filename or ''}: {exc.strerror or exc}", EXIT_INTERNAL)
    redone = f"redone: {', '.join(own.files)} {own.reason}" if own.state == MODIFIED else ""
    return JobResult(
        job.source_id,
        job.stage.name,
        DONE,
        problems=report.problems,
        exit_code=EXIT_PROBLEMS if report.problems else 0,
        message=redone,
        summary=report.summary,
    )


def run_job(job: Job) -> JobResult:
    """Run one stage for one source in its workspace; failures come back as results, never as exceptions."""
    ws = Workspace(job.settings.root)
    admitted = admit(ws, job)
    if isinstance(admitted, JobResult):
        return admitted
    inputs = file_hashes(ws, job.source_id, job.stage.inputs)
    return conclude(ws, job, admitted, inputs, call_stage(ws, job))


def _failed(ws: Workspace, job: Job, inputs: dict[str, str | None], message: str, code: int) -> JobResult:
    try:
        record_failed(ws, job.stage, job.source_id, inputs, message)
    except OSError as exc:
        message += f" (and its failure could not be recorded: {exc.strerror or exc})"
    return JobResult(job.source_id, job.stage.name, FAILED_JOB, exit_code=code, message=message)


def overall_exit(results: list[JobResult]) -> int:
    codes = [r.exit_code for r in results]
    return max(codes, default=0)
