"""Stage functions for runner tests: real file I/O, no extraction."""

from __future__ import annotations

from pipeline.errors import ExtractionError
from pipeline.settings import Settings
from pipeline.stages import PIPELINE, StageReport
from pipeline.state import file_hashes, record_done
from pipeline.store import Workspace, write_text


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
        record_done(ws, stage, source_id, file_hashes(ws, source_id, stage.inputs))
