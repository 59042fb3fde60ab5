"""The runner: stages run per source, record their inputs, and are told done, missing or stale."""

from __future__ import annotations

from pipeline.executor import ProcessExecutor, SerialExecutor
from pipeline.model import Source
from pipeline.runner import DONE, MISSING, STALE, Job, run_job, source_status, stage_state
from pipeline.settings import Settings
from pipeline.stages import Stage
from pipeline.store import Workspace, sha256_file, write_json, write_text

COPY = Stage(
    "copy", "stage_doubles:copy_stage", inputs=("sources/{sid}/source.pdf",), outputs=("extracted/{sid}/copy.txt",)
)


def add_source(ws: Workspace, source_id: str, content: str) -> None:
    pdf = ws.pdf_path(source_id)
    write_text(pdf, content)
    record = Source(
        id=source_id, sha256=sha256_file(pdf), size=len(content), pdf_path="x", retrieved_at="2026-01-01T00:00:00Z"
    )
    write_json(ws.source_record_path(source_id), record.to_dict())


def test_stage_runs_then_skips_then_goes_stale_when_input_changes(workspace: Workspace, settings: Settings) -> None:
    add_source(workspace, "local:a", "hello")
    assert stage_state(workspace, COPY, "local:a") == MISSING
    first = run_job(Job(COPY, "local:a", settings))
    assert (first.status, first.exit_code, first.summary) == ("done", 0, {"chars": 5})
    assert (workspace.extracted_dir("local:a") / "copy.txt").read_text() == "HELLO"
    assert stage_state(workspace, COPY, "local:a") == DONE
    assert run_job(Job(COPY, "local:a", settings)).status == "skipped"
    write_text(workspace.pdf_path("local:a"), "hello again")
    assert stage_state(workspace, COPY, "local:a") == STALE
    assert source_status(workspace, "local:a")["stages"]["fetch"] == STALE  # the PDF no longer matches its record
    assert run_job(Job(COPY, "local:a", settings)).status == "done"
    assert stage_state(workspace, COPY, "local:a") == DONE


def test_forced_run_repeats_and_deleted_output_counts_as_missing(workspace: Workspace, settings: Settings) -> None:
    add_source(workspace, "local:a", "hello")
    run_job(Job(COPY, "local:a", settings))
    assert run_job(Job(COPY, "local:a", settings, force=True)).status == "done"
    (workspace.extracted_dir("local:a") / "copy.txt").unlink()
    assert stage_state(workspace, COPY, "local:a") == MISSING


def test_failures_come_back_as_results_with_exit_codes(workspace: Workspace, settings: Settings) -> None:
    add_source(workspace, "local:bad", "unparseable")
    add_source(workspace, "local:bug", "crash")
    add_source(workspace, "local:warn", "a problem, another problem")
    bad = run_job(Job(COPY, "local:bad", settings))
    assert (bad.status, bad.exit_code) == ("failed", 2)
    assert "cannot be parsed" in bad.message
    bug = run_job(Job(COPY, "local:bug", settings))
    assert (bug.status, bug.exit_code, bug.message) == ("failed", 2, "ZeroDivisionError: division by zero")
    warn = run_job(Job(COPY, "local:warn", settings))
    assert (warn.status, warn.problems, warn.exit_code) == ("done", 2, 1)
    again = run_job(Job(COPY, "local:warn", settings))  # an up-to-date re-run still reports what was found
    assert (again.status, again.problems, again.exit_code) == ("skipped", 2, 1)
    assert not (workspace.extracted_dir("local:bad") / "copy.txt").exists()
    assert stage_state(workspace, COPY, "local:bad") == MISSING


def test_missing_input_names_the_file(workspace: Workspace, settings: Settings) -> None:
    result = run_job(Job(COPY, "local:none", settings))
    assert result.status == "failed"
    assert result.message == "sources/local_none/source.pdf: not found; run the stage before copy first"


def test_process_executor_gives_the_same_results_as_serial(workspace: Workspace, settings: Settings) -> None:
    for name in "abc":
        add_source(workspace, f"local:{name}", name * 3)
    jobs = [Job(COPY, f"local:{name}", settings, force=True) for name in "abc"]
    serial = sorted((r.source_id, r.summary["chars"]) for r in SerialExecutor().map_unordered(run_job, jobs))
    parallel = sorted((r.source_id, r.summary["chars"]) for r in ProcessExecutor(2).map_unordered(run_job, jobs))
    assert serial == parallel == [("local:a", 3), ("local:b", 3), ("local:c", 3)]
