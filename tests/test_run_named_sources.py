"""``litaudit run ID ...`` fetches a named id not fetched yet, as it fetches a listed one, against a local
server playing arXiv; an id that cannot be fetched fails alone while the other sources go through every stage."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from arxiv_server import FakeArxiv, empty_feed, make_pdf
from conftest import Invoke, json_out
from pytest_httpserver import HTTPServer

from pipeline.fixtures import write_demo_paper
from pipeline.store import Workspace

PAPER = "2406.01627"
STAGES = ("extract", "map", "emit", "audit")


@pytest.fixture
def arxiv(httpserver: HTTPServer) -> Iterator[FakeArxiv]:
    fake = FakeArxiv(httpserver)
    yield fake
    fake.gate.set()


def _local(invoke: Invoke, tmp_path: Path) -> None:
    pdf = write_demo_paper(tmp_path / "x.pdf")
    assert invoke("fetch", "--file", str(pdf), "--id", "local:x").exit_code == 0


def _stages(out: dict, source_id: str) -> dict[str, str]:
    return {r["stage"]: r["status"] for r in out["results"] if r["source_id"] == source_id}


def test_a_named_id_is_fetched_then_run(arxiv: FakeArxiv, invoke: Invoke, workspace: Workspace, tmp_path: Path) -> None:
    arxiv.paper(PAPER, make_pdf("GenBench results", pages=2))
    _local(invoke, tmp_path)
    result = invoke("run", f"arxiv:{PAPER}", "local:x", "--json", env=arxiv.env)
    assert result.exit_code in (0, 1), result.output
    out = json_out(result)
    assert _stages(out, f"arxiv:{PAPER}")["fetch"] == "done"
    for source_id in (f"arxiv:{PAPER}", "local:x"):
        assert all(_stages(out, source_id)[stage] in ("done", "skipped") for stage in STAGES), source_id
    assert workspace.pdf_path(f"arxiv:{PAPER}").is_file()


def test_an_id_that_cannot_be_fetched_fails_alone(
    arxiv: FakeArxiv, invoke: Invoke, workspace: Workspace, tmp_path: Path
) -> None:
    arxiv.api(PAPER, empty_feed(PAPER))
    _local(invoke, tmp_path)
    result = invoke("run", f"arxiv:{PAPER}", "local:x", "local:never", "--json", env=arxiv.env)
    assert result.exit_code == 2, result.output
    out = json_out(result)
    assert _stages(out, f"arxiv:{PAPER}") == {"fetch": "failed"}
    assert _stages(out, "local:never") == {"fetch": "failed"}
    assert all(_stages(out, "local:x")[stage] == "done" for stage in STAGES)
    assert (workspace.audits_dir("local:x") / "report.html").is_file()
    assert "arXiv has no such paper" in result.stderr and "litaudit fetch --file PATH --id local:never" in result.stderr
