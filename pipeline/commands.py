"""The stage commands (extract, map, emit, audit), ``status`` and ``run``."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from pipeline.clikit import emit_result, handle_errors, json_option, log, progress, settings_of
from pipeline.errors import UnknownSourceError
from pipeline.executor import make_executor
from pipeline.runner import Job, JobResult, overall_exit, run_job, source_status
from pipeline.settings import Settings
from pipeline.stages import STAGES, Stage, get_stage
from pipeline.store import Workspace

DEMO_SOURCE_ID = "local:demo"


def resolve_sources(ws: Workspace, source_ids: tuple[str, ...] | list[str]) -> list[str]:
    """The named sources (each must be fetched), or every fetched source when none is named."""
    fetched = ws.fetched_ids()
    if not source_ids:
        return fetched
    for sid in source_ids:
        if sid not in fetched:
            raise UnknownSourceError(f"source {sid!r}: not fetched (run 'litaudit fetch {sid}' first)")
    return list(source_ids)


def run_stages(
    settings: Settings, stages: list[Stage], source_ids: list[str], jobs: int, force: bool, show_progress: bool
) -> list[JobResult]:
    """Each stage over every source (sources in parallel), stage after stage.

    A source whose stage failed goes no further: its later stages would only fail for want of input.
    """
    results: list[JobResult] = []
    failed: set[str] = set()
    for stage in stages:
        batch = [Job(stage, sid, settings, force) for sid in source_ids if sid not in failed]
        executor = make_executor(jobs, len(batch))
        done = progress(executor.map_unordered(run_job, batch), len(batch), stage.name, show_progress)
        stage_results = sorted(done, key=lambda r: r.source_id)
        for result in stage_results:
            if result.status == "failed":
                failed.add(result.source_id)
                log(f"litaudit: {stage.name} {result.source_id}: {result.message}")
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
    payload = {"ok": code == 0, "exit_code": code, "results": [r.to_dict() for r in results], **(extra or {})}
    human = (
        "\n".join([describe(r) for r in results] + (footer or []))
        or "nothing to do: no source fetched yet (litaudit fetch)"
    )
    emit_result(as_json, payload, human)
    raise SystemExit(code)


def stage_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The arguments every stage command takes."""
    fn = click.pass_context(handle_errors(fn))
    fn = json_option(fn)
    fn = click.option("--force", is_flag=True, help="Run again even when the outputs are up to date.")(fn)
    fn = click.option("--jobs", "-j", type=click.IntRange(1), default=None, help="Sources processed in parallel.")(fn)
    return click.argument("source_ids", nargs=-1)(fn)


def run_stage_command(
    ctx: click.Context, name: str, source_ids: tuple[str, ...], jobs: int | None, force: bool, as_json: bool
) -> tuple[Workspace, list[JobResult]]:
    settings = settings_of(ctx)
    ws = Workspace(settings.root)
    ids = resolve_sources(ws, source_ids)
    return ws, run_stages(settings, [get_stage(name)], ids, jobs or settings.jobs, force, not as_json)


def stage_command(name: str) -> click.Command:
    @click.command(name=name, help=f"{get_stage(name).help}\n\nWith no SOURCE_ID, every fetched source.")
    @stage_options
    def command(ctx: click.Context, source_ids: tuple[str, ...], jobs: int | None, force: bool, as_json: bool) -> None:
        report_results(run_stage_command(ctx, name, source_ids, jobs, force, as_json)[1], as_json)

    return command


extract = stage_command("extract")
map_ = stage_command("map")
audit = stage_command("audit")


@click.command(help=f"{get_stage('emit').help}\n\nWith no SOURCE_ID, every fetched source.")
@click.option("--csv", "write_csv", is_flag=True, help="Also write extracted/<source>/records.csv for spreadsheets.")
@stage_options
def emit(
    ctx: click.Context, source_ids: tuple[str, ...], jobs: int | None, force: bool, as_json: bool, write_csv: bool
) -> None:
    ws, results = run_stage_command(ctx, "emit", source_ids, jobs, force, as_json)
    csv_files = []
    if write_csv:
        from pipeline.emit.export_csv import write_records_csv

        csv_files = [str(write_records_csv(ws, r.source_id)) for r in results if r.status != "failed"]
    report_results(results, as_json, {"csv": csv_files} if write_csv else None)


@click.command()
@click.argument("source_ids", nargs=-1)
@json_option
@click.pass_context
@handle_errors
def status(ctx: click.Context, source_ids: tuple[str, ...], as_json: bool) -> None:
    """Each source and which stages are done, missing or stale."""
    ws = Workspace(settings_of(ctx).root)
    rows = [source_status(ws, sid) for sid in resolve_sources(ws, source_ids)]
    names = ["fetch"] + [s.name for s in STAGES]
    lines = [f"{'source':<28} " + " ".join(f"{n:<8}" for n in names)]
    lines += [f"{row['id']:<28} " + " ".join(f"{row['stages'][n]:<8}" for n in names) for row in rows]
    emit_result(as_json, {"ok": True, "sources": rows}, "\n".join(lines) if rows else "no source fetched yet")


@click.command()
@click.argument("source_ids", nargs=-1)
@click.option("--demo", is_flag=True, help="Generate the bundled demo paper, ingest it and run every stage (offline).")
@click.option("--jobs", "-j", type=click.IntRange(1), default=None, help="Sources processed in parallel.")
@click.option("--force", is_flag=True, help="Run every stage again even when up to date.")
@json_option
@click.pass_context
@handle_errors
def run(
    ctx: click.Context, source_ids: tuple[str, ...], demo: bool, jobs: int | None, force: bool, as_json: bool
) -> None:
    """Run every stage in order, skipping what is up to date.

    Sources listed in config/sources.yaml and not fetched yet are fetched first.
    """
    from pipeline import fetch as fetch_stage

    settings = settings_of(ctx)
    ws = Workspace(settings.root)
    if demo:
        from pipeline.fixtures import write_demo_paper

        with tempfile.TemporaryDirectory() as tmp:
            pdf = write_demo_paper(Path(tmp) / "demo.pdf")
            fetch_stage.ingest_file(ws, settings, pdf, DEMO_SOURCE_ID, refresh=False)
        ids = [DEMO_SOURCE_ID]
    else:
        fetched = set(ws.fetched_ids())
        wanted = list(source_ids) or [e.id for e in fetch_stage.load_source_entries(ws)]
        for entry in fetch_stage.load_source_entries(ws):
            if entry.id in wanted and entry.id not in fetched:
                fetch_stage.fetch_entry(ws, settings, entry, refresh=False)
        ids = resolve_sources(ws, source_ids)
    results = run_stages(settings, list(STAGES), ids, jobs or settings.jobs, force, not as_json)
    reports = [str(ws.audits_dir(sid) / "report.html") for sid in ids]
    footer = [f"report: {path}" for path in reports if Path(path).is_file()]
    report_results(results, as_json, {"reports": reports}, footer)
