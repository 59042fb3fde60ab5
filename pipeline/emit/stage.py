"""The emit stage: tables.json + mapping.json -> extracted/<source>/records.jsonl, every record schema-checked,
and candidates.json, the printed results the catalogue does not know yet. (The paper's catalogue Source
record needs the audit's findings, so the audit stage writes it.)"""

from __future__ import annotations

from pathlib import Path

from pipeline.emit.candidates import build_candidates
from pipeline.emit.records import StaleMappingError, build_records
from pipeline.emit.schema import validate_record
from pipeline.mapping.model import MappingFile
from pipeline.settings import Settings
from pipeline.stages import StageReport
from pipeline.store import Workspace, read_stage_file, read_tables, sha256_file, write_json, write_jsonl


def read_mapping(path: Path) -> MappingFile:
    return read_stage_file(path, MappingFile.from_dict, "mapping", "map")


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
