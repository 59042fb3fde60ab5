"""Stage functions for runner tests: real file I/O, no extraction."""

from __future__ import annotations

from pipeline.errors import ExtractionError
from pipeline.settings import Settings
from pipeline.stages import StageReport
from pipeline.store import Workspace, write_text


def copy_stage(ws: Workspace, source_id: str, settings: Settings) -> StageReport:
    text = ws.pdf_path(source_id).read_text()
    if "unparseable" in text:
        raise ExtractionError(f"{ws.pdf_path(source_id)}: cannot be parsed")
    if "crash" in text:
        raise ZeroDivisionError("division by zero")
    write_text(ws.extracted_dir(source_id) / "copy.txt", text.upper())
    return StageReport(problems=text.count("problem"), summary={"chars": len(text)})
