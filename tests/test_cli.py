"""The command-line contract: --json on stdout, logs on stderr, stable exit codes, no tracebacks."""

from __future__ import annotations

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
