"""Stage functions for runner tests: real file I/O, no extraction."""

from __future__ import annotations

import os
from pathlib import Path

from pipeline.errors import ExtractionError
from pipeline.model import Source
from pipeline.settings import Settings
from pipeline.stage_settings import recorded_settings
from pipeline.stages import PIPELINE, StageReport
from pipeline.state import file_hashes, record_done
from pipeline.store import Workspace, sha256_file, write_json, write_text


def copy_stage(ws: Workspace, source_id: str, settings: Settings) -> StageReport:
    text = ws.pdf_path(source_id).read_text()
    if "unparseable" in text:
        raise ExtractionError(f"{ws.pdf_path(source_id)}: cannot be parsed")
    if "crash" in text:
        raise ZeroDivisionError("division by zero")
    write_text(ws.extracted_dir(source_id) / "copy.txt", text.upper())
    return StageReport(problems=text.count("problem"), summary={"chars": len(text)})


def mark_written(ws: Workspace, source_id: str, *stage_names: str) -> None:
    """Record files a test wrote by hand as the named stages' own work, as if those stages had written them."""
    for name in stage_names:
        stage = next(s for s in PIPELINE if s.name == name)
        settings = recorded_settings(ws.config_dir, name)
        record_done(ws, stage, source_id, file_hashes(ws, source_id, stage.inputs), settings=settings)


def die_once_stage(ws: Workspace, source_id: str, settings: Settings) -> StageReport:
    """Kills its own process the first time (a lost worker), then works: the marker lives outside the workspace."""
    marker = Path(os.environ["LITAUDIT_TEST_MARKER"])
    if not marker.exists():
        marker.write_text("died once")
        write_text(ws.extracted_dir(source_id) / "copy.txt", "half")  # a worker's partial file never lands
        os._exit(1)
    return copy_stage(ws, source_id, settings)


def add_source_file(ws: Workspace, source_id: str, content: str) -> None:
    """A source whose "PDF" is text, with a record that matches it (stage doubles read it as text)."""
    pdf = ws.pdf_path(source_id)
    write_text(pdf, content)
    record = Source(
        id=source_id, sha256=sha256_file(pdf), size=len(content), pdf_path="x", retrieved_at="2026-01-01T00:00:00Z"
    )
    write_json(ws.source_record_path(source_id), record.to_dict())
