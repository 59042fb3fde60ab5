"""Reading what the audit needs from the workspace; a missing optional input is noted, not fatal."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pipeline.audit.context import AuditInput
from pipeline.audit.settings import AuditSettings
from pipeline.audit.text import PaperText, Sentence, read_paper_text, split_sentences, table_key
from pipeline.catalogue import Catalogue, load_catalogue, resolve_catalogue_dir
from pipeline.errors import BadInputError, ConfigError
from pipeline.extract.settings import MAX_TEXT_BYTES
from pipeline.model import TablesFile
from pipeline.readers import read_artifact, reading_order, stored_files
from pipeline.reproductions import read_reproductions, reproductions_path
from pipeline.store import Workspace, read_json, read_records, read_tables, safe_id


@dataclass
class LoadedInputs:
    audit: AuditInput
    pdf: Path
    notes: list[str] = field(default_factory=list)  # what was missing or substituted, for the report


def read_catalogue(config_dir: Path, notes: list[str]) -> Catalogue | None:
    """The workspace's catalogue (or the one shipped with litaudit, as the map stage uses); None if there is none."""
    try:
        folder = resolve_catalogue_dir(config_dir)
    except ConfigError as exc:
        notes.append(f"no catalogue ({exc}); the checks that need it were skipped")
        return None
    if folder.resolve() != (config_dir / "catalogue").resolve():
        notes.append(f"the workspace has no config/catalogue; used the catalogue shipped with litaudit ({folder})")
    return load_catalogue(config_dir)


def source_prose(ws: Workspace, source_id: str, tables_file: TablesFile, limit: int = MAX_TEXT_BYTES) -> PaperText:
    """The prose of a source without a PDF, from the text artifact its tables were read from (read under the
    extract stage's size limit, ``limit``)."""
    files = dict(stored_files(ws, source_id))
    kinds = reading_order(list(files))
    if not kinds:
        raise BadInputError(f"{ws.source_dir(source_id)}: no PDF and no text source to read the prose from")
    _, reading = read_artifact(kinds[0], files[kinds[0]], str(tables_file.source.get("sha256", "")), limit)
    sentences = [Sentence(0, s) for paragraph in reading.prose for s in split_sentences(paragraph)]
    captions = {key: t.caption for t in tables_file.tables if t.caption and (key := table_key(t.label))}
    return PaperText(sentences, captions)


def load_inputs(
    ws: Workspace, source_id: str, settings: AuditSettings | None = None, text_limit: int = MAX_TEXT_BYTES
) -> LoadedInputs:
    extracted = ws.extracted_dir(source_id)
    tables_file = read_tables(extracted / "tables.json")
    notes: list[str] = []
    records_file = extracted / "records.jsonl"
    records = read_records(records_file) if records_file.is_file() else None
    if records is None:
        notes.append(f"extracted/{safe_id(source_id)}/records.jsonl not found; checks that need records were skipped")
    catalogue = read_catalogue(ws.config_dir, notes)
    pdf = ws.pdf_path(source_id)
    text = None
    try:
        if pdf.is_file():
            text = read_paper_text(pdf, tables_file.tables)
        else:
            text = source_prose(ws, source_id, tables_file, text_limit)
    except BadInputError as exc:
        notes.append(f"the paper's text could not be read ({exc}); checks that need it were skipped")
    sha = str(tables_file.source.get("sha256") or "")
    if not sha and ws.source_record_path(source_id).is_file():
        sha = str(read_json(ws.source_record_path(source_id)).get("sha256", ""))
    reproductions = read_reproductions(reproductions_path(ws, source_id))  # none yet: nothing differs
    audit = AuditInput(
        source_id,
        sha,
        tables_file.tables,
        text,
        catalogue,
        records,
        reproductions=reproductions,
        settings=settings or AuditSettings(),
    )
    return LoadedInputs(audit, pdf, notes)
