"""The polite client against a real local HTTP server: pacing, retries, timeouts, truncation, size limits."""

from __future__ import annotations

import hashlib
import itertools
import socket
import time
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path

import pytest
from arxiv_server import FakeArxiv, make_pdf, reply, streamed
from pytest_httpserver import HTTPServer

from pipeline.errors import FetchError
from pipeline.fetch.http import (
    HostPacer,
    HttpStatusError,
    PoliteClient,
    StagedFile,
    TooLargeError,
    TruncatedError,
    retry_after_seconds,
)
from pipeline.settings import Settings

PDF = make_pdf(pages=3)


@pytest.fixture
def arxiv(httpserver: HTTPServer) -> Iterator[FakeArxiv]:
    fake = FakeArxiv(httpserver)
    yield fake
    fake.gate.set()  # let a stalled handler finish so the server is idle for the next test


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path / "downloads"


def download(settings: Settings, url: str, folder: Path) -> StagedFile:
    client = PoliteClient(settings)
    try:
        return client.download(url, folder)
    finally:
        client.close()


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def test_download_streams_to_a_hashed_temp_file(arxiv: FakeArxiv, settings: Settings, folder: Path) -> None:
    arxiv.pdf("x", reply(PDF))
    staged = download(settings, arxiv.server.url_for("/pdf/x"), folder)
    assert staged.path.parent == folder
    assert staged.path.read_bytes() == PDF
    assert (staged.sha256, staged.size) == (hashlib.sha256(PDF).hexdigest(), len(PDF))


def test_429_then_success_honours_retry_after(arxiv: FakeArxiv, settings: Settings, folder: Path) -> None:
    arxiv.pdf("x", reply(b"slow down", status=429, content_type="text/plain", **{"Retry-After": "1"}), once=True)
    arxiv.pdf("x", reply(PDF))
    staged = download(settings, arxiv.server.url_for("/pdf/x"), folder)
    assert staged.path.read_bytes() == PDF
    first, second = arxiv.arrivals
    assert second.at - first.at >= 0.95  # waited as asked, not the 0.01 s backoff


def test_503_until_retries_run_out(arxiv: FakeArxiv, settings: Settings, folder: Path) -> None:
    arxiv.pdf("x", reply(b"busy", status=503, content_type="text/plain"))
    with pytest.raises(HttpStatusError, match=r"HTTP 503 SERVICE UNAVAILABLE \(attempt 3 of 3\)") as info:
        download(settings, arxiv.server.url_for("/pdf/x"), folder)
    assert info.value.status == 503
    assert arxiv.count("/pdf/x") == settings.retries + 1
    assert leftovers(folder) == []


def test_404_is_not_retried(arxiv: FakeArxiv, settings: Settings, folder: Path) -> None:
    arxiv.pdf("x", reply(b"not found", status=404, content_type="text/html"))
    with pytest.raises(HttpStatusError, match=r"/pdf/x: HTTP 404 NOT FOUND$") as info:
        download(settings, arxiv.server.url_for("/pdf/x"), folder)
    assert info.value.exit_code == 1
    assert arxiv.count("/pdf/x") == 1


def test_slow_response_times_out(arxiv: FakeArxiv, settings: Settings, folder: Path) -> None:
    arxiv.pdf("x", arxiv.stalled(reply(PDF)))
    started = time.monotonic()
    with pytest.raises(FetchError, match=r"timed out \(no answer within 0.3 s\)"):
        download(replace(settings, timeout=0.3, retries=0), arxiv.server.url_for("/pdf/x"), folder)
    assert time.monotonic() - started < 3  # the stalled server would hold it 10 s
    assert leftovers(folder) == []


def test_truncated_body_is_retried_then_refused(arxiv: FakeArxiv, settings: Settings, folder: Path) -> None:
    arxiv.pdf("x", streamed([PDF[:1000]], content_length=len(PDF)))
    with pytest.raises(TruncatedError, match="/pdf/x"):
        download(settings, arxiv.server.url_for("/pdf/x"), folder)
    assert arxiv.count("/pdf/x") == settings.retries + 1
    assert leftovers(folder) == []


def test_truncated_once_then_complete(arxiv: FakeArxiv, settings: Settings, folder: Path) -> None:
    arxiv.pdf("x", streamed([PDF[:1000]], content_length=len(PDF)), once=True)
    arxiv.pdf("x", reply(PDF))
    assert download(settings, arxiv.server.url_for("/pdf/x"), folder).path.read_bytes() == PDF
    assert len(leftovers(folder)) == 1


def test_content_length_over_the_limit_stops_at_once(arxiv: FakeArxiv, settings: Settings, folder: Path) -> None:
    arxiv.pdf("x", reply(PDF))
    small = replace(settings, max_pdf_bytes=1000)
    with pytest.raises(TooLargeError, match=f"announces {len(PDF)} bytes, over the limit of 1000"):
        download(small, arxiv.server.url_for("/pdf/x"), folder)
    assert arxiv.count("/pdf/x") == 1  # not retried
    assert leftovers(folder) == []


def test_streamed_body_over_the_limit_stops(arxiv: FakeArxiv, settings: Settings, folder: Path) -> None:
    def endless() -> Iterator[bytes]:
        for _ in range(10_000):
            yield b"x" * 1024

    arxiv.pdf("x", streamed(endless))
    small = replace(settings, max_pdf_bytes=4096)
    with pytest.raises(TooLargeError, match="body exceeds the limit of 4096 bytes"):
        download(small, arxiv.server.url_for("/pdf/x"), folder)
    assert leftovers(folder) == []


def test_requests_to_one_host_are_spaced_and_named(arxiv: FakeArxiv, settings: Settings) -> None:
    arxiv.on("/api/query", reply(b"ok", content_type="text/plain"))
    client = PoliteClient(replace(settings, min_request_interval=0.3))
    try:
        for _ in range(3):
            assert client.get_text(arxiv.server.url_for("/api/query")) == "ok"
    finally:
        client.close()
    times = [a.at for a in arxiv.arrivals]
    gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
    assert len(gaps) == 2
    assert min(gaps) >= 0.25, gaps  # 0.3 s between sends; arrival times jitter by a few ms
    assert {a.user_agent for a in arxiv.arrivals} == {settings.user_agent}
    assert settings.user_agent.startswith("litaudit/")


def test_pacer_spaces_one_host_and_holds_up_no_other() -> None:
    pacer = HostPacer()
    started = time.monotonic()
    pacer.wait("a.test", 0.3)
    pacer.wait("b.test", 0.3)
    assert time.monotonic() - started < 0.1
    pacer.wait("a.test", 0.3)
    assert time.monotonic() - started >= 0.29


def test_connection_refused_is_retried_then_reported(settings: Settings, folder: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(FetchError, match="connection failed"):
        download(settings, f"http://127.0.0.1:{port}/pdf/x", folder)
    assert leftovers(folder) == []


def test_retry_after_in_seconds_or_as_an_http_date() -> None:
    now = datetime(2024, 6, 1, 12, 0, 0, tzinfo=timezone.utc)
    assert retry_after_seconds("7", now) == 7.0
    assert retry_after_seconds("Sat, 01 Jun 2024 12:00:30 GMT", now) == 30.0
    assert retry_after_seconds("Sat, 01 Jun 2024 11:00:00 GMT", now) == 0.0
    assert retry_after_seconds("soon", now) is None
    assert retry_after_seconds(None, now) is None
