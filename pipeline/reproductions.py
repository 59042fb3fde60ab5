"""``audits/<source>/reproductions.jsonl``: one entry per reproduced cell, read by the audit, freeze and diff.

Kept apart from the probe (no numpy, no scikit-learn) so that the stages that only read reproductions
do not import what computing them needs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pipeline.store import Workspace, read_jsonl, write_jsonl

FILE = "reproductions.jsonl"
REPRODUCED, DIFFERS, NOT_REPRODUCIBLE = "reproduced", "differs", "not-reproducible"
VERDICTS = (REPRODUCED, DIFFERS, NOT_REPRODUCIBLE)


def reproductions_path(ws: Workspace, source_id: str) -> Path:
    return ws.audits_dir(source_id) / FILE


def read_reproductions(path: Path) -> list[dict[str, Any]]:
    """The entries of a reproductions.jsonl; none when it does not exist (bad lines name file and line)."""
    return read_jsonl(path) if path.is_file() else []


def store_reproductions(path: Path, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Replace the entries of the same records, keep the others, write atomically; the rows as written."""
    renewed = {e["record_id"] for e in entries}
    rows = [row for row in read_reproductions(path) if row.get("record_id") not in renewed] + entries
    rows.sort(key=lambda row: str(row.get("record_id")))
    write_jsonl(path, rows)
    return rows


def summary_of(entry: dict[str, Any]) -> dict[str, Any]:
    """What a record carries of its reproduction: the verdict, the value and interval, or the reason."""
    return {
        "id": entry.get("id"),
        "verdict": entry.get("verdict"),
        "value": entry.get("reproduced"),
        "interval": entry.get("interval"),
        "distance_widths": entry.get("distance_widths"),
        "reason": entry.get("reason", ""),
    }


def verdict_counts(entries: list[dict[str, Any]]) -> dict[str, int]:
    return {v: sum(e.get("verdict") == v for e in entries) for v in VERDICTS}
