"""The command-line contract: --json on stdout, logs on stderr, stable exit codes, no tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import json_out

from pipeline.cli import COMMANDS


def test_status_on_an_empty_workspace(invoke) -> None:
    result = invoke("status", "--json")
    assert result.exit_code == 0
    assert json_out(result) == {"ok": True, "all_done": True, "exit_code": 0, "sources": [], "broken": []}


def test_stage_command_on_unknown_source_is_exit_2_one_line(invoke) -> None:
    for command in ("extract", "map", "emit", "audit", "status"):
        result = invoke(command, "arxiv:2406.01627", "--json")
        assert result.exit_code == 2, command
        message = "source 'arxiv:2406.01627': not fetched (run 'litaudit fetch arxiv:2406.01627' first)"
        assert result.stderr.splitlines() == [f"litaudit: error: {message}"]
        assert json_out(result) == {"ok": False, "error": message, "exit_code": 2}


def test_stage_command_with_nothing_fetched_does_nothing(invoke) -> None:
    result = invoke("extract")
    assert result.exit_code == 0
    assert "nothing to do" in result.stdout


def test_unknown_option_is_a_usage_error(invoke) -> None:
    result = invoke("extract", "--no-such-option")
    assert result.exit_code == 2
    assert "No such option" in result.stderr


def test_every_listed_command_loads() -> None:
    from pipeline.cli import LazyGroup, main

    for name in COMMANDS:
        assert LazyGroup.get_command(main, None, name) is not None, name  # type: ignore[arg-type]


def test_workspace_that_cannot_be_written_is_one_line_exit_2(invoke, workspace, tmp_path) -> None:
    from pipeline.fixtures import write_demo_paper

    pdf = write_demo_paper(tmp_path / "paper.pdf")
    workspace.sources_dir.write_text("a file where the sources/ folder should be")
    result = invoke("fetch", "--file", str(pdf), "--id", "local:paper")
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "Not a directory" in result.stderr or "File exists" in result.stderr


def cli(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``litaudit --root ROOT ARGS...`` as a script runs it: its own process, its exit code."""
    command = [sys.executable, "-m", "pipeline", "--root", str(root), *args]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def test_status_exits_1_until_every_stage_is_done(root: Path) -> None:
    done = cli(root, "status", "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["all_done"] is True
    report = root / "audits" / "local_demo" / "report.md"
    report.write_text(report.read_text() + "edited by hand\n")
    modified = cli(root, "status", "--json")
    payload = json.loads(modified.stdout)
    assert modified.returncode == 1 and (payload["ok"], payload["all_done"], payload["exit_code"]) == (True, False, 1)
    assert payload["sources"][0]["stages"]["audit"] == "modified"
    assert cli(root, "status").returncode == 1  # the same without --json
    report.unlink()
    assert cli(root, "status").returncode == 1  # missing


def test_run_json_keeps_the_run_working_apart_from_the_problems_it_found(root: Path) -> None:
    again = cli(root, "run", "--json")
    payload = json.loads(again.stdout)
    assert again.returncode == 1  # the demo's planted problems
    assert payload["ok"] is True and payload["exit_code"] == 1 and payload["problems"] > 0
    assert {r["status"] for r in payload["results"]} == {"skipped"}
    (root / "sources" / "local_demo" / "source.pdf").write_bytes(b"%PDF-1.4\n% truncated\n")
    failed = cli(root, "run", "--json", "--force")
    assert failed.returncode == 2 and json.loads(failed.stdout)["ok"] is False


def test_an_unknown_source_suggests_only_commands_that_work(root: Path) -> None:
    for name, hint in (("nosuch", "'litaudit status' lists the fetched sources"), ("demo", "did you mean local:demo?")):
        result = cli(root, "status", name)
        assert result.returncode == 2
        [line] = result.stderr.splitlines()
        assert line.startswith(f"litaudit: error: source {name!r}: not fetched, and not a source id (expected arxiv:")
        assert line.endswith(hint) and "litaudit fetch" not in line
    assert cli(root, "status", "local:demo").returncode == 0  # what the hint names works
    unfetched = cli(root, "status", "local:other").stderr
    assert "run 'litaudit fetch --file PATH --id local:other' first" in unfetched
