"""A stand-in for arXiv on pytest-httpserver: the API's Atom feed, PDFs, and the ways they go wrong."""

from __future__ import annotations

import dataclasses
import io
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from pytest_httpserver import HTTPServer
from reportlab.pdfgen import canvas
from werkzeug import Request, Response

from pipeline.settings import Settings

Handler = Callable[[Request], Response]


def make_pdf(
    text: str = "Table 1: results",
    pages: int = 2,
    title: str | None = None,
    author: str | None = None,
    **canvas_args: object,
) -> bytes:
    """A small real PDF, byte-stable for the same arguments (invariant=1), unless encrypted.

    Without title or author reportlab writes the placeholders "untitled" and "anonymous".
    """
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, invariant=1, **canvas_args)
    if title:
        pdf.setTitle(title)
    if author:
        pdf.setAuthor(author)
    for page in range(1, pages + 1):
        pdf.drawString(72, 720, f"{text} (page {page})")
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


FEED_HEAD = """<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/"
      xmlns:arxiv="http://arxiv.org/schemas/atom">
  <id>https://arxiv.org/api/Vt1f3CPBnB0Bkx3bPs2tqtsGZ6k</id>
  <title>arXiv Query: search_query=&amp;id_list={query}&amp;start=0&amp;max_results=1</title>
  <updated>2024-07-01T00:00:00Z</updated>
  <link href="https://arxiv.org/api/query?search_query=&amp;start=0&amp;max_results=1&amp;id_list={query}"
        type="application/atom+xml"/>
  <opensearch:itemsPerPage>1</opensearch:itemsPerPage>
  <opensearch:totalResults>{total}</opensearch:totalResults>
  <opensearch:startIndex>0</opensearch:startIndex>
"""


def atom_feed(arxiv_id: str, version: str = "v2", title: str = "A Benchmark of Genomic\n    Foundation Models") -> str:
    """The arXiv API's answer for one paper, in its real format (title hard-wrapped as arXiv does)."""
    return (
        FEED_HEAD.format(query=arxiv_id, total=1)
        + f"""  <entry>
    <id>http://arxiv.org/abs/{arxiv_id}{version}</id>
    <title>{title}</title>
    <updated>2024-06-20T09:15:02Z</updated>
    <link href="https://arxiv.org/abs/{arxiv_id}{version}" rel="alternate" type="text/html"/>
    <link href="https://arxiv.org/pdf/{arxiv_id}{version}" rel="related" type="application/pdf" title="pdf"/>
    <summary>We compare DNA language models on many tasks.</summary>
    <category term="cs.LG" scheme="http://arxiv.org/schemas/atom"/>
    <category term="q-bio.GN" scheme="http://arxiv.org/schemas/atom"/>
    <published>2024-06-03T17:52:29Z</published>
    <arxiv:comment>12 pages, 4 tables</arxiv:comment>
    <arxiv:primary_category term="q-bio.GN"/>
    <author>
      <name>Ada Example</name>
    </author>
    <author>
      <name>Grace Sample</name>
      <arxiv:affiliation>Institute of Tests</arxiv:affiliation>
    </author>
  </entry>
</feed>
"""
    )


def empty_feed(query: str) -> str:
    return FEED_HEAD.format(query=query, total=0) + "</feed>\n"


def error_feed(query: str) -> str:
    """What the API answers (with HTTP 200) for an id it cannot parse."""
    return (
        FEED_HEAD.format(query=query, total=1)
        + f"""  <entry>
    <id>http://arxiv.org/api/errors#incorrect_id_format_for_{query}</id>
    <title>Error</title>
    <summary>incorrect id format for {query}</summary>
    <updated>2024-07-01T00:00:00-04:00</updated>
    <link href="http://arxiv.org/api/errors#incorrect_id_format_for_{query}" rel="alternate" type="text/html"/>
    <author>
      <name>arXiv api core</name>
    </author>
  </entry>
</feed>
"""
    )


@dataclass
class Arrival:
    path: str
    at: float
    user_agent: str


@dataclass
class FakeArxiv:
    """Both arXiv base URLs pointed at one local server; every request's arrival is recorded."""

    server: HTTPServer
    arrivals: list[Arrival] = field(default_factory=list)
    gate: threading.Event = field(default_factory=threading.Event)

    @property
    def env(self) -> dict[str, str]:
        return {
            "LITAUDIT_ARXIV_PDF_BASE": self.server.url_for("/pdf/"),
            "LITAUDIT_ARXIV_API_BASE": self.server.url_for("/api/query"),
            "LITAUDIT_ARXIV_EPRINT_BASE": self.server.url_for("/e-print/"),
        }

    def settings(self, base: Settings, **changes: object) -> Settings:
        return dataclasses.replace(
            base,
            arxiv_pdf_base=self.env["LITAUDIT_ARXIV_PDF_BASE"],
            arxiv_api_base=self.env["LITAUDIT_ARXIV_API_BASE"],
            arxiv_eprint_base=self.env["LITAUDIT_ARXIV_EPRINT_BASE"],
            **changes,
        )

    def recorded(self, handler: Handler) -> Handler:
        def wrapper(request: Request) -> Response:
            self.arrivals.append(Arrival(request.path, time.monotonic(), request.headers.get("User-Agent", "")))
            return handler(request)

        return wrapper

    def on(self, path: str, handler: Handler, query: dict[str, str] | None = None, once: bool = False) -> None:
        expect = self.server.expect_oneshot_request if once else self.server.expect_request
        expect(path, query_string=query).respond_with_handler(self.recorded(handler))

    def api(self, arxiv_id: str, feed: str, version: str = "") -> None:
        """The API's answer for ``id_list=<arxiv_id><version>``."""
        query = {"id_list": f"{arxiv_id}{version}", "max_results": "1"}
        self.on("/api/query", reply(feed.encode(), content_type="application/atom+xml; charset=utf-8"), query)

    def pdf(self, path_id: str, handler: Handler, once: bool = False) -> None:
        self.on(f"/pdf/{path_id}", handler, once=once)

    def paper(self, arxiv_id: str, pdf: bytes, version: str = "v2", eprint: Handler | None = None) -> None:
        """A paper whose latest version is ``version``, its feed, its PDF and its e-print (none by default:
        arXiv answers 404 for a version without source)."""
        self.api(arxiv_id, atom_feed(arxiv_id, version))
        self.pdf(f"{arxiv_id}{version}", reply(pdf))
        self.on(f"/e-print/{arxiv_id}{version}", eprint or reply(b"no source", status=404, content_type="text/plain"))

    def stalled(self, then: Handler) -> Handler:
        """Answers only when ``gate`` opens (at the end of the test): a server too slow for any timeout.

        The server handles one request at a time, so the gate must open before the next test's requests.
        """

        def handler(request: Request) -> Response:
            self.gate.wait(10)
            return then(request)

        return handler

    def count(self, prefix: str) -> int:
        return sum(1 for a in self.arrivals if a.path.startswith(prefix))


def reply(body: bytes, status: int = 200, content_type: str = "application/pdf", **headers: str) -> Handler:
    def handler(request: Request) -> Response:
        return Response(body, status=status, content_type=content_type, headers=headers)

    return handler


def streamed(parts: Iterable[bytes] | Callable[[], Iterable[bytes]], content_length: int | None = None) -> Handler:
    """A body sent piece by piece (no Content-Length unless given: a larger one makes it a truncated body)."""

    def handler(request: Request) -> Response:
        body = parts() if callable(parts) else parts
        response = Response(body, content_type="application/pdf", direct_passthrough=True)
        if content_length is not None:
            response.headers["Content-Length"] = str(content_length)
        return response

    return handler
