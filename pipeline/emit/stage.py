"""The emit stage: tables.json + mapping.json -> extracted/<source>/records.jsonl, every record schema-checked,
source_record.json, the paper as the catalogue's Source record, and candidates.json, the printed results the
catalogue does not know yet."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pipeline.emit.candidates import build_candidates
from pipeline.emit.records import StaleMappingError, build_records
from pipeline.emit.schema import validate_record
from pipeline.emit.source_record import source_record
from pipeline.errors import StageInputMissingError
from pipeline.mapping.model import MappingFile
from pipeline.mapping.stage import read_stage_file, read_tables
from pipeline.model import Finding, Record, Source
from pipeline.settings import Settings
from pipeline.stages import StageReport
from pipeline.store import Workspace, read_json, sha256_file, write_json, write_jsonl


def read_mapping(path: Path) -> MappingFile:
    if not path.is_file():
        raise StageInputMissingError(f"{path}: not found; run 'litaudit map' first")
    return read_stage_file(path, MappingFile.from_dict, "mapping")


def _source_record(ws: Workspace, source_id: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The catalogue's Source record; limitations from the audit's findings when it has run (emit again after
    'litaudit audit' to carry them), else from the records."""
    source = Source.from_dict(read_json(ws.source_record_path(source_id)))
    findings_path = ws.audits_dir(source_id) / "findings.json"
    data = read_json(findings_path) if findings_path.is_file() else {}
    found = data.get("findings", []) if isinstance(data, dict) else data
    return source_record(source, [Record.from_dict(r) for r in rows], [Finding.from_dict(f) for f in found])


def run(ws: Workspace, source_id: str, settings: Settings) -> StageReport:
    folder = ws.extracted_dir(source_id)
    tables_path = folder / "tables.json"
    tables = read_tables(tables_path)
    mapping = read_mapping(folder / "mapping.json")
    if mapping.tables_sha256 != sha256_file(tables_path):
        raise StaleMappingError(f"{folder / 'mapping.json'}: made from another tables.json; run 'litaudit map' again")
    rows = [record.to_dict() for record in build_records(tables, mapping)]
    for row in rows:
        validate_record(row)
    write_jsonl(folder / "records.jsonl", rows)
    write_json(folder / "source_record.json", _source_record(ws, source_id, rows))
    candidates = build_candidates(tables, mapping)
    write_json(folder / "candidates.json", {"source_id": source_id, "candidates": candidates})
    tables_with_records = len({row["locator"].rsplit(":", 2)[0] for row in rows})
    summary = {
        "records": len(rows),
        "tables": tables_with_records,
        "rescaled": sum(r["rescale"] is not None for r in rows),
        "candidates": len(candidates),
    }
    return StageReport(problems=0, summary=summary)
