"""``litaudit fetch`` end to end against a local server playing arXiv: records, re-runs, refresh, failures."""

from __future__ import annotations

import hashlib
import json
import re
import signal
import threading
import time
from collections.abc import Iterator

import pytest
from arxiv_server import FakeArxiv, atom_feed, empty_feed, error_feed, make_pdf, reply, streamed
from conftest import Invoke, json_out
from pytest_httpserver import HTTPServer

from pipeline.store import Workspace

PAPER = "2406.01627"
SID = f"arxiv:{PAPER}"
PDF = make_pdf("GenBench results", pages=2)
NEW_PDF = make_pdf("GenBench results, corrected", pages=2)


@pytest.fixture
def arxiv(httpserver: HTTPServer) -> Iterator[FakeArxiv]:
    fake = FakeArxiv(httpserver)
    yield fake
    fake.gate.set()  # let a stalled handler finish so the server is idle for the next test


def stored_files(ws: Workspace) -> list[str]:
    """Every file under sources/, temp files included."""
    return sorted(p.relative_to(ws.sources_dir).as_posix() for p in ws.sources_dir.rglob("*") if p.is_file())


def record(ws: Workspace, source_id: str = SID) -> dict:
    return json.loads(ws.source_record_path(source_id).read_text())


def test_fetch_records_the_latest_version_with_its_provenance(
    arxiv: FakeArxiv, invoke: Invoke, workspace: Workspace
) -> None:
    arxiv.paper(PAPER, PDF, version="v2")
    result = invoke("fetch", SID, env=arxiv.env)
    assert result.exit_code == 0, result.output
    # the version downloaded explicitly, then its LaTeX source (none here: arXiv answers 404)
    assert [a.path for a in arxiv.arrivals] == ["/api/query", f"/pdf/{PAPER}v2", f"/e-print/{PAPER}v2"]
    assert workspace.pdf_path(SID).read_bytes() == PDF
    rec = record(workspace)
    assert rec["id"] == SID
    assert rec["title"] == "A Benchmark of Genomic Foundation Models"
    assert rec["authors"] == ["Ada Example", "Grace Sample"]
    assert rec["url"] == f"https://arxiv.org/abs/{PAPER}v2"
    assert rec["artifact_url"] == arxiv.server.url_for(f"/pdf/{PAPER}v2")
    assert rec["version"] == "v2"
    assert (rec["published"], rec["updated"]) == ("2024-06-03T17:52:29Z", "2024-06-20T09:15:02Z")
    assert rec["categories"] == ["q-bio.GN", "cs.LG"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", rec["retrieved_at"])
    assert (rec["sha256"], rec["size"]) == (hashlib.sha256(PDF).hexdigest(), len(PDF))
    assert (rec["media_type"], rec["page_count"], rec["publication_status"]) == ("application/pdf", 2, "preprint")
    assert rec["pdf_path"] == "sources/arxiv_2406.01627/source.pdf"
    assert [(m["field"], m["reason"]) for m in rec["missing_metadata"]] == [
        ("licence", "unreported"),
        ("latex_source", "unavailable"),  # the stand-in serves no e-print for it
    ]
    assert rec["missing_metadata"][0]["note"].startswith("No licence stated")
    assert rec["verifications"] == []
    assert stored_files(workspace) == [
        "arxiv_2406.01627/.fetch.state.json",
        "arxiv_2406.01627/source.json",
        "arxiv_2406.01627/source.pdf",
    ]


def test_version_from_the_config_is_asked_for_and_downloaded(
    arxiv: FakeArxiv, invoke: Invoke, workspace: Workspace
) -> None:
    (workspace.config_dir / "sources.yaml").write_text(f"sources:\n  - id: {SID}\n    version: v1\n    notes: first\n")
    arxiv.api(PAPER, atom_feed(PAPER, "v1"), version="v1")
    arxiv.pdf(f"{PAPER}v1", reply(PDF))
    result = invoke("fetch", "--json", env=arxiv.env)
    assert result.exit_code == 0, result.output
    assert [a.path for a in arxiv.arrivals] == ["/api/query", f"/pdf/{PAPER}v1"]
    rec = record(workspace)
    assert (rec["version"], rec["url"], rec["notes"]) == ("v1", f"https://arxiv.org/abs/{PAPER}v1", "first")


def test_version_in_the_id_gets_its_own_folder(arxiv: FakeArxiv, invoke: Invoke, workspace: Workspace) -> None:
    arxiv.api(PAPER, atom_feed(PAPER, "v1"), version="v1")
    arxiv.pdf(f"{PAPER}v1", reply(PDF))
    assert invoke("fetch", f"{SID}v1", env=arxiv.env).exit_code == 0
    assert stored_files(workspace) == [
        "arxiv_2406.01627v1/.fetch.state.json",
        "arxiv_2406.01627v1/source.json",
        "arxiv_2406.01627v1/source.pdf",
    ]


def test_another_version_than_the_stored_one_is_not_swapped_in(
    arxiv: FakeArxiv, invoke: Invoke, workspace: Workspace
) -> None:
    arxiv.paper(PAPER, PDF, version="v2")
    assert invoke("fetch", SID, env=arxiv.env).exit_code == 0
    (workspace.config_dir / "sources.yaml").write_text(f"sources:\n  - id: {SID}\n    version: v1\n")
    arxiv.arrivals.clear()
    for args in ([], ["--refresh"]):
        result = invoke("fetch", *args, env=arxiv.env)
        assert result.exit_code == 1
        assert "v2 is stored but v1 is asked for" in result.stderr
    assert arxiv.arrivals == []
    assert record(workspace)["version"] == "v2"


def test_second_fetch_makes_no_request(arxiv: FakeArxiv, invoke: Invoke, workspace: Workspace) -> None:
    arxiv.paper(PAPER, PDF)
    assert invoke("fetch", SID, env=arxiv.env).exit_code == 0
    before = record(workspace)
    arxiv.arrivals.clear()
    result = invoke("fetch", SID, "--json", env=arxiv.env)
    assert result.exit_code == 0
    [line] = json_out(result)["sources"]
    assert line["status"] == "already-present"
    assert arxiv.arrivals == []
    assert record(workspace) == before


def test_refresh_with_the_same_bytes_records_a_verification(
    arxiv: FakeArxiv, invoke: Invoke, workspace: Workspace
) -> None:
    arxiv.paper(PAPER, PDF)
    assert invoke("fetch", SID, env=arxiv.env).exit_code == 0
    arxiv.arrivals.clear()
    result = invoke("fetch", SID, "--refresh", "--json", env=arxiv.env)
    assert result.exit_code == 0, result.output
    assert json_out(result)["sources"][0]["status"] == "verified"
    assert [a.path for a in arxiv.arrivals] == [f"/pdf/{PAPER}v2"]  # the recorded version, no API call
    [check] = record(workspace)["verifications"]
    assert check["method"] == "source-hash-verification"
    assert (check["sha256"], check["result"]) == (hashlib.sha256(PDF).hexdigest(), "match")
    assert check["note"] == "Artifact re-retrieved and SHA-256 matched."
    assert check["date"].endswith("Z")


def test_refresh_with_changed_bytes_keeps_the_original_and_sets_the_new_aside(
    arxiv: FakeArxiv, invoke: Invoke, workspace: Workspace, httpserver: HTTPServer
) -> None:
    arxiv.paper(PAPER, PDF)
    assert invoke("fetch", SID, env=arxiv.env).exit_code == 0
    record_before = workspace.source_record_path(SID).read_bytes()
    httpserver.clear()
    arxiv.pdf(f"{PAPER}v2", reply(NEW_PDF))
    result = invoke("fetch", SID, "--refresh", "--json", env=arxiv.env)
    assert result.exit_code == 1
    new_sha = hashlib.sha256(NEW_PDF).hexdigest()
    rejected = workspace.source_dir(SID) / f"rejected-{new_sha[:12]}.pdf"
    [line] = json_out(result)["sources"]
    assert (line["status"], line["sha256"], line["path"]) == ("mismatch", new_sha, str(rejected))
    assert "stored copy and record kept" in line["message"]
    assert str(rejected) in line["message"]
    assert result.stderr.count("\n") == 1 and f"litaudit: error: fetch {SID}: re-retrieved bytes" in result.stderr
    assert workspace.pdf_path(SID).read_bytes() == PDF
    assert workspace.source_record_path(SID).read_bytes() == record_before
    assert rejected.read_bytes() == NEW_PDF


def test_pinned_hash_that_the_download_does_not_match_stores_nothing(
    arxiv: FakeArxiv, invoke: Invoke, workspace: Workspace
) -> None:
    pinned = "0" * 64
    (workspace.config_dir / "sources.yaml").write_text(f"sources:\n  - id: {SID}\n    sha256: '{pinned}'\n")
    arxiv.paper(PAPER, PDF)
    result = invoke("fetch", env=arxiv.env)
    assert result.exit_code == 1
    assert "not the pinned 000000000000" in result.stderr
    sha = hashlib.sha256(PDF).hexdigest()
    assert stored_files(workspace) == [f"arxiv_2406.01627/rejected-{sha[:12]}.pdf"]


def test_pinned_hash_that_matches_is_accepted(arxiv: FakeArxiv, invoke: Invoke, workspace: Workspace) -> None:
    sha = hashlib.sha256(PDF).hexdigest()
    (workspace.config_dir / "sources.yaml").write_text(f"sources:\n  - id: {SID}\n    sha256: {sha}\n")
    arxiv.paper(PAPER, PDF)
    assert invoke("fetch", env=arxiv.env).exit_code == 0
    assert record(workspace)["sha256"] == sha


def test_html_page_with_status_200_is_refused_naming_the_url(
    arxiv: FakeArxiv, invoke: Invoke, workspace: Workspace
) -> None:
    arxiv.api(PAPER, atom_feed(PAPER, "v2"))
    arxiv.pdf(f"{PAPER}v2", reply(b"<!DOCTYPE html><html><body>Please wait</body></html>", content_type="text/html"))
    result = invoke("fetch", SID, env=arxiv.env)
    assert result.exit_code == 2
    url = arxiv.server.url_for(f"/pdf/{PAPER}v2")
    assert result.stderr == f"litaudit: error: fetch {SID}: {url}: got an HTML page, not a PDF\n"
    assert stored_files(workspace) == []


@pytest.mark.parametrize(
    ("feed", "code", "message"),
    [
        (empty_feed(PAPER), 2, "arXiv has no such paper"),
        (error_feed(PAPER), 2, "the arXiv API rejected it (incorrect id format"),
        ("Rate exceeded.", 1, "not an Atom feed"),
    ],
)
def test_api_answers_that_mean_no(
    arxiv: FakeArxiv, invoke: Invoke, workspace: Workspace, feed: str, code: int, message: str
) -> None:
    arxiv.api(PAPER, feed)
    result = invoke("fetch", SID, env=arxiv.env)
    assert result.exit_code == code
    assert message in result.stderr
    assert arxiv.count("/pdf/") == 0
    assert stored_files(workspace) == []


def test_pdf_404_is_exit_1(arxiv: FakeArxiv, invoke: Invoke, workspace: Workspace) -> None:
    arxiv.api(PAPER, atom_feed(PAPER, "v1"), version="")
    arxiv.pdf(f"{PAPER}v1", reply(b"no such version", status=404, content_type="text/plain"))
    result = invoke("fetch", SID, env=arxiv.env)
    assert result.exit_code == 1
    assert "HTTP 404" in result.stderr
    assert stored_files(workspace) == []


@pytest.mark.parametrize("bad", ["2406.01627", "arxiv:2406.1627", "arxiv:../x", "local:../../etc", "arxiv:/etc/passwd"])
def test_bad_ids_are_one_line_exit_2_and_touch_nothing(
    arxiv: FakeArxiv, invoke: Invoke, workspace: Workspace, bad: str
) -> None:
    result = invoke("fetch", bad, env=arxiv.env)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"litaudit: error: fetch {bad}: ")
    assert "Traceback" not in result.output
    assert arxiv.arrivals == []
    assert sorted(p.name for p in workspace.root.parent.iterdir()) == ["ws"]
    assert not workspace.sources_dir.exists() or stored_files(workspace) == []


def test_one_failure_does_not_stop_the_others_and_the_worst_code_wins(
    arxiv: FakeArxiv, invoke: Invoke, workspace: Workspace
) -> None:
    arxiv.paper(PAPER, PDF)
    arxiv.api("2306.15006", empty_feed("2306.15006"))
    arxiv.api("2306.15794", atom_feed("2306.15794", "v1"))
    arxiv.pdf("2306.15794v1", reply(b"busy", status=503, content_type="text/plain"))
    result = invoke("fetch", "arxiv:2306.15794", SID, "arxiv:2306.15006", "--json", env=arxiv.env)
    payload = json_out(result)
    assert (result.exit_code, payload["exit_code"], payload["ok"]) == (2, 2, False)
    assert [(s["id"], s["status"]) for s in payload["sources"]] == [
        ("arxiv:2306.15794", "failed"),
        (SID, "fetched"),
        ("arxiv:2306.15006", "failed"),
    ]
    assert all(set(s) == {"id", "status", "sha256", "path", "message"} for s in payload["sources"])
    fetched = payload["sources"][1]
    assert (fetched["sha256"], fetched["path"]) == (hashlib.sha256(PDF).hexdigest(), str(workspace.pdf_path(SID)))
    assert len(result.stderr.splitlines()) == 2


def test_timeout_from_the_environment_applies(arxiv: FakeArxiv, invoke: Invoke, workspace: Workspace) -> None:
    arxiv.api(PAPER, atom_feed(PAPER, "v2"))
    arxiv.pdf(f"{PAPER}v2", arxiv.stalled(reply(PDF)))
    result = invoke("fetch", SID, env={**arxiv.env, "LITAUDIT_TIMEOUT": "0.3", "LITAUDIT_RETRIES": "0"})
    assert result.exit_code == 1
    assert "timed out (no answer within 0.3 s)" in result.stderr
    assert stored_files(workspace) == []


def test_nothing_listed_nothing_to_do(invoke: Invoke) -> None:
    result = invoke("fetch")
    assert result.exit_code == 0
    assert "nothing to fetch" in result.stdout
    assert json_out(invoke("fetch", "--json")) == {"ok": True, "exit_code": 0, "sources": []}


def test_bad_sources_file_is_exit_2(invoke: Invoke, workspace: Workspace) -> None:
    (workspace.config_dir / "sources.yaml").write_text("sources:\n  - id: arxiv:2406.01627\n    pin: x\n")
    result = invoke("fetch", "--json")
    assert result.exit_code == 2
    assert "sources.yaml: entry 1 (arxiv:2406.01627): unknown key(s) pin" in result.stderr
    assert json_out(result)["ok"] is False


def test_api_and_pdf_requests_are_spaced_and_identified(arxiv: FakeArxiv, invoke: Invoke) -> None:
    arxiv.paper(PAPER, PDF)
    assert invoke("fetch", SID, env={**arxiv.env, "LITAUDIT_MIN_REQUEST_INTERVAL": "0.3"}).exit_code == 0
    api, pdf, eprint = arxiv.arrivals
    assert pdf.at - api.at >= 0.25 and eprint.at - pdf.at >= 0.25  # 0.3 s between sends; arrivals jitter a few ms
    assert api.user_agent == pdf.user_agent == eprint.user_agent
    assert api.user_agent.startswith("litaudit/")


def test_damaged_stored_copy_is_reported_and_refresh_restores_it(
    arxiv: FakeArxiv, invoke: Invoke, workspace: Workspace
) -> None:
    arxiv.paper(PAPER, PDF)
    assert invoke("fetch", SID, env=arxiv.env).exit_code == 0
    workspace.pdf_path(SID).write_bytes(PDF[:500])
    result = invoke("fetch", SID, env=arxiv.env)
    assert result.exit_code == 1
    assert "missing or altered since it was fetched" in result.stderr
    result = invoke("fetch", SID, "--refresh", env=arxiv.env)
    assert result.exit_code == 0, result.output
    assert "restored" in result.stdout
    assert workspace.pdf_path(SID).read_bytes() == PDF


def test_interrupted_download_leaves_nothing_and_a_rerun_completes(
    arxiv: FakeArxiv, invoke: Invoke, workspace: Workspace
) -> None:
    main = threading.main_thread().ident
    assert main is not None

    def interrupted_body() -> Iterator[bytes]:
        yield PDF[:1000]
        signal.pthread_kill(main, signal.SIGINT)  # Ctrl-C while the client waits for the rest
        time.sleep(0.5)
        yield PDF[1000:]

    arxiv.api(PAPER, atom_feed(PAPER, "v2"))
    arxiv.pdf(f"{PAPER}v2", streamed(interrupted_body, content_length=len(PDF)), once=True)
    arxiv.pdf(f"{PAPER}v2", reply(PDF))
    result = invoke("fetch", SID, env=arxiv.env)
    assert result.exit_code == 130
    assert "interrupted" in result.stderr
    assert stored_files(workspace) == []  # no partial PDF, no record, no temp file
    result = invoke("fetch", SID, env=arxiv.env)
    assert result.exit_code == 0, result.output
    assert workspace.pdf_path(SID).read_bytes() == PDF
    assert record(workspace)["sha256"] == hashlib.sha256(PDF).hexdigest()
