"""The extract stage: sources/<sid>/source.pdf -> extracted/<sid>/tables.json."""

from __future__ import annotations

from pipeline.errors import ExtractionError, LitauditError, StageInputMissingError
from pipeline.extract.document import extract_tables
from pipeline.extract.settings import ExtractionSettings
from pipeline.settings import Settings
from pipeline.stage_settings import load_settings
from pipeline.stages import StageReport
from pipeline.store import Workspace, read_json, write_json


def run(ws: Workspace, source_id: str, settings: Settings) -> StageReport:
    pdf = ws.pdf_path(source_id)
    record_path = ws.source_record_path(source_id)
    if not pdf.is_file():
        raise StageInputMissingError(f"{pdf}: not found (run 'litaudit fetch {source_id}' first)")
    record = read_json(record_path) if record_path.is_file() else {}
    source = {
        "id": source_id,
        "sha256": record.get("sha256") or "",
        "path": str(pdf.relative_to(ws.root)),
        "title": record.get("title"),
    }
    knobs = load_settings(ExtractionSettings, ws.config_dir, settings.overrides)
    try:
        result = extract_tables(pdf, knobs, source)
    except LitauditError:
        raise
    except Exception as exc:  # a PDF that breaks the parser: one line naming it, nothing written
        raise ExtractionError(f"{pdf}: cannot extract tables ({type(exc).__name__}: {exc})") from None
    write_json(ws.extracted_dir(source_id) / "tables.json", result.to_dict())
    labelled = sum(1 for t in result.tables if t.label)
    cells = sum(len(t.cells) for t in result.tables)
    return StageReport(
        problems=0, summary={"tables": len(result.tables), "labelled": labelled, "cells": cells, "pages": result.pages}
    )
