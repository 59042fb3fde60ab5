"""Finding a source's records in the workspace: the audited ones, else the emitted ones."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.errors import BadInputError
from pipeline.store import Workspace, read_record_rows, safe_id

AUDITED, EXTRACTED = "audits", "extracted"


class NoRecordsError(BadInputError):
    """A source has no records file yet (neither audited nor emitted)."""


@dataclass(frozen=True)
class RecordsFile:
    """A source's records as stored, and which stage wrote them."""

    source_id: str
    path: Path
    origin: str  # AUDITED | EXTRACTED
    rows: list[dict[str, Any]]

    @property
    def relpath(self) -> str:
        return f"{self.origin}/{safe_id(self.source_id)}/records.jsonl"

    def ids(self) -> set[str]:
        return {row["id"] for row in self.rows}


def records_path(ws: Workspace, source_id: str) -> tuple[Path, str] | None:
    """audits/<sid>/records.jsonl (findings attached) when the source was audited, else the emitted file."""
    for origin, folder in ((AUDITED, ws.audits_dir(source_id)), (EXTRACTED, ws.extracted_dir(source_id))):
        path = folder / "records.jsonl"
        if path.is_file():
            return path, origin
    return None


def read_source_records(ws: Workspace, source_id: str) -> RecordsFile:
    """The source's records, each checked to load as a :class:`Record` (bad rows name file and line)."""
    found = records_path(ws, source_id)
    if found is None:
        raise NoRecordsError(
            f"source {source_id!r}: no records (neither audits/ nor extracted/{safe_id(source_id)}/records.jsonl); "
            f"run 'litaudit emit {source_id}' first"
        )
    path, origin = found
    return RecordsFile(source_id, path, origin, read_record_rows(path))
