"""The extract stage: a source's artifacts -> extracted/<sid>/tables.json.

The PDF, when there is one, is the first reading (its cells have pages to crop); the authors' source (LaTeX,
HTML, Markdown; pipeline/readers) is then the second reading of every cell it shares. A source without a
PDF is read from its source alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pipeline.errors import ExtractionError, LitauditError, StageInputMissingError
from pipeline.extract.document.tables import extract_tables, extractor_info
from pipeline.extract.settings import ExtractionSettings
from pipeline.model import TablesFile
from pipeline.readers import read_artifact, reading_order, stored_files
from pipeline.readers.agreement import compare_readings
from pipeline.settings import Settings
from pipeline.stage_settings import load_settings
from pipeline.stages import StageReport
from pipeline.store import Workspace, read_json, write_json


def _pdf_tables(pdf: Path, knobs: ExtractionSettings, source: dict[str, Any]) -> TablesFile:
    try:
        return extract_tables(pdf, knobs, source)
    except LitauditError:
        raise
    except Exception as exc:  # a PDF that breaks the parser: one line naming it, nothing written
        raise ExtractionError(f"{pdf}: cannot extract tables ({type(exc).__name__}: {exc})") from None


def run(ws: Workspace, source_id: str, settings: Settings) -> StageReport:
    files = dict(stored_files(ws, source_id))
    if not files:
        raise StageInputMissingError(f"{ws.pdf_path(source_id)}: not found (run 'litaudit fetch {source_id}' first)")
    record_path = ws.source_record_path(source_id)
    record = read_json(record_path) if record_path.is_file() else {}
    first = next(iter(files.values()))
    source = {
        "id": source_id,
        "sha256": record.get("sha256") or "",
        "path": str(first.relative_to(ws.root)),
        "title": record.get("title"),
    }
    texts = reading_order(list(files))
    knobs = load_settings(ExtractionSettings, ws.config_dir, settings.overrides)
    summary: dict[str, Any] = {}
    if "pdf" in files:
        result = _pdf_tables(files["pdf"], knobs, source)
        if texts:
            tables, _ = read_artifact(texts[0], files[texts[0]], str(result.source["sha256"]), knobs.max_text_bytes)
            result.extractor["second_reading"] = str(files[texts[0]].relative_to(ws.root))
            compare_readings(result.tables, tables)
            cells = [c for t in result.tables for c in t.cells if c.second_reading]
            summary["read_twice"] = len(cells)
            summary["disagree"] = sum(1 for c in cells if c.second_reading and not c.second_reading.agrees)
    else:
        tables, _ = read_artifact(texts[0], files[texts[0]], source["sha256"], knobs.max_text_bytes)
        info = {**extractor_info(knobs), "reader": texts[0]}
        result = TablesFile(source=source, extractor=info, tables=tables, pages=None)
    write_json(ws.extracted_dir(source_id) / "tables.json", result.to_dict())
    labelled = sum(1 for t in result.tables if t.label)
    cells = sum(len(t.cells) for t in result.tables)
    return StageReport(
        problems=0,
        summary={"tables": len(result.tables), "labelled": labelled, "cells": cells, "pages": result.pages, **summary},
    )
