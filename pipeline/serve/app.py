"""The workbench's web app: HTML and JS for the reviewer, a JSON API for the page and for scripts.

Every ``/api/`` request needs the run's token in ``X-Litaudit-Token`` (the page holds it from its URL; other
processes on the machine do not), and a change also needs, when the browser sends an ``Origin``, the server's
own. A change's body is read up to :data:`MAX_BODY_BYTES` and checked field by field before anything is
written. Requests name sources and findings by id; ids are looked up among what the workspace holds, never
joined into paths.
"""

from __future__ import annotations

import hmac
import threading
from importlib.resources import files
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from pipeline.audit.render import CellMark
from pipeline.audit.report_data import reproduction_text
from pipeline.audit.settings import AuditSettings
from pipeline.errors import LitauditError
from pipeline.reviews import (
    FINDING,
    RECORD,
    ReviewChainError,
    ReviewLog,
    UndoRefusedError,
    record_decision,
    reviews_path,
)
from pipeline.serve.bodies import BodyTooLargeError, fields_of, read_json, text_field, value_field
from pipeline.serve.crops import CROPS_FOLDER, cached_crop
from pipeline.serve.workspace_view import (
    SourceView,
    StoredRows,
    UnknownSourceError,
    filter_findings,
    finding_summary,
    flagged_cells,
    grid_of,
    known_source,
    read_source,
    table_of,
)
from pipeline.stage_settings import load_settings
from pipeline.store import Workspace, read_source_record

TOKEN_HEADER = "X-Litaudit-Token"
STATIC = {"app.js": "text/javascript", "app.css": "text/css", "index.html": "text/html"}
LOOPBACK_NAMES = ["127.0.0.1", "localhost", "::1", "[::1]"]
DECISION_FIELDS = ("source", "target", "decision", "reason", "value", "reviewer")
UNDO_FIELDS = ("source", "entry", "reviewer")


class ForbiddenError(LitauditError):
    """A request without the run's token, or a change from another origin."""


def _static(name: str) -> Response:
    text = files("pipeline.serve").joinpath("static", name).read_text(encoding="utf-8")
    return Response(text, media_type=STATIC[name], headers={"Cache-Control": "no-store"})


def _error(exc: Exception) -> JSONResponse:
    status = 400
    if isinstance(exc, ForbiddenError):
        status = 403
    elif isinstance(exc, BodyTooLargeError):
        status = 413
    elif isinstance(exc, UnknownSourceError | KeyError):
        status = 404
    elif isinstance(exc, ReviewChainError | UndoRefusedError):
        status = 409
    message = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
    return JSONResponse({"ok": False, "error": message}, status_code=status)


def has_token(headers: Headers, token: str) -> bool:
    return hmac.compare_digest(headers.get(TOKEN_HEADER, "").encode(), token.encode())


class TokenGate:
    """403 for any ``/api/`` request without the run's token: findings, records, names and notes are read by the
    page that was given the token, not by any process that can reach the port."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.token = token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        api = scope["type"] == "http" and scope["path"].startswith("/api/")
        if api and not has_token(Headers(scope=scope), self.token):
            message = f"the API needs the run's token in the {TOKEN_HEADER} header (printed by litaudit serve)"
            await JSONResponse({"ok": False, "error": message}, status_code=403)(scope, receive, send)
            return
        await self.app(scope, receive, send)


def check_mutation(request: Request, token: str) -> None:
    """403 unless the token matches and any Origin sent is this server's own."""
    if not has_token(request.headers, token):
        raise ForbiddenError(f"a change needs the run's token in the {TOKEN_HEADER} header")
    origin = request.headers.get("origin")
    own = f"{request.url.scheme}://{request.headers.get('host', '')}"
    if origin is not None and origin != own:
        raise ForbiddenError(f"cross-origin change refused (Origin {origin!r}, this server is {own!r})")


class Workbench:
    """The request handlers over one workspace and one run's token."""

    def __init__(self, ws: Workspace, token: str) -> None:
        self.ws = ws
        self.token = token
        self.rows = StoredRows(ws)
        self._logs: dict[str, ReviewLog] = {}
        self._logs_guard = threading.Lock()

    def log_of(self, source_id: str) -> ReviewLog:
        """The source's review log, kept verified between requests (each reads only what was appended since)."""
        source_id = known_source(self.ws, source_id)
        with self._logs_guard:
            return self._logs.setdefault(source_id, ReviewLog(reviews_path(self.ws, source_id)))

    def view_of(self, source_id: str) -> SourceView:
        return read_source(self.rows, source_id, self.log_of(source_id))

    def index(self, request: Request) -> Response:
        return _static("index.html")

    def static(self, request: Request) -> Response:
        name = request.path_params["name"]
        return _static(name) if name in STATIC else JSONResponse({"error": "not found"}, status_code=404)

    def sources(self, request: Request) -> JSONResponse:
        return JSONResponse({"sources": self.ws.scan_sources().ids})

    def _views(self, request: Request) -> list[SourceView]:
        """The source the request names (?source=ID), or every source."""
        source = request.query_params.get("source")
        return [self.view_of(sid) for sid in ([source] if source else self.ws.scan_sources().ids)]

    def findings(self, request: Request) -> JSONResponse:
        try:
            views = self._views(request)
        except LitauditError as exc:
            return _error(exc)
        rows = filter_findings([f for v in views for f in v.findings], dict(request.query_params))
        return JSONResponse({"findings": [finding_summary(f) for f in rows]})

    def records(self, request: Request) -> JSONResponse:
        try:
            views = self._views(request)
        except LitauditError as exc:
            return _error(exc)
        status = request.query_params.get("status")
        rows = [{"source": v.source_id, **r} for v in views for r in v.records if not status or r["status"] == status]
        return JSONResponse({"records": rows})

    def finding(self, request: Request) -> JSONResponse:
        try:
            return JSONResponse(self._finding_detail(request.query_params["source"], request.query_params["id"]))
        except (LitauditError, KeyError) as exc:
            return _error(exc)

    def _finding_detail(self, source_id: str, finding_id: str) -> dict[str, Any]:
        view = self.view_of(source_id)
        finding = next((f for f in view.findings if f["id"] == finding_id), None)
        if finding is None:
            raise KeyError(f"finding {finding_id!r}: not among the findings of {source_id}")
        table = table_of(self.ws, source_id, finding)
        touched = set(finding.get("record_ids") or [])
        return {
            "finding": finding,
            "table": None
            if table is None
            else {
                "title": table.label or f"table {table.index + 1}",
                "caption": table.caption,
                "page": table.page,
                "confidence": table.confidence,
                "engine": table.engine,
                "notes": table.notes,
                "grid": grid_of(table, flagged_cells(table, finding)),
            },
            "records": [r for r in view.records if r["id"] in touched],
            "history": [e.to_dict() for e in view.reviews if e.target == finding_id or e.target in touched],
        }

    def record(self, request: Request) -> JSONResponse:
        try:
            source_id, record_id = request.query_params["source"], request.query_params["id"]
            view = self.view_of(source_id)
            record = next((r for r in view.records if r["id"] == record_id), None)
            if record is None:
                raise KeyError(f"record {record_id!r}: not among the records of {source_id}")
        except (LitauditError, KeyError) as exc:
            return _error(exc)
        findings = [finding_summary(f) for f in view.findings if f["id"] in (record.get("findings") or [])]
        history = [e.to_dict() for e in view.reviews if e.target == record_id]
        reproduction = reproduction_text(record["reproduction"]) if record.get("reproduction") else None
        return JSONResponse({"record": record, "reproduction": reproduction, "findings": findings, "history": history})

    def crop(self, request: Request) -> Response:
        try:
            source_id, finding_id = request.query_params["source"], request.query_params["id"]
            view = self.view_of(source_id)
            finding = next(f for f in view.findings if f["id"] == finding_id)
        except StopIteration:
            return JSONResponse({"error": "no such finding"}, status_code=404)
        except (LitauditError, KeyError) as exc:
            return _error(exc)
        table = table_of(self.ws, source_id, finding)
        if table is None:
            return JSONResponse({"error": "the finding is about the whole paper: no table to show"}, status_code=404)
        marks = [
            CellMark(cell.bbox, finding["severity"], "")
            for row, col in flagged_cells(table, finding)
            if (cell := table.cell_at(row, col)) is not None and cell.bbox is not None
        ]
        sha = str(read_source_record(self.ws.source_record_path(source_id)).get("sha256", ""))
        crops = self.ws.audits_dir(source_id) / CROPS_FOLDER
        settings = load_settings(AuditSettings, self.ws.config_dir)
        image = cached_crop(crops, self.ws.pdf_path(source_id), sha, table, marks, settings)
        if image is None:
            return JSONResponse({"error": "the table cannot be placed on its page"}, status_code=404)
        return Response(image, media_type="image/png", headers={"Cache-Control": "private, max-age=3600"})

    async def post_review(self, request: Request) -> JSONResponse:
        try:
            check_mutation(request, self.token)
            body = await read_json(request)
            return JSONResponse(await run_in_threadpool(self._decide, fields_of(body, DECISION_FIELDS)))
        except LitauditError as exc:
            return _error(exc)

    async def post_undo(self, request: Request) -> JSONResponse:
        try:
            check_mutation(request, self.token)
            body = await read_json(request)
            return JSONResponse(await run_in_threadpool(self._undo, fields_of(body, UNDO_FIELDS)))
        except LitauditError as exc:
            return _error(exc)

    def _decide(self, fields: dict[str, Any]) -> dict[str, Any]:
        """Append one decision through the same writer as ``litaudit review``; the target says its kind."""
        source_id, target = text_field(fields, "source"), text_field(fields, "target")
        decision = text_field(fields, "decision")
        findings, records = self.rows.of(source_id)
        finding_ids, record_ids = {f["id"] for f in findings}, {r["id"] for r in records}
        kind = FINDING if target in finding_ids else RECORD
        entry, added = record_decision(
            self.ws,
            source_id,
            target,
            decision,
            known=finding_ids if kind == FINDING else record_ids,
            kind=kind,
            reviewer=text_field(fields, "reviewer"),
            note=text_field(fields, "reason"),
            value=value_field(fields["value"], decision),
            log=self.log_of(source_id),
        )
        return {"ok": True, "recorded": added, "kind": kind, "status": entry.status, "entry": entry.to_dict()}

    def _undo(self, fields: dict[str, Any]) -> dict[str, Any]:
        """Append the reversal of one entry (never delete it): its target is back where it was before."""
        log = self.log_of(text_field(fields, "source"))
        entry, added = log.undo(text_field(fields, "entry"), text_field(fields, "reviewer"))
        return {"ok": True, "recorded": added, "kind": entry.kind, "status": entry.status, "entry": entry.to_dict()}


def make_app(ws: Workspace, token: str, host: str) -> Starlette:
    bench = Workbench(ws, token)
    routes = [
        Route("/", bench.index),
        Route("/static/{name}", bench.static),
        Route("/api/sources", bench.sources),
        Route("/api/findings", bench.findings),
        Route("/api/finding", bench.finding),
        Route("/api/crop", bench.crop),
        Route("/api/records", bench.records),
        Route("/api/record", bench.record),
        Route("/api/reviews", bench.post_review, methods=["POST"]),
        Route("/api/reviews/undo", bench.post_undo, methods=["POST"]),
    ]
    hosts = sorted({host, *LOOPBACK_NAMES}) if host not in ("0.0.0.0", "::") else ["*"]
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=hosts), Middleware(TokenGate, token=token)]
    return Starlette(routes=routes, middleware=middleware)
