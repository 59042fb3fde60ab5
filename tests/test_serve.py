"""litaudit serve: the real server on a free loopback port over the demo paper's workspace, driven over HTTP."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests
from click.testing import CliRunner

from pipeline.cli import main
from pipeline.model import Table
from pipeline.release.records import read_source_records
from pipeline.reproductions import reproductions_path, store_reproductions
from pipeline.reviews import read_reviews, reviews_path
from pipeline.serve.workspace_view import StoredRows, flagged_cells
from pipeline.store import Workspace

SID = "local:demo"
FOLDER = "local_demo"
BROWSER = next((shutil.which(b) for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None)
FIRST_LINE = re.compile(r"^http://127\.0\.0\.1:(\d+)/\?token=([A-Za-z0-9_-]{20,})$")


@dataclass
class Server:
    process: subprocess.Popen[str]
    base: str
    token: str
    ws: Workspace
    log: Path  # the server's stderr

    def post(self, body: object, headers: dict[str, str] | None = None) -> requests.Response:
        given = {"X-Litaudit-Token": self.token, **(headers or {})}
        return requests.post(f"{self.base}/api/reviews", json=body, headers=given, timeout=30)

    def get(self, path: str, **params: str) -> requests.Response:
        return requests.get(f"{self.base}{path}", params=params, headers={"X-Litaudit-Token": self.token}, timeout=60)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("demo-ws")
    result = CliRunner().invoke(main, ["--root", str(root), "run", "--demo"])
    assert result.exit_code == 1, result.output  # the demo paper has findings
    return root


def start(root: Path) -> Iterator[Server]:
    command = [sys.executable, "-m", "pipeline", "--root", str(root), "serve", "--port", "0"]
    log = root.parent / f"{root.name}.serve.log"
    with log.open("w") as stderr:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=stderr, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline().strip()
        match = FIRST_LINE.match(line)
        assert match, (line, log.read_text())
        base = f"http://127.0.0.1:{match.group(1)}"
        for _ in range(200):  # the socket listens before uvicorn serves: wait for the first answer
            try:
                requests.get(f"{base}/api/sources", timeout=2)
                break
            except requests.ConnectionError:
                threading.Event().wait(0.1)
        yield Server(process, base, match.group(2), Workspace(root), log)
    finally:
        process.terminate()
        process.wait(timeout=30)


@pytest.fixture(scope="module")
def server(built: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    root = tmp_path_factory.mktemp("served") / "ws"
    shutil.copytree(built, root)
    yield from start(root)


def findings(server: Server, **filters: str) -> list[dict]:
    response = server.get("/api/findings", **filters)
    assert response.status_code == 200, response.text
    return response.json()["findings"]  # type: ignore[no-any-return]


def record_ids(server: Server) -> list[str]:
    return [r["id"] for r in server.get("/api/records", source=SID).json()["records"]]


def test_first_line_is_the_url_and_the_page_loads(server: Server) -> None:
    page = server.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert '<script src="/static/app.js">' in page.text
    script = server.get("/static/app.js")
    assert script.status_code == 200 and "X-Litaudit-Token" in script.text


def test_findings_are_listed_worst_first(server: Server) -> None:
    rows = findings(server)
    assert rows and all({"id", "source", "check", "severity", "confidence", "status"} <= set(r) for r in rows)
    assert {r["source"] for r in rows} == {SID}
    order = ["error", "warning", "needs-check", "info"]
    keys = [(order.index(r["severity"]), -(r["confidence"] if r["confidence"] is not None else -1)) for r in rows]
    assert keys == sorted(keys)
    stored = json.loads((server.ws.audits_dir(SID) / "findings.json").read_text())["findings"]
    assert sorted(r["id"] for r in rows) == sorted(f["id"] for f in stored)
    errors = findings(server, severity="error")
    assert errors and {r["severity"] for r in errors} == {"error"}
    assert {r["check"] for r in findings(server, check="aggregate-row")} == {"aggregate-row"}


def test_records_are_listed_with_their_status(server: Server) -> None:
    rows = server.get("/api/records").json()["records"]
    stored = (server.ws.audits_dir(SID) / "records.jsonl").read_text().splitlines()
    assert len(rows) == len(stored) == 103
    assert {r["source"] for r in rows} == {SID}
    assert all(r["status"] in ("catalogued", "source checked", "rejected", "corrected") for r in rows)


def test_finding_view_has_grid_computation_records_and_a_full_resolution_crop(server: Server) -> None:
    mean = next(f for f in findings(server, check="aggregate-row") if f["severity"] == "error")
    detail = server.get("/api/finding", source=SID, id=mean["id"]).json()
    assert detail["finding"]["expected"]["computation"] == "(0.721 + 0.795 + 0.718) / 3 = 0.7447"
    assert detail["table"]["confidence"] == mean["confidence"]
    flagged = [c["text"] for row in detail["table"]["grid"] for c in row if c["flagged"]]
    assert sorted(flagged) == ["0.718", "0.721", "0.757", "0.795"]
    assert [r["printed"] for r in detail["records"]] == ["0.757"]
    crop = server.get("/api/crop", source=SID, id=mean["id"])
    assert crop.status_code == 200 and crop.content.startswith(b"\x89PNG")
    cached = list((server.ws.audits_dir(SID) / "crops").glob("*.png"))
    assert [p.read_bytes() for p in cached] == [crop.content]
    assert server.get("/api/crop", source=SID, id=mean["id"]).content == crop.content


@pytest.mark.parametrize(
    "headers",
    [
        {"X-Litaudit-Token": ""},  # no token
        {"X-Litaudit-Token": "not-the-token"},
        {"Origin": "http://evil.example"},  # the right token from another origin
        {"Origin": "null"},
    ],
)
def test_changes_without_the_token_or_from_elsewhere_are_403(server: Server, headers: dict[str, str]) -> None:
    before = reviews_path(server.ws, SID).read_bytes() if reviews_path(server.ws, SID).exists() else b""
    target = record_ids(server)[0]
    body = {"source": SID, "target": target, "decision": "accept", "reviewer": "mallory", "reason": ""}
    response = server.post(body, headers)
    assert response.status_code == 403, response.text
    after = reviews_path(server.ws, SID).read_bytes() if reviews_path(server.ws, SID).exists() else b""
    assert after == before


def test_a_same_origin_post_is_accepted(server: Server) -> None:
    target = record_ids(server)[1]
    body = {"source": SID, "target": target, "decision": "accept", "reviewer": "ann", "reason": "matches"}
    response = server.post(body, {"Origin": server.base})
    assert response.status_code == 200, response.text
    assert response.json()["status"] == "source checked"


@pytest.mark.parametrize(
    ("path", "params"),
    [
        ("/api/findings", {"source": "../../etc"}),
        ("/api/findings", {"source": FOLDER}),  # the folder name is not an id
        ("/api/crop", {"source": "../sources/local_demo", "id": "x"}),
        ("/api/finding", {"source": "/etc/passwd", "id": "x"}),
        ("/api/record", {"source": "local:demo/../../x", "id": "x"}),
        ("/static/..%2F..%2Fcli.py", {}),
        ("/static/%2e%2e/app.py", {}),
    ],
)
def test_no_request_reaches_a_path_outside_what_the_workspace_knows(server: Server, path: str, params: dict) -> None:
    response = server.get(path, **params)
    assert response.status_code == 404, response.text
    assert "import" not in response.text  # no source file served


def test_a_post_naming_an_unknown_source_writes_nothing(server: Server) -> None:
    body = {"source": "../../tmp/x", "target": "y", "decision": "accept", "reviewer": "ann"}
    response = server.post(body)
    assert response.status_code == 404
    assert not (server.ws.root.parent / "tmp").exists()


def test_another_host_header_is_refused(server: Server) -> None:
    headers = {"Host": "evil.example", "X-Litaudit-Token": server.token}
    response = requests.get(f"{server.base}/api/findings", headers=headers, timeout=10)
    assert response.status_code == 400


def test_bad_decisions_are_400_with_one_line(server: Server) -> None:
    rid = record_ids(server)[2]
    finding = findings(server)[0]["id"]
    for body in (
        {"source": SID, "target": rid, "decision": "correct", "value": "abc", "reviewer": "ann"},
        {"source": SID, "target": rid, "decision": "dismiss", "reviewer": "ann"},  # a record is not dismissed
        {"source": SID, "target": finding, "decision": "reject", "reviewer": "ann"},  # a finding is not rejected
        {"source": SID, "target": rid, "decision": "accept", "reviewer": ""},
        ["not", "an", "object"],
    ):
        response = server.post(body)
        assert response.status_code == 400, (body, response.text)
        assert "\n" not in response.json()["error"]


def test_dismissed_finding_leaves_the_queue_and_the_cli_appends_after(server: Server) -> None:
    target = findings(server, status="open")[0]
    body = {"source": SID, "target": target["id"], "decision": "dismiss", "reason": "a typo", "reviewer": "ann"}
    response = server.post(body)
    assert response.status_code == 200, response.text
    assert response.json()["kind"] == "finding" and response.json()["status"] == "dismissed"
    assert target["id"] not in {f["id"] for f in findings(server, status="open")}
    assert target["id"] in {f["id"] for f in findings(server, status="dismissed")}
    rid = record_ids(server)[3]
    cli = subprocess.run(
        [sys.executable, "-m", "pipeline", "--root", str(server.ws.root), "review", SID, rid, "--correct", "0.5"],
        capture_output=True,
        text=True,
        env={**os.environ, "LITAUDIT_REVIEWER": "bob"},
        check=False,
    )
    assert cli.returncode == 0, cli.stderr
    entries = read_reviews(reviews_path(server.ws, SID))  # the chain is verified on read
    assert [(e.kind, e.target, e.decision) for e in entries[-2:]] == [
        ("finding", target["id"], "dismiss"),
        ("record", rid, "correct"),
    ]
    detail = server.get("/api/record", source=SID, id=rid).json()
    assert detail["record"]["status"] == "corrected" and detail["history"][-1]["value"] == 0.5


def test_twenty_concurrent_posts_leave_one_valid_chain(server: Server) -> None:
    before = len(read_reviews(reviews_path(server.ws, SID)))
    targets = record_ids(server)[10:30]
    codes: list[int] = []

    def post(rid: str) -> None:
        codes.append(server.post({"source": SID, "target": rid, "decision": "reject", "reviewer": "load"}).status_code)

    threads = [threading.Thread(target=post, args=(rid,)) for rid in targets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert codes == [200] * 20
    entries = read_reviews(reviews_path(server.ws, SID))
    assert len(entries) == before + 20
    assert sorted(e.target for e in entries[before:]) == sorted(targets)
    pending = CliRunner().invoke(main, ["--root", str(server.ws.root), "review", "--pending", SID])
    assert pending.exit_code == 0, pending.output


def test_an_edited_log_is_a_409_naming_file_and_line(server: Server) -> None:
    path, rids = reviews_path(server.ws, SID), record_ids(server)
    server.post({"source": SID, "target": rids[40], "decision": "accept", "reviewer": "ann"})
    server.post({"source": SID, "target": rids[41], "decision": "accept", "reviewer": "ann"})
    original = path.read_text()
    lines = original.splitlines(keepends=True)
    path.write_text("".join([*lines[:-2], lines[-2].replace('"accept"', '"reject"'), lines[-1]]))
    try:
        response = server.get("/api/findings")
        assert response.status_code == 409
        assert response.json()["error"] == (
            f"{path}:{len(lines) - 1}: entry was edited (its content no longer matches its sha256)"
        )
        refused = server.post({"source": SID, "target": rids[0], "decision": "accept", "reviewer": "x"})
        assert refused.status_code == 409
    finally:
        path.write_text(original)


def log_bytes(server: Server) -> bytes:
    path = reviews_path(server.ws, SID)
    return path.read_bytes() if path.exists() else b""


@pytest.mark.parametrize(
    ("path", "params"),
    [
        ("/api/sources", {}),
        ("/api/findings", {}),
        ("/api/records", {"source": SID}),
        ("/api/finding", {"source": SID, "id": "x"}),
        ("/api/record", {"source": SID, "id": "x"}),
        ("/api/crop", {"source": SID, "id": "x"}),
    ],
)
@pytest.mark.parametrize("token", [None, "", "not-the-token"])
def test_reads_need_the_token(server: Server, path: str, params: dict, token: str | None) -> None:
    headers = {} if token is None else {"X-Litaudit-Token": token}
    response = requests.get(f"{server.base}{path}", params=params, headers=headers, timeout=30)
    assert response.status_code == 403, response.text
    assert "X-Litaudit-Token" in response.json()["error"] and "finding" not in response.text


def test_the_page_itself_loads_without_the_token(server: Server) -> None:
    for path in ("/", "/static/app.js", "/static/app.css"):
        assert requests.get(f"{server.base}{path}", timeout=30).status_code == 200


def raw_request(server: Server, head: str, body: bytes = b"") -> tuple[int, bytes]:
    """One HTTP request written by hand on a socket (a body that need not match its Content-Length); the status."""
    host, port = server.base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        sock.sendall(head.encode() + body)
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = sock.recv(65536)
            if not chunk:
                break
            answer += chunk
    return int(answer.split(b" ", 2)[1]), answer


def test_a_body_declared_over_the_limit_is_413_before_it_is_sent(server: Server) -> None:
    before = log_bytes(server)
    head = (
        f"POST /api/reviews HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Litaudit-Token: {server.token}\r\n"
        "Content-Type: application/json\r\nContent-Length: 50000000\r\n\r\n"
    )
    status, _ = raw_request(server, head, b'{"source": ')  # 50 MB announced, 11 bytes sent: answered at once
    assert status == 413
    assert log_bytes(server) == before


def test_a_streamed_body_over_the_limit_is_413(server: Server) -> None:
    before = log_bytes(server)

    def chunks() -> Iterator[bytes]:  # chunked transfer: no Content-Length to refuse it by
        yield b'{"note": "'
        for _ in range(40):
            yield b"x" * 65536

    response = requests.post(
        f"{server.base}/api/reviews", data=chunks(), headers={"X-Litaudit-Token": server.token}, timeout=30
    )
    assert response.status_code == 413, response.text
    assert "1000000" in response.json()["error"]
    assert log_bytes(server) == before


@pytest.mark.parametrize("body", [b"[" * 100_000 + b"]" * 100_000, b'{"a":' * 190_000, b"[" * 999_999])
def test_deeply_nested_json_is_400_without_a_traceback(server: Server, body: bytes) -> None:
    response = requests.post(
        f"{server.base}/api/reviews",
        data=body,
        headers={"X-Litaudit-Token": server.token, "Content-Type": "application/json"},
        timeout=30,
    )
    assert response.status_code == 400, response.text
    assert len(response.json()["error"].splitlines()) == 1
    assert "Traceback" not in server.log.read_text()


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"reviewer": "a" * 81}, "reviewer: a name of at most 80 characters"),
        ({"reviewer": "ann\nbob"}, "reviewer: a name of at most 80 characters on one line"),
        ({"reviewer": ["ann"]}, "reviewer: must be a string, got list"),
        ({"reason": "x" * 2001}, "note: at most 2000 characters (got 2001)"),
        ({"value": "1_000"}, "value '1_000': not a plain number"),
        ({"value": "1,000"}, "value '1,000': not a plain number"),
        ({"value": "inf"}, "value 'inf': not a plain number"),
        ({"value": "1e999"}, "value '1e999': too large to be a finite number"),
        ({"value": True}, "value: a number or its text, got bool"),
        ({"value": {"n": 1}}, "value: a number or its text, got dict"),
        ({"value": 10**400}, "value: must be a finite number"),
        ({"decision": "accept", "value": 0.5}, "value: only a correction carries a value, not 'accept'"),
        ({"sneaky": 1}, "unknown field(s) 'sneaky'; expected source, target, decision, reason, value, reviewer"),
    ],
)
def test_fields_are_checked_before_anything_is_written(server: Server, change: dict, problem: str) -> None:
    before = log_bytes(server)
    body = {"source": SID, "target": record_ids(server)[50], "decision": "correct", "value": "0.5", "reviewer": "ann"}
    response = server.post({**body, **change})
    assert response.status_code == 400, response.text
    assert problem in response.json()["error"]
    assert log_bytes(server) == before


@pytest.mark.parametrize(("given", "stored"), [("0.745", 0.745), ("-1.5e-3", -0.0015), (" 12 ", 12.0), (74.5, 74.5)])
def test_values_are_read_as_the_cli_reads_them(server: Server, given: object, stored: float) -> None:
    body = {"source": SID, "target": record_ids(server)[51], "decision": "correct", "value": given, "reviewer": "ann"}
    response = server.post(body)
    assert response.status_code == 200, response.text
    assert response.json()["entry"]["value"] == stored


def test_the_cli_refuses_what_the_server_refuses(server: Server) -> None:
    rid = record_ids(server)[52]
    for value in ("1_000", "inf", "0x10"):
        result = CliRunner().invoke(
            main, ["--root", str(server.ws.root), "review", SID, rid, "--correct", value, "--reviewer", "ann"]
        )
        assert result.exit_code == 2, (value, result.output)
        assert "not a plain number" in result.output
    server_says = server.post({"source": SID, "target": rid, "decision": "correct", "value": "0x10", "reviewer": "a"})
    assert server_says.status_code == 400


def test_undo_appends_the_reversal_and_never_deletes(server: Server) -> None:
    finding = findings(server, status="open")[-1]["id"]
    decided = server.post({"source": SID, "target": finding, "decision": "dismiss", "reviewer": "ann", "reason": "no"})
    assert decided.status_code == 200 and findings(server, status="dismissed")
    kept = log_bytes(server)
    undo = requests.post(
        f"{server.base}/api/reviews/undo",
        json={"source": SID, "entry": decided.json()["entry"]["sha256"], "reviewer": "ann"},
        headers={"X-Litaudit-Token": server.token},
        timeout=30,
    )
    assert undo.status_code == 200, undo.text
    assert undo.json()["status"] == "open" and undo.json()["entry"]["decision"] == "reopen"
    assert log_bytes(server).startswith(kept)  # appended after what was there
    assert finding in {f["id"] for f in findings(server, status="open")}
    again = requests.post(
        f"{server.base}/api/reviews/undo",
        json={"source": SID, "entry": decided.json()["entry"]["sha256"], "reviewer": "ann"},
        headers={"X-Litaudit-Token": server.token},
        timeout=30,
    )
    assert again.status_code == 409 and "undo that decision first" in again.json()["error"]
    entries = read_reviews(reviews_path(server.ws, SID))
    assert [(e.target, e.decision) for e in entries[-2:]] == [(finding, "dismiss"), (finding, "reopen")]


def test_undoing_a_second_decision_restores_the_first(server: Server) -> None:
    rid = record_ids(server)[60]
    server.post({"source": SID, "target": rid, "decision": "accept", "reviewer": "ann", "reason": "checked p3"})
    second = server.post({"source": SID, "target": rid, "decision": "reject", "reviewer": "bob"}).json()
    undo = requests.post(
        f"{server.base}/api/reviews/undo",
        json={"source": SID, "entry": second["entry"]["sha256"], "reviewer": "bob"},
        headers={"X-Litaudit-Token": server.token},
        timeout=30,
    )
    assert undo.status_code == 200, undo.text
    assert (undo.json()["status"], undo.json()["entry"]["note"]) == ("source checked", "checked p3")
    record = server.get("/api/record", source=SID, id=rid).json()["record"]
    assert record["status"] == "source checked"


def test_kept_rows_are_read_again_when_the_audit_rewrites_them(built: Path, tmp_path: Path) -> None:
    root = tmp_path / "ws"
    shutil.copytree(built, root)
    rows = StoredRows(Workspace(root))
    findings_before, records_before = rows.of(SID)
    assert rows.of(SID)[0] is findings_before  # unchanged files: not parsed again
    path = Workspace(root).audits_dir(SID) / "findings.json"
    stored = json.loads(path.read_text())
    stored["findings"] = stored["findings"][1:]
    path.write_text(json.dumps(stored))
    assert [f["id"] for f in rows.of(SID)[0]] == [f["id"] for f in findings_before[1:]]
    assert rows.of(SID)[1] == records_before


@pytest.fixture
def browser_page(built: Path, tmp_path: Path) -> Iterator[tuple[Server, object]]:
    if BROWSER is None:
        pytest.skip("no Chromium installed (Debian package 'chromium')")
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright's Python package is not installed")
    root = tmp_path / "ws"
    shutil.copytree(built, root)
    for served in start(root):
        with sync_api.sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=BROWSER, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.goto(f"{served.base}/?token={served.token}")
            try:
                yield served, page
            finally:
                browser.close()


def test_the_queue_is_driven_by_the_keyboard_in_a_real_browser(browser_page: tuple[Server, object]) -> None:
    server, page = browser_page
    page.wait_for_selector("table.queue tbody tr.current")  # type: ignore[attr-defined]
    rows = findings(server, status="open")
    page.fill("#reviewer", "ann")  # type: ignore[attr-defined]
    page.click("h1")  # type: ignore[attr-defined]  # leave the name box so the keys reach the queue
    page.keyboard.press("j")  # type: ignore[attr-defined]
    assert page.get_attribute("table.queue tr.current", "data-id") == rows[1]["id"]  # type: ignore[attr-defined]
    page.keyboard.press("a")  # type: ignore[attr-defined]
    page.keyboard.type("the cell really is misprinted")  # type: ignore[attr-defined]
    page.keyboard.press("Enter")  # type: ignore[attr-defined]
    page.wait_for_selector("#flash:has-text('accepted')")  # type: ignore[attr-defined]
    page.keyboard.press("d")  # type: ignore[attr-defined]  # the queue reloads: the next open finding is current
    page.keyboard.type("rounding, not an error")  # type: ignore[attr-defined]
    page.keyboard.press("Enter")  # type: ignore[attr-defined]
    page.wait_for_selector("#flash:has-text('dismissed')")  # type: ignore[attr-defined]
    mean = next(f for f in rows if f["check"] == "aggregate-row" and f["severity"] == "error")
    page.goto(f"{server.base}/#/finding/local%3Ademo/{mean['id'].replace(':', '%3A')}")  # type: ignore[attr-defined]
    page.reload()  # type: ignore[attr-defined]
    page.wait_for_selector(".crop img")  # type: ignore[attr-defined]
    page.keyboard.press("c")  # type: ignore[attr-defined]  # correct the value of the record the finding touches
    page.keyboard.type("0.745")  # type: ignore[attr-defined]
    page.keyboard.press("Enter")  # type: ignore[attr-defined]
    page.keyboard.type("mean recomputed")  # type: ignore[attr-defined]
    page.keyboard.press("Enter")  # type: ignore[attr-defined]
    page.wait_for_selector("#flash:has-text('corrected')")  # type: ignore[attr-defined]
    entries = read_reviews(reviews_path(server.ws, SID))
    assert [(e.kind, e.decision, e.note, e.reviewer) for e in entries] == [
        ("finding", "accept", "the cell really is misprinted", "ann"),
        ("finding", "dismiss", "rounding, not an error", "ann"),
        ("record", "correct", "mean recomputed", "ann"),
    ]
    assert [entries[0].target, entries[1].target] == [rows[1]["id"], rows[2]["id"]]  # j, then the next open one
    touched = server.get("/api/finding", source=SID, id=mean["id"]).json()["records"]
    assert entries[2].target == touched[0]["id"] and entries[2].value == 0.745
    page.goto(f"{server.base}/")  # type: ignore[attr-defined]
    page.select_option("select[data-filter=status]", "accepted")  # type: ignore[attr-defined]
    page.wait_for_selector(f"tr[data-id='{rows[1]['id']}']")  # type: ignore[attr-defined]  # persisted
    cli = CliRunner().invoke(main, ["--root", str(server.ws.root), "review", SID, entries[2].target, "--accept"])
    assert cli.exit_code == 2  # no reviewer given: refused, nothing appended
    cli = CliRunner().invoke(
        main, ["--root", str(server.ws.root), "review", SID, entries[2].target, "--accept", "--reviewer", "bob"]
    )
    assert cli.exit_code == 0, cli.output
    assert len(read_reviews(reviews_path(server.ws, SID))) == 4


def test_the_finding_view_moves_on_after_a_decision_and_u_undoes_it(browser_page: tuple[Server, object]) -> None:
    server, page = browser_page
    rows = findings(server, status="open")
    total = len(findings(server))
    page.wait_for_selector(f"#progress:has-text('0 of {total} decided')")  # type: ignore[attr-defined]
    page.fill("#reviewer", "ann")  # type: ignore[attr-defined]
    page.click("h1")  # type: ignore[attr-defined]
    page.keyboard.press("o")  # type: ignore[attr-defined]  # the first open finding, in its view

    def shown(finding: dict) -> None:
        page.wait_for_function(  # type: ignore[attr-defined]
            "id => decodeURIComponent(location.hash).endsWith('/' + id)", arg=finding["id"]
        )
        page.wait_for_selector("h1:has-text('" + finding["check"] + "')")  # type: ignore[attr-defined]

    shown(rows[0])
    page.wait_for_selector(".crop img[src^='blob:']")  # type: ignore[attr-defined]  # fetched with the token
    page.keyboard.press("j")  # type: ignore[attr-defined]
    shown(rows[1])
    page.keyboard.press("k")  # type: ignore[attr-defined]
    shown(rows[0])
    page.keyboard.press("a")  # type: ignore[attr-defined]
    page.keyboard.type("genuine")  # type: ignore[attr-defined]
    page.keyboard.press("Enter")  # type: ignore[attr-defined]
    shown(rows[1])  # decided: the next open finding is shown
    page.wait_for_selector(f"#progress:has-text('1 of {total} decided')")  # type: ignore[attr-defined]
    page.keyboard.press("d")  # type: ignore[attr-defined]
    page.keyboard.type("rounding")  # type: ignore[attr-defined]
    page.keyboard.press("Enter")  # type: ignore[attr-defined]
    shown(rows[2])
    page.wait_for_selector(f"#progress:has-text('2 of {total} decided')")  # type: ignore[attr-defined]
    page.keyboard.press("u")  # type: ignore[attr-defined]  # the dismissal is reversed: its finding is open again
    shown(rows[1])
    page.wait_for_selector("#flash:has-text('undone')")  # type: ignore[attr-defined]
    page.wait_for_selector(f"#progress:has-text('1 of {total} decided')")  # type: ignore[attr-defined]
    entries = read_reviews(reviews_path(server.ws, SID))  # the chain verified: nothing deleted, a reversal appended
    assert [(e.target, e.decision, e.reviewer) for e in entries] == [
        (rows[0]["id"], "accept", "ann"),
        (rows[1]["id"], "dismiss", "ann"),
        (rows[1]["id"], "reopen", "ann"),
    ]
    assert rows[1]["id"] in {f["id"] for f in findings(server, status="open")}


def test_the_page_without_its_token_says_where_to_find_it(server: Server) -> None:
    if BROWSER is None:
        pytest.skip("no Chromium installed (Debian package 'chromium')")
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright's Python package is not installed")
    with sync_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=BROWSER, args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.goto(f"{server.base}/")
            page.wait_for_selector("text=it ends in ?token=")
            page.goto(f"{server.base}/?token={server.token}")
            page.wait_for_selector("table.queue tbody tr.current")
            assert "token" not in page.url  # kept in the tab's session storage, out of the address bar
            page.reload()
            page.wait_for_selector("table.queue tbody tr.current")
        finally:
            browser.close()


def test_a_record_view_says_how_its_value_was_reproduced(built: Path, tmp_path: Path) -> None:
    root = tmp_path / "ws"
    shutil.copytree(built, root)
    ws = Workspace(root)
    reproduced, other = read_source_records(ws, SID).rows[:2]
    entry = {
        "id": "rep-1",
        "record_id": reproduced["id"],
        "verdict": "reproduced",
        "printed_text": reproduced["printed"],
        "reproduced": 0.9124,
        "interval": [0.9, 0.93],
        "distance_widths": 0.0,
    }
    store_reproductions(reproductions_path(ws, SID), [entry])
    audited = CliRunner().invoke(main, ["--root", str(root), "audit", SID])
    assert audited.exit_code in (0, 1), audited.output  # reproductions.jsonl is an audit input: re-audited
    for server in start(root):
        assert server.get("/api/record", source=SID, id=reproduced["id"]).json()["reproduction"] == (
            "reproduced: 0.912 [0.900, 0.930]"
        )
        assert server.get("/api/record", source=SID, id=other["id"]).json()["reproduction"] is None


def test_a_finding_on_the_second_page_of_a_continued_table_is_marked_in_its_grid() -> None:
    """A continued table's cells carry the page they are printed on: a finding pointing at a cell of its second
    page marks that cell, and one pointing at another table printed under the same label does not."""
    table = Table.from_grid([["Model", "MCC"], ["A", "0.61"], ["B", "0.52"]], label="Table 2", page=4)
    table.continued_pages = [5]
    finding = {"locators": ["0123456789ab:p5:Table2:r2:c1", "0123456789ab:p9:Table2:r1:c1"]}
    assert flagged_cells(table, finding) == [(2, 1)]
