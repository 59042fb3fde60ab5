"""The stage commands (extract, map, emit, audit), ``status`` and ``run``."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from pipeline.clikit import (
    emit_result,
    handle_errors,
    json_option,
    locked,
    log_error,
    settings_of,
    wait_option,
)
from pipeline.errors import EXIT_BAD_INPUT, EXIT_NOT_DONE, EXIT_OK
from pipeline.executor import Executor, make_executor
from pipeline.progress import progress, showing
from pipeline.remote import run_detached
from pipeline.runner import FAILED_JOB, SKIPPED, Job, JobResult, overall_exit, run_job
from pipeline.selection import Selection, resolve_sources
from pipeline.settings import EXECUTORS, Settings
from pipeline.stage_settings import load_settings, parse_overrides, settings_class
from pipeline.stages import FETCH, PIPELINE, STAGES, Stage, get_stage
from pipeline.state import DONE, StageState, source_status
from pipeline.store import Workspace

DEMO_SOURCE_ID = "local:demo"


def failures_of(selection: Selection) -> list[JobResult]:
    """The sources a command cannot use, as failed results (logged), so that the others still run."""
    results = [
        JobResult(label, FETCH, FAILED_JOB, exit_code=EXIT_BAD_INPUT, message=problem)
        for label, problem in selection.problems.items()
    ]
    return report_failures(results)


@dataclass(frozen=True)
class ScaleOut:
    """How sources are spread over workers: the --jobs, --executor, --scheduler and --shared-fs options
    (each unset one falls back to its setting, e.g. LITAUDIT_SCHEDULER)."""

    jobs: int | None = None
    executor: str | None = None
    scheduler: str | None = None
    shared_fs: bool = False

    def executor_for(self, settings: Settings, n_items: int) -> Executor:
        kind = self.executor or settings.executor
        return make_executor(
            self.jobs or settings.jobs, n_items, kind, self.scheduler or settings.scheduler, self.shared_fs
        )


def scale_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The scale-out options, handed to the command as one ``scale`` argument."""

    @functools.wraps(fn)
    def wrapper(
        *args: Any, jobs: int | None, executor: str | None, scheduler: str | None, shared_fs: bool, **kw: Any
    ) -> Any:
        return fn(*args, scale=ScaleOut(jobs, executor, scheduler, shared_fs), **kw)

    options = [
        click.option("--jobs", "-j", type=click.IntRange(1), default=None, help="Sources processed in parallel."),
        click.option(
            "--executor", type=click.Choice(EXECUTORS), default=None, help="Where jobs run [env LITAUDIT_EXECUTOR]."
        ),
        click.option(
            "--scheduler",
            metavar="ADDRESS",
            default=None,
            help="Submit to this Dask scheduler [env LITAUDIT_SCHEDULER].",
        ),
        click.option("--shared-fs", is_flag=True, help="Dask workers see this workspace: send paths, not bytes."),
    ]
    for option in options:
        wrapper = option(wrapper)
    return wrapper


def _run_batch(ws: Workspace, executor: Executor, batch: list[Job]) -> Iterator[JobResult]:
    if executor.shares_workspace:
        return executor.map_unordered(run_job, batch)
    return run_detached(ws, executor, batch)


def run_stages(
    settings: Settings, stages: list[Stage], source_ids: list[str], show_progress: bool, force: bool, scale: ScaleOut
) -> list[JobResult]:
    """Each stage over every source (sources in parallel), stage after stage.

    A source whose stage failed goes no further: its later stages would only fail for want of input.
    """
    ws = Workspace(settings.root)
    results: list[JobResult] = []
    failed: set[str] = set()
    with (
        contextlib.closing(scale.executor_for(settings, len(source_ids))) as executor,  # one cluster per run
        showing(show_progress),  # pages and tables within a source, for the stages run in this process
    ):
        for stage in stages:
            batch = [Job(stage, sid, settings, force) for sid in source_ids if sid not in failed]
            done = _run_batch(ws, executor, batch)
            stage_results = sorted(progress(done, len(batch), stage.name, show_progress), key=lambda r: r.source_id)
            for result in stage_results:
                if result.status == "failed":
                    failed.add(result.source_id)
                    log_error(f"{stage.name} {result.source_id}: {result.message}")
            results.extend(stage_results)
    return results


def describe(result: JobResult) -> str:
    detail = result.message or ", ".join(
        f"{k} {v}" for k, v in result.summary.items() if isinstance(v, (int, float, str))
    )
    return f"{result.stage:<8} {result.source_id:<28} {result.status:<8} {detail}".rstrip()


def report_results(
    results: list[JobResult], as_json: bool, extra: dict[str, Any] | None = None, footer: list[str] | None = None
) -> None:
    code = overall_exit(results)
    payload = {
        "ok": not any(r.status == FAILED_JOB for r in results),  # the run worked; what it found is apart
        "problems": sum(r.problems for r in results),
        "exit_code": code,
        "results": [r.to_dict() for r in results],
        **(extra or {}),
    }
    human = (
        "\n".join([describe(r) for r in results] + (footer or []))
        or "nothing to do: no source fetched yet (litaudit fetch)"
    )
    emit_result(as_json, payload, human)
    raise SystemExit(code)


set_option = click.option(
    "--set",
    "assignments",
    multiple=True,
    metavar="KEY=VALUE",
    help="Override a stage setting for this run (over config/<stage>.yaml); 'run' takes STAGE.KEY=VALUE.",
)


def with_overrides(settings: Settings, assignments: tuple[str, ...], stage: str | None) -> Settings:
    """The settings with the ``--set`` values, each checked against its stage's settings before any work."""
    if not assignments:
        return settings
    overrides = parse_overrides(assignments, stage)
    config_dir = Workspace(settings.root).config_dir
    for name in {item.partition(".")[0] for item in overrides}:  # values that only fail together fail now
        load_settings(settings_class(name), config_dir, overrides)
    return dataclasses.replace(settings, overrides=overrides)


def stage_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The arguments every stage command takes."""
    fn = click.pass_context(handle_errors(locked(fn)))
    fn = set_option(fn)
    fn = json_option(fn)
    fn = wait_option(fn)
    fn = click.option("--force", is_flag=True, help="Run again even when the outputs are up to date.")(fn)
    fn = scale_options(fn)
    return click.argument("source_ids", nargs=-1)(fn)


def run_stage_command(
    ctx: click.Context,
    name: str,
    source_ids: tuple[str, ...],
    scale: ScaleOut,
    force: bool,
    as_json: bool,
    assignments: tuple[str, ...] = (),
) -> tuple[Workspace, list[JobResult]]:
    settings = with_overrides(settings_of(ctx), assignments, name)
    ws = Workspace(settings.root)
    selection = resolve_sources(ws, source_ids)
    failures = failures_of(selection)
    return ws, failures + run_stages(settings, [get_stage(name)], selection.ids, not as_json, force, scale)


def report_failures(results: list[JobResult]) -> list[JobResult]:
    for result in results:
        log_error(f"{result.stage} {result.source_id}: {result.message}")
    return results


def stage_command(name: str) -> click.Command:
    @click.command(name=name, help=f"{get_stage(name).help}\n\nWith no SOURCE_ID, every fetched source.")
    @stage_options
    def command(
        ctx: click.Context,
        source_ids: tuple[str, ...],
        scale: ScaleOut,
        force: bool,
        as_json: bool,
        assignments: tuple[str, ...],
    ) -> None:
        report_results(run_stage_command(ctx, name, source_ids, scale, force, as_json, assignments)[1], as_json)

    return command


extract = stage_command("extract")
map_ = stage_command("map")
audit = stage_command("audit")


@click.command(help=f"{get_stage('emit').help}\n\nWith no SOURCE_ID, every fetched source.")
@click.option("--csv", "write_csv", is_flag=True, help="Also write extracted/<source>/records.csv for spreadsheets.")
@stage_options
def emit(
    ctx: click.Context,
    source_ids: tuple[str, ...],
    scale: ScaleOut,
    force: bool,
    as_json: bool,
    write_csv: bool,
    assignments: tuple[str, ...],
) -> None:
    ws, results = run_stage_command(ctx, "emit", source_ids, scale, force, as_json, assignments)
    csv_files = []
    if write_csv:
        from pipeline.emit.export_csv import write_records_csv

        csv_files = [
            str(write_records_csv(ws, r.source_id)) for r in results if r.stage == "emit" and r.status != "failed"
        ]
    report_results(results, as_json, {"csv": csv_files} if write_csv else None)


@click.command()
@click.argument("source_ids", nargs=-1)
@json_option
@click.pass_context
@handle_errors
def status(ctx: click.Context, source_ids: tuple[str, ...], as_json: bool) -> None:
    """Each source and which stages are done, missing, stale, modified or failed, and what fixes each.

    Exits 1 when any stage of a listed source is not done or a source record is broken, so that a script
    can gate a release on it; 0 when everything is done.
    """
    ws = Workspace(settings_of(ctx).root)
    selection = resolve_sources(ws, source_ids)
    rows = [source_status(ws, sid) for sid in selection.ids]
    names = [stage.name for stage in PIPELINE]
    lines = [f"{'source':<28} " + " ".join(f"{n:<8}" for n in names)]
    lines += [f"{row.id:<28} " + " ".join(f"{row.stages[n].state:<8}" for n in names) for row in rows]
    for row in rows:
        lines += [f"  {row.id} {s.stage}: {s.state}: {_describe_state(s)}" for s in row.not_done() if s.ran]
    lines += [f"  {label}: broken: {problem}" for label, problem in selection.problems.items()]
    all_done = not selection.problems and not any(row.not_done() for row in rows)
    code = EXIT_OK if all_done else EXIT_NOT_DONE
    payload = {
        "ok": True,  # the look worked; whether everything is done is "all_done" (and the exit code)
        "all_done": all_done,
        "exit_code": code,
        "sources": [row.to_dict() for row in rows],
        "broken": [{"source": label, "error": problem} for label, problem in selection.problems.items()],
    }
    emit_result(as_json, payload, "\n".join(lines) if rows or selection.problems else "no source fetched yet")
    raise SystemExit(code)


def _describe_state(state: StageState) -> str:
    files = f"{', '.join(state.files)} " if state.files else ""
    return f"{files}{state.reason} (fix: {state.fix})"


def fetch_listed(ws: Workspace, settings: Settings, source_ids: tuple[str, ...], offline: bool) -> list[JobResult]:
    """Fetch the sources of config/sources.yaml (or those named, listed or not) not fetched yet; each failure
    stays with its source."""
    from pipeline.fetch import fetch_entry
    from pipeline.fetch.commands import attempt, wanted_entries
    from pipeline.fetch.http import PoliteClient

    fetched = set(ws.scan_sources().ids)
    wanted = [e for e in wanted_entries(ws, source_ids) if e.id not in fetched]
    results: list[JobResult] = []
    if offline:
        return [JobResult(e.id, FETCH, SKIPPED, message="not fetched: --offline") for e in wanted]
    client = PoliteClient(settings)
    try:
        for entry in wanted:
            got = attempt(entry.id, functools.partial(fetch_entry, ws, settings, entry, False, client=client))
            status = FAILED_JOB if got.exit_code else DONE
            results.append(JobResult(entry.id, FETCH, status, exit_code=got.exit_code, message=got.message))
    finally:
        client.close()
    report_failures([r for r in results if r.status == FAILED_JOB])
    return results


@click.command()
@click.argument("source_ids", nargs=-1)
@click.option("--demo", is_flag=True, help="Generate the bundled demo paper, ingest it and run every stage (offline).")
@click.option("--offline", is_flag=True, help="Fetch nothing from the network; sources not fetched yet are skipped.")
@click.option("--force", is_flag=True, help="Run every stage again even when up to date.")
@scale_options
@set_option
@wait_option
@json_option
@click.pass_context
@handle_errors
@locked
def run(
    ctx: click.Context,
    source_ids: tuple[str, ...],
    demo: bool,
    offline: bool,
    force: bool,
    scale: ScaleOut,
    assignments: tuple[str, ...],
    as_json: bool,
) -> None:
    """Run every stage in order, skipping what is up to date and redoing what is stale or modified.

    Sources named (or, when none is, listed in config/sources.yaml) and not fetched yet are fetched first; a
    source that cannot be fetched is reported failed and every other source still goes through every stage.
    """
    settings = with_overrides(settings_of(ctx), assignments, None)
    ws = Workspace(settings.root)
    if demo:
        from pipeline import fetch as fetch_stage
        from pipeline.fixtures import write_demo_paper

        with tempfile.TemporaryDirectory() as tmp:
            pdf = write_demo_paper(Path(tmp) / "demo.pdf")
            fetch_stage.ingest_file(ws, settings, pdf, DEMO_SOURCE_ID, refresh=False)
        fetches, wanted = [], [DEMO_SOURCE_ID]
    else:
        fetches = fetch_listed(ws, settings, source_ids, offline)
        not_fetched = {r.source_id for r in fetches if r.status != DONE}
        wanted = [sid for sid in source_ids if sid not in not_fetched]
    selection = resolve_sources(ws, wanted) if wanted or not source_ids else Selection([])
    failures = failures_of(selection)
    results = run_stages(settings, list(STAGES), selection.ids, not as_json, force, scale)
    reports = [str(ws.audits_dir(sid) / "report.html") for sid in selection.ids]
    footer = [f"report: {path}" for path in reports if Path(path).is_file()]
    report_results(fetches + failures + results, as_json, {"reports": reports}, footer)
