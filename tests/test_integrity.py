"""Integrity: every stage decides from hashes it can check, and every failure stays with its source.

Each test reproduces one way a release manager could be misled (an edited output frozen as if audited,
a failed stage hidden behind a `done` one, one broken source stopping the rest), on real files in a
temporary workspace made by the real pipeline from the generated demo paper.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from arxiv_server import FakeArxiv, atom_feed, reply
from conftest import interrupt, litaudit, start_litaudit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pytest_httpserver import HTTPServer

from pipeline.lock import workspace_lock
from pipeline.stages import PIPELINE
from pipeline.state import expand, source_status
from pipeline.store import Workspace

SID = "local:demo"
FOLDER = "local_demo"


def states(root: Path, source_id: str = SID) -> dict[str, str]:
    return {name: s.state for name, s in source_status(Workspace(root), source_id).stages.items()}


def test_an_edited_record_is_noticed_refused_by_freeze_and_redone_by_run(root: Path) -> None:
    records = root / "audits" / FOLDER / "records.jsonl"
    original = records.read_bytes()
    records.write_bytes(original.replace(b"0.", b"9.", 1))
    status = json.loads(litaudit(root, "status", "--json").stdout)["sources"][0]
    assert status["stages"]["audit"] == "modified"
    assert status["details"]["audit"]["files"] == [f"audits/{FOLDER}/records.jsonl"]
    frozen = litaudit(root, "freeze", "--date", "2026-01-01")
    assert frozen.exit_code == 1
    assert frozen.stderr.count("\n") == 1
    assert f"local:demo: audit is modified (audits/{FOLDER}/records.jsonl)" in frozen.stderr
    assert "litaudit review SOURCE RECORD --correct VALUE" in frozen.stderr  # where a correction belongs
    assert "run 'litaudit run local:demo'" in frozen.stderr  # and what fixes it
    assert not (root / "releases").exists() or not any((root / "releases").glob("2026-*"))
    again = litaudit(root, "run", "--json")
    audit = next(r for r in json.loads(again.stdout)["results"] if r["stage"] == "audit")
    assert audit["status"] == "done" and audit["message"].startswith(f"redone: audits/{FOLDER}/records.jsonl")
    assert records.read_bytes() == original
    assert litaudit(root, "freeze", "--date", "2026-01-01").exit_code == 0


def test_a_truncated_output_is_redone_and_staleness_flows_downstream(root: Path) -> None:
    tables = root / "extracted" / FOLDER / "tables.json"
    original = tables.read_bytes()
    tables.write_bytes(original[:100])
    assert states(root) == {"fetch": "done", "extract": "modified", "map": "stale", "emit": "stale", "audit": "stale"}
    refused = litaudit(root, "map", SID)
    assert refused.exit_code == 2
    assert refused.stderr.startswith(f"litaudit: error: map local:demo: extract is modified (extracted/{FOLDER}/tables")
    result = litaudit(root, "run", "--json")
    by_stage = {r["stage"]: r["status"] for r in json.loads(result.stdout)["results"]}
    assert by_stage == {"extract": "done", "map": "skipped", "emit": "skipped", "audit": "skipped"}
    assert tables.read_bytes() == original
    assert set(states(root).values()) == {"done"}


def test_a_failed_stage_makes_everything_downstream_not_done(root: Path) -> None:
    (root / "config").mkdir(exist_ok=True)
    (root / "config" / "overrides.yaml").write_text("pins: [not, a, mapping]\n")
    result = litaudit(root, "run", "--json")
    assert result.exit_code == 2
    assert [(r["stage"], r["status"]) for r in json.loads(result.stdout)["results"]][:2] == [
        ("extract", "skipped"),
        ("map", "failed"),
    ]
    status = json.loads(litaudit(root, "status", "--json").stdout)["sources"][0]
    assert status["stages"] == {"fetch": "done", "extract": "done", "map": "failed", "emit": "stale", "audit": "stale"}
    assert status["details"]["emit"]["reason"] == "it reads from map, which is failed"
    assert litaudit(root, "freeze", "--date", "2026-01-01").exit_code == 1
    refused = litaudit(root, "audit", SID)
    assert refused.exit_code == 2 and "emit is stale" in refused.stderr


def test_a_broken_source_record_blocks_nothing_else(root: Path) -> None:
    broken = root / "sources" / "local_other"
    broken.mkdir()
    (broken / "source.json").write_text("{}")
    status = litaudit(root, "status", "--json")
    assert status.exit_code == 1  # not everything is done: a source cannot even be read
    payload = json.loads(status.stdout)
    assert [s["id"] for s in payload["sources"]] == [SID]
    assert payload["broken"] == [{"source": "sources/local_other", "error": f"{broken}/source.json: has no 'id'"}]
    assert litaudit(root, "run", SID).exit_code == 1  # naming another source: untouched by the broken one
    everything = litaudit(root, "run", "--json")
    assert everything.exit_code == 2  # the broken record is bad input...
    results = json.loads(everything.stdout)["results"]
    assert results[0] == {
        "exit_code": 2,
        "message": f"{broken}/source.json: has no 'id'",
        "problems": 0,
        "source_id": "sources/local_other",
        "stage": "fetch",
        "status": "failed",
        "summary": {},
    }
    assert {r["source_id"] for r in results[1:]} == {SID}  # ...and the good source still went through
    assert "Traceback" not in everything.output


@pytest.fixture
def arxiv(httpserver: HTTPServer) -> Iterator[FakeArxiv]:
    fake = FakeArxiv(httpserver)
    yield fake
    fake.gate.set()


def test_a_failed_download_stays_with_its_source(root: Path, arxiv: FakeArxiv) -> None:
    (root / "config").mkdir(exist_ok=True)
    (root / "config" / "sources.yaml").write_text("sources:\n  - id: arxiv:2406.01627\n")
    arxiv.api("2406.01627", atom_feed("2406.01627", "v1"), version="")
    arxiv.pdf("2406.01627v1", reply(b"no such version", status=404, content_type="text/plain"))
    result = litaudit(root, "run", "--json", env=arxiv.env)
    assert result.exit_code == 1
    results = json.loads(result.stdout)["results"]
    assert (results[0]["source_id"], results[0]["stage"], results[0]["status"]) == (
        "arxiv:2406.01627",
        "fetch",
        "failed",
    )
    assert "HTTP 404" in results[0]["message"]
    assert result.stderr.startswith("litaudit: error: fetch arxiv:2406.01627: ")
    assert {r["source_id"] for r in results[1:]} == {SID}  # the fetched source still went through every stage
    offline = litaudit(root, "run", "--offline", "--json", env=arxiv.env)
    skipped = json.loads(offline.stdout)["results"][0]
    assert (skipped["status"], skipped["message"]) == ("skipped", "not fetched: --offline")


def test_the_shipped_sources_list_lets_a_first_run_work_offline(tmp_path: Path) -> None:
    shipped = Path(__file__).resolve().parents[1] / "config" / "sources.yaml"
    (tmp_path / "config").mkdir()
    shutil.copy(shipped, tmp_path / "config" / "sources.yaml")
    result = litaudit(tmp_path, "run", "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["results"] == []


def test_a_second_writer_is_refused_or_waits(root: Path) -> None:
    with workspace_lock(root, "run"):
        busy = litaudit(root, "run", "--json")
        assert busy.exit_code == 2
        error = json.loads(busy.stdout)["error"]
        assert error.startswith(f"{root}/.litaudit.lock: the workspace is busy ('litaudit run', pid {os.getpid()}")
        assert error.endswith("wait for it to finish or pass --wait")
        assert litaudit(root, "status").exit_code == 0  # readers are never held up
    assert litaudit(root, "run", "--wait").exit_code == 1


def test_usage_errors_are_one_line_and_json_under_json(root: Path) -> None:
    result = litaudit(root, "verify", "--json")
    assert result.exit_code == 2
    assert json.loads(result.stdout) == {
        "ok": False,
        "exit_code": 2,
        "error": "usage: Missing argument 'RELEASE'. (see 'main verify --help')",
    }
    assert result.stderr == "litaudit: error: usage: Missing argument 'RELEASE'. (see 'main verify --help')\n"
    bad_env = litaudit(root, "status", "--json", env={"LITAUDIT_JOBS": "many"})
    assert bad_env.exit_code == 2 and json.loads(bad_env.stdout)["error"].startswith("environment LITAUDIT_JOBS")


def test_stored_files_are_readable_by_all(root: Path) -> None:
    for path in [root / "sources" / FOLDER / "source.pdf", root / "sources" / FOLDER / "source.json"]:
        assert path.stat().st_mode & 0o777 == 0o644, path


def test_verify_and_verify_fast_count_the_same_files(root: Path) -> None:
    frozen = json.loads(litaudit(root, "freeze", "--date", "2026-01-01", "--json").stdout)
    full = json.loads(litaudit(root, "verify", frozen["path"], "--json").stdout)
    fast = json.loads(litaudit(root, "verify", frozen["path"], "--fast", "--json").stdout)
    assert (full["files"], full["bytes"]) == (fast["files"], fast["bytes"])
    assert full["tag_files"] > 0 and fast["tag_files"] == 0


def _outputs(root: Path) -> list[Path]:
    ws = Workspace(root)
    return [p for stage in PIPELINE for p in expand(ws, SID, stage.outputs) if p.is_file()]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_flipping_any_byte_of_any_output_is_noticed(demo_root: Path, data: st.DataObject) -> None:
    path = data.draw(st.sampled_from(_outputs(demo_root)), label="output")
    original = path.read_bytes()
    offset = data.draw(st.integers(0, len(original) - 1), label="offset")
    flipped = bytearray(original)
    flipped[offset] ^= 0x01
    try:
        path.write_bytes(bytes(flipped))
        owner = next(s.name for s in PIPELINE if path in expand(Workspace(demo_root), SID, s.outputs))
        assert states(demo_root)[owner] != "done"
        refused = litaudit(demo_root, "freeze", "--date", "2026-01-01")
        assert refused.exit_code == 1 and os.path.relpath(path, demo_root) in refused.stderr
    finally:
        path.write_bytes(original)
    assert set(states(demo_root).values()) == {"done"}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("signum", "group"),
    [(signal.SIGINT, False), (signal.SIGTERM, False), (signal.SIGINT, True)],
    ids=["ctrl-c", "kill", "ctrl-c-in-a-terminal"],
)
def test_an_interrupt_with_two_jobs_stops_at_once_without_traceback_and_a_rerun_resumes(
    root: Path, signum: signal.Signals, group: bool
) -> None:
    pdf = root / "sources" / FOLDER / "source.pdf"
    names = "abcdefgh"
    for name in names:
        assert litaudit(root, "fetch", "--file", str(pdf), "--id", f"local:{name}").exit_code == 0
    process = start_litaudit(root, "run", "--force", "--jobs", "2")
    for _ in range(600):  # inside the run: the first new source's extraction is written, most work is to come
        if list(root.glob(f"extracted/local_[{names}]/tables.json")) or process.poll() is not None:
            break
        time.sleep(0.05)
    started = time.monotonic()
    interrupt(process, signum, group)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 130
    assert time.monotonic() - started < 3
    assert stderr == "litaudit: error: interrupted; stored files are intact, re-run to resume\n"
    assert litaudit(root, "run").exit_code == 1
    assert not [p for p in root.rglob(".*") if p.name.endswith((".tmp", ".part"))]
    for sid in [*(f"local:{name}" for name in names), SID]:
        assert set(states(root, sid).values()) == {"done"}, sid


MARKED = """
import pipeline.cli  # its imports made first: a later string exec would clear the mark

try:
    exec("raise KeyboardInterrupt")  # as Ctrl-C does when it lands while a dataclass is being made
except KeyboardInterrupt:
    pass
import runpy
runpy.run_module("pipeline", run_name="__main__")
"""


def test_python_m_pipeline_exits_with_its_code_after_a_keyboard_interrupt_was_caught(tmp_path: Path) -> None:
    """CPython marks a KeyboardInterrupt that ends a string exec as unhandled, caught or not, and `python -m`
    then exits by SIGINT: the Dask Ctrl-C test once saw -2 for the 130 it printed (in a fresh clone's run)."""
    (tmp_path / "marked.py").write_text(MARKED)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    done = subprocess.run([sys.executable, "-m", "marked", "--version"], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("litaudit, version")
