"""The runner: stages run per source, record their inputs and outputs, and are told done, missing, stale,
modified or failed from hashes, never assumed."""

from __future__ import annotations

from stage_doubles import add_source_file

from pipeline.executor import ProcessExecutor, SerialExecutor
from pipeline.runner import Job, run_job
from pipeline.settings import Settings
from pipeline.stages import Stage
from pipeline.state import DONE, FAILED, MISSING, MODIFIED, STALE, source_status, stage_state
from pipeline.store import Workspace, write_text

COPY = Stage(
    "copy", "stage_doubles:copy_stage", inputs=("sources/{sid}/source.pdf",), outputs=("extracted/{sid}/copy.txt",)
)


def test_stage_runs_then_skips_then_goes_stale_when_input_changes(workspace: Workspace, settings: Settings) -> None:
    add_source_file(workspace, "local:a", "hello")
    assert stage_state(workspace, COPY, "local:a").state == MISSING
    first = run_job(Job(COPY, "local:a", settings))
    assert (first.status, first.exit_code, first.summary) == ("done", 0, {"chars": 5})
    assert (workspace.extracted_dir("local:a") / "copy.txt").read_text() == "HELLO"
    assert stage_state(workspace, COPY, "local:a").state == DONE
    assert run_job(Job(COPY, "local:a", settings)).status == "skipped"
    write_text(workspace.pdf_path("local:a"), "hello again")
    fetch = source_status(workspace, "local:a").stages["fetch"]
    assert (fetch.state, fetch.files) == (MODIFIED, ("sources/local_a/source.pdf",))  # no longer matches its record
    assert stage_state(workspace, COPY, "local:a").state == STALE  # never done downstream of a modified stage
    refused = run_job(Job(COPY, "local:a", settings))
    assert (refused.status, refused.exit_code) == ("failed", 2)
    assert refused.message.startswith("fetch is modified (sources/local_a/source.pdf): no longer has the SHA-256")
    assert "run 'litaudit fetch --file PATH --id local:a --refresh' first" in refused.message
    add_source_file(workspace, "local:a", "hello again")  # re-ingested: the record now matches
    assert stage_state(workspace, COPY, "local:a").state == STALE  # its input changed since it ran
    assert run_job(Job(COPY, "local:a", settings)).status == "done"
    assert stage_state(workspace, COPY, "local:a").state == DONE


def test_forced_run_repeats_and_deleted_output_counts_as_missing(workspace: Workspace, settings: Settings) -> None:
    add_source_file(workspace, "local:a", "hello")
    run_job(Job(COPY, "local:a", settings))
    assert run_job(Job(COPY, "local:a", settings, force=True)).status == "done"
    (workspace.extracted_dir("local:a") / "copy.txt").unlink()
    state = stage_state(workspace, COPY, "local:a")
    assert (state.state, state.files, state.reason) == (
        MISSING,
        ("extracted/local_a/copy.txt",),
        "deleted since copy wrote it",
    )


def test_an_edited_output_is_modified_and_a_rerun_restores_it(workspace: Workspace, settings: Settings) -> None:
    add_source_file(workspace, "local:a", "hello")
    run_job(Job(COPY, "local:a", settings))
    output = workspace.extracted_dir("local:a") / "copy.txt"
    output.write_text("HELLO, EDITED BY HAND")
    state = stage_state(workspace, COPY, "local:a")
    assert (state.state, state.files) == (MODIFIED, ("extracted/local_a/copy.txt",))
    assert "review SOURCE RECORD --correct VALUE" in state.reason
    again = run_job(Job(COPY, "local:a", settings))
    assert again.status == "done"
    assert again.message.startswith("redone: extracted/local_a/copy.txt changed since copy wrote it")
    assert output.read_text() == "HELLO"
    assert stage_state(workspace, COPY, "local:a").state == DONE


def test_a_killed_writer_leaves_only_a_temporary_file_that_the_next_run_removes(
    workspace: Workspace, settings: Settings
) -> None:
    add_source_file(workspace, "local:a", "hello")
    leftover = workspace.extracted_dir("local:a") / ".copy.txt.abc123.tmp"
    write_text(leftover, "half")
    assert run_job(Job(COPY, "local:a", settings)).status == "done"
    assert not leftover.exists()


def test_failures_come_back_as_results_with_exit_codes(workspace: Workspace, settings: Settings) -> None:
    add_source_file(workspace, "local:bad", "unparseable")
    add_source_file(workspace, "local:bug", "crash")
    add_source_file(workspace, "local:warn", "a problem, another problem")
    bad = run_job(Job(COPY, "local:bad", settings))
    assert (bad.status, bad.exit_code) == ("failed", 2)
    assert "cannot be parsed" in bad.message
    bug = run_job(Job(COPY, "local:bug", settings))
    assert (bug.status, bug.exit_code) == ("failed", 3)  # a bug is an internal error, not bad input
    assert bug.message == ("internal error: ZeroDivisionError: division by zero (LITAUDIT_DEBUG=1 shows the traceback)")
    assert stage_state(workspace, COPY, "local:bug").state == FAILED
    warn = run_job(Job(COPY, "local:warn", settings))
    assert (warn.status, warn.problems, warn.exit_code) == ("done", 2, 1)
    again = run_job(Job(COPY, "local:warn", settings))  # an up-to-date re-run still reports what was found
    assert (again.status, again.problems, again.exit_code) == ("skipped", 2, 1)
    assert not (workspace.extracted_dir("local:bad") / "copy.txt").exists()
    bad_state = stage_state(workspace, COPY, "local:bad")
    assert bad_state.state == FAILED
    assert bad_state.reason.endswith("sources/local_bad/source.pdf: cannot be parsed")


def test_a_failure_after_success_keeps_the_old_output_but_not_done(workspace: Workspace, settings: Settings) -> None:
    add_source_file(workspace, "local:a", "hello")
    run_job(Job(COPY, "local:a", settings))
    add_source_file(workspace, "local:a", "unparseable now")
    assert run_job(Job(COPY, "local:a", settings)).status == "failed"
    assert (workspace.extracted_dir("local:a") / "copy.txt").read_text() == "HELLO"  # nothing stored is lost
    assert stage_state(workspace, COPY, "local:a").state == FAILED


def test_a_source_never_fetched_names_the_command_that_fetches_it(workspace: Workspace, settings: Settings) -> None:
    result = run_job(Job(COPY, "local:none", settings))
    assert (result.status, result.exit_code) == ("failed", 2)
    assert result.message == ("fetch is missing: has not run; run 'litaudit fetch --file PATH --id local:none' first")


def test_process_executor_gives_the_same_results_as_serial(workspace: Workspace, settings: Settings) -> None:
    for name in "abc":
        add_source_file(workspace, f"local:{name}", name * 3)
    jobs = [Job(COPY, f"local:{name}", settings, force=True) for name in "abc"]
    serial = sorted((r.source_id, r.summary["chars"]) for r in SerialExecutor().map_unordered(run_job, jobs))
    parallel = sorted((r.source_id, r.summary["chars"]) for r in ProcessExecutor(2).map_unordered(run_job, jobs))
    assert serial == parallel == [("local:a", 3), ("local:b", 3), ("local:c", 3)]


def test_a_bug_shows_its_traceback_under_litaudit_debug(
    workspace: Workspace, settings: Settings, monkeypatch, capsys
) -> None:
    add_source_file(workspace, "local:bug", "crash")
    monkeypatch.setenv("LITAUDIT_DEBUG", "1")
    bug = run_job(Job(COPY, "local:bug", settings))
    assert (bug.exit_code, bug.message) == (3, "internal error: ZeroDivisionError: division by zero")
    err = capsys.readouterr().err
    assert err.startswith("Traceback (most recent call last):") and "stage_doubles.py" in err
