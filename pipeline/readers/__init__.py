"""Readers of the authors' own sources into the model's tables: one module per format, one registry line each.

``READERS`` is ordered: a source with several text artifacts is read by the first reader that fits one of
them; a PDF, when the source has one, is always the first reading (its cells have pages to crop), and the
first text reading is then the second reading of every cell (pipeline/readers/agreement.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pipeline.errors import BadInputError, ExtractionError, LitauditError
from pipeline.model import Source, Table
from pipeline.progress import steps
from pipeline.readers.assemble import Reading, to_table
from pipeline.readers.html import read_html
from pipeline.readers.latex import read_latex
from pipeline.readers.limits import MAX_TEXT_BYTES
from pipeline.readers.markdown import read_markdown
from pipeline.store import Workspace, read_source_record


@dataclass(frozen=True)
class Reader:
    kind: str  # the artifact kind it reads (pipeline/fetch/kinds.py)
    engine: str  # the name its tables carry (Table.engine)
    read: Callable[[Path, str, int], Reading]  # (stored file, its name, most bytes of text) -> tables and prose


READERS: tuple[Reader, ...] = (
    Reader("latex", "litaudit-latex", read_latex),
    Reader("html", "litaudit-html", read_html),
    Reader("markdown", "litaudit-markdown", read_markdown),
)


def reader_for(kind: str) -> Reader | None:
    return next((r for r in READERS if r.kind == kind), None)


def reading_order(kinds: list[str]) -> list[str]:
    """The text kinds among ``kinds`` in the registry's order."""
    return [r.kind for r in READERS if r.kind in kinds]


def stored_files(ws: Workspace, source_id: str) -> list[tuple[str, Path]]:
    """(kind, path) of every artifact of a fetched source that is on disk, primary first; a record written
    before sources had several files names its one PDF."""
    record = ws.source_record_path(source_id)
    artifacts = Source.from_dict(read_source_record(record)).files() if record.is_file() else []
    if not artifacts:
        pdf = ws.pdf_path(source_id)
        return [("pdf", pdf)] if pdf.is_file() else []
    return [(a.kind, ws.root / a.path) for a in artifacts if (ws.root / a.path).is_file()]


def read_artifact(kind: str, path: Path, source_sha: str, limit: int = MAX_TEXT_BYTES) -> tuple[list[Table], Reading]:
    """The model tables (numbered in reading order) and prose of one text artifact of at most ``limit`` bytes of
    text (the extract setting max_text_bytes)."""
    reader = reader_for(kind)
    if reader is None:
        raise BadInputError(f"{path}: no reader for {kind} sources")
    try:
        reading = reader.read(path, path.name, limit)
    except LitauditError:
        raise
    except Exception as exc:  # a source that breaks a parser: one line naming it, as for a PDF
        raise ExtractionError(f"{path}: cannot read the {kind} source ({type(exc).__name__}: {exc})") from None
    written = [found for found in reading.tables if any(c.text for c in found.cells)]  # an empty one is no table
    numbered = steps(enumerate(written), len(written), "tables")
    tables = [to_table(found, k, source_sha, path.name, reader.engine) for k, found in numbered]
    return tables, reading
