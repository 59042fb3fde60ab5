"""End to end, offline: the bundled demo paper through every stage, then an idempotent re-run."""

from __future__ import annotations

from conftest import json_out

from pipeline.stages import STAGES
from pipeline.store import Workspace


def test_run_demo_runs_every_stage_and_resumes(invoke, workspace: Workspace) -> None:
    first = invoke("run", "--demo", "--json")
    payload = json_out(first)
    assert first.exit_code == 1, first.stderr  # the demo paper has planted problems: the audit reports them
    by_stage = {r["stage"]: r for r in payload["results"]}
    assert list(by_stage) == [s.name for s in STAGES]
    assert all(r["status"] == "done" for r in payload["results"]), payload["results"]
    assert by_stage["audit"]["problems"] > 0
    for name in ("findings.json", "records.jsonl", "report.html", "report.md"):
        assert (workspace.audits_dir("local:demo") / name).is_file()

    status = json_out(invoke("status", "--json"))
    done = {"fetch": "done", **{s.name: "done" for s in STAGES}}
    assert status["sources"] == [{"id": "local:demo", "stages": done, "details": {}}]

    again = invoke("run", "--demo", "--json")
    assert again.exit_code == 1
    assert [r["status"] for r in json_out(again)["results"]] == ["skipped"] * len(STAGES)


def test_a_broken_source_stops_at_its_failed_stage_and_the_others_go_on(invoke, workspace: Workspace) -> None:
    assert invoke("run", "--demo").exit_code == 1
    broken = workspace.pdf_path("local:demo")
    broken.write_bytes(b"%PDF-1.4\n% truncated on purpose\n")
    result = invoke("run", "--json", "--force")
    assert result.exit_code == 2
    results = json_out(result)["results"]
    assert [(r["stage"], r["status"]) for r in results] == [("extract", "failed")]
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("litaudit: error: extract local:demo: ")
    assert (workspace.audits_dir("local:demo") / "report.html").is_file()  # what was stored is kept
