"""Running a stage on a worker that cannot see the workspace (a Dask cluster without a shared disk).

The client decides what runs (:func:`pipeline.runner.admit`), ships each job the bytes it reads, and the
worker runs the stage in a private temporary workspace and sends back the bytes it wrote. Only the
client writes the workspace, atomically, and records the hashes: one writer, whatever the cluster does.
A worker that dies mid-job leaves nothing behind but its temporary folder.
"""

from __future__ import annotations

import dataclasses
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from pipeline import __version__
from pipeline.errors import EXIT_BAD_INPUT, EXIT_INTERNAL
from pipeline.executor import Executor
from pipeline.runner import Job, JobResult, Ran, admit, call_stage, conclude
from pipeline.state import StageState, expand, file_hashes, relpath
from pipeline.store import Workspace, write_bytes


@dataclass(frozen=True)
class ShippedJob:
    """A job with every file it reads (workspace-relative path -> bytes) and the client's litaudit version."""

    job: Job
    files: dict[str, bytes]
    version: str = __version__


@dataclass(frozen=True)
class ReturnedJob:
    """What the worker gives back: how the stage ran and the files it wrote (path -> bytes)."""

    job: Job
    ran: Ran
    outputs: dict[str, bytes]


def ship(ws: Workspace, job: Job) -> ShippedJob:
    """The job with its inputs and its source's record (which stages read for the source's hash)."""
    paths = [*expand(ws, job.source_id, job.stage.inputs), ws.source_record_path(job.source_id)]
    return ShippedJob(job, {relpath(ws, p): p.read_bytes() for p in paths if p.is_file()})


def run_shipped(shipped: ShippedJob) -> ReturnedJob:
    """On the worker: the stage in a private workspace made of the shipped files; never raises."""
    job = shipped.job
    if shipped.version != __version__:
        message = f"the worker runs litaudit {__version__}, the client {shipped.version}: install the same on both"
        return ReturnedJob(job, Ran(error=message, exit_code=EXIT_BAD_INPUT), {})
    with tempfile.TemporaryDirectory(prefix="litaudit-job-") as tmp:
        ws = Workspace(Path(tmp))
        for rel, data in shipped.files.items():
            write_bytes(ws.root / rel, data)
        local = dataclasses.replace(job, settings=dataclasses.replace(job.settings, root=ws.root))
        ran = call_stage(ws, local)
        outputs = {}
        if ran.report is not None:
            outputs = {
                relpath(ws, p): p.read_bytes() for p in expand(ws, job.source_id, job.stage.outputs) if p.is_file()
            }
    return ReturnedJob(job, ran, outputs)


def land(ws: Workspace, returned: ReturnedJob, own: StageState, inputs: dict[str, str | None]) -> JobResult:
    """On the client: write what the worker returned (only the stage's own outputs), then record it."""
    expected = {relpath(ws, p) for p in expand(ws, returned.job.source_id, returned.job.stage.outputs)}
    ran = returned.ran
    unexpected = sorted(set(returned.outputs) - expected)
    if unexpected:
        ran = Ran(
            error=f"the worker returned files the stage does not write: {', '.join(unexpected)}",
            exit_code=EXIT_INTERNAL,
        )
    elif ran.report is not None:
        for rel, data in sorted(returned.outputs.items()):
            write_bytes(ws.root / rel, data)
    return conclude(ws, returned.job, own, inputs, ran)


def run_detached(ws: Workspace, executor: Executor, jobs: list[Job]) -> Iterator[JobResult]:
    """Every job through workers that cannot see ``ws``; files are read only as each job is sent."""
    own: dict[tuple[str, str], StageState] = {}
    inputs: dict[tuple[str, str], dict[str, str | None]] = {}
    admitted: list[Job] = []
    for job in jobs:
        verdict = admit(ws, job)
        if isinstance(verdict, JobResult):
            yield verdict
        else:
            own[_key(job)] = verdict
            admitted.append(job)

    def shipped() -> Iterator[ShippedJob]:
        for job in admitted:
            inputs[_key(job)] = file_hashes(ws, job.source_id, job.stage.inputs)  # what the worker will read
            yield ship(ws, job)

    for returned in executor.map_unordered(run_shipped, shipped()):
        key = _key(returned.job)
        yield land(ws, returned, own.pop(key), inputs.pop(key))


def _key(job: Job) -> tuple[str, str]:
    return job.stage.name, job.source_id
