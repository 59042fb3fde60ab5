"""records.jsonl as a flat table for spreadsheets (extracted/<source>/records.csv)."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from pipeline.model import Record
from pipeline.store import Workspace, atomic_writer, read_jsonl

LIST_SEPARATOR = " | "
# Columns taken from the mapping: how sure each link is, and whether a person pinned it.
MAPPING_COLUMNS = (
    "dataset_score",
    "dataset_method",
    "configuration_score",
    "configuration_method",
    "metric_method",
    "manual",
)


def record_row(data: dict[str, Any]) -> dict[str, Any]:
    """One record as flat cells: lists joined, the box as four numbers, the mapping as a few scores."""
    row = {k: v for k, v in data.items() if k != "mapping"}
    bbox = data.get("bbox")
    row["bbox"] = " ".join(f"{v:g}" for v in bbox) if bbox else ""
    for key in ("limitations", "findings", "also_published_in"):
        row[key] = LIST_SEPARATOR.join(data.get(key) or [])
    mapping = data.get("mapping") or {}
    for kind in ("dataset", "configuration", "metric"):
        link = mapping.get(kind) or {}
        row[f"{kind}_score"] = link.get("score", "")
        row[f"{kind}_method"] = link.get("method", "")
    row["manual"] = mapping.get("manual", False)
    return {k: "" if v is None else v for k, v in row.items()}


def columns() -> list[str]:
    fields = [f for f in Record.__dataclass_fields__ if f != "mapping"]
    return fields + list(MAPPING_COLUMNS)


def write_records_csv(ws: Workspace, source_id: str) -> Path:
    """Write records.csv beside records.jsonl (same records, same order) and return its path."""
    folder = ws.extracted_dir(source_id)
    rows = [record_row(r) for r in read_jsonl(folder / "records.jsonl")]
    path = folder / "records.csv"
    with atomic_writer(path) as fh:
        writer = csv.DictWriter(fh, fieldnames=columns(), lineterminator="\n", extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    return path
