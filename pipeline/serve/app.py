"""The workbench's web app: HTML and JS for the reviewer, a JSON API for the page and for scripts.

Reading is open to the loopback client; every mutating request needs the run's token in ``X-Litaudit-Token``
and, when the browser sends an ``Origin``, the server's own origin. Requests name sources and findings by id;
ids are looked up among what the workspace holds, never joined into paths.
"""

from __future__ import annotations

import hmac
from importlib.resources import files
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from pipeline.audit.render import CellMark
from pipeline.audit.report_data import reproduction_text
from pipeline.audit.settings import AuditSettings
from pipeline.errors import BadInputError, LitauditError
from pipeline.reviews import FINDING, RECORD, ReviewChainError, record_decision
from pipeline.serve.crops import CROPS_FOLDER, cached_crop
from pipeline.serve.workspace_view import (
    SourceView,
    UnknownSourceError,
    all_sources,
    filter_findings,
    finding_summary,
    flagged_cells,
    grid_of,
    read_source,
    table_of,
)
from pipeline.stage_settings import load_settings
from pipeline.store import Workspace, read_source_record

TOKEN_HEADER = "X-Litaudit-Token"
STATIC = {"app.js": "text/javascript", "app.css": "text/css", "index.html": "text/html"}
LOOPBACK_NAMES = ["127.0.0.1", "localhost", "::1", "[::1]"]


class ForbiddenError(LitauditError):
    """A mutating request without the run's token, or from another origin."""


def _static(name: str) -> Response:
    text = files("pipeline.serve").joinpath("static", name).read_text(encoding="utf-8")
    return Response(text, media_type=STATIC[name], headers={"Cache-Control": "no-store"})


def _error(exc: Exception) -> JSONResponse:
    status = 400
    if isinstance(exc, ForbiddenError):
        status = 403
    elif isinstance(exc, UnknownSourceError | KeyError):
        status = 404
    elif isinstance(exc, ReviewChainError):
        status = 409
    message = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
    return JSONResponse({"ok": False, "error": message}, status_code=status)


def check_mutation(request: Request, token: str) -> None:
    """403 unless the token matches and any Origin sent is this server's own."""
    given = request.headers.get(TOKEN_HEADER, "")
    if not hmac.compare_digest(given.encode(), token.encode()):
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
        return [read_source(self.ws, source)] if source else all_sources(self.ws)

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
        view = read_source(self.ws, source_id)
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
            view = read_source(self.ws, source_id)
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
            view = read_source(self.ws, source_id)
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
            try:
                body = await request.json()
            except ValueError:
                raise BadInputError("the body must be a JSON object") from None
            return JSONResponse(await run_in_threadpool(self._decide, body))
        except LitauditError as exc:
            return _error(exc)

    def _decide(self, body: Any) -> dict[str, Any]:
        """Append one decision through the same writer as ``litaudit review``; the target says its kind."""
        if not isinstance(body, dict):
            raise BadInputError("the body must be a JSON object")
        source_id, target = str(body.get("source") or ""), str(body.get("target") or "")
        view = read_source(self.ws, source_id)
        finding_ids = {f["id"] for f in view.findings}
        kind = FINDING if target in finding_ids else RECORD
        known = finding_ids if kind == FINDING else {r["id"] for r in view.records}
        value = body.get("value")
        if isinstance(value, str) and value.strip():
            try:
                value = float(value)
            except ValueError:
                raise BadInputError(f"value {value!r}: not a number") from None
        entry, added = record_decision(
            self.ws,
            source_id,
            target,
            str(body.get("decision") or ""),
            known=known,
            kind=kind,
            reviewer=str(body.get("reviewer") or ""),
            note=str(body.get("reason") or ""),
            value=value if body.get("decision") == "correct" else None,
        )
        return {"ok": True, "recorded": added, "kind": kind, "status": entry.status, "entry": entry.to_dict()}


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
    ]
    hosts = sorted({host, *LOOPBACK_NAMES}) if host not in ("0.0.0.0", "::") else ["*"]
    return Starlette(routes=routes, middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=hosts)])
