"""Reviewers' decisions (audits/<sid>/reviews.jsonl, written by ``litaudit review``), shown beside findings."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.errors import BadInputError
from pipeline.store import read_jsonl

DECISIONS = ("accept", "reject", "correct")


@dataclass(frozen=True)
class Decision:
    record_id: str
    decision: str
    value: Any = None
    note: str = ""
    reviewer: str = ""
    date: str = ""


def latest_decisions(path: Path) -> dict[str, Decision]:
    """Each record's latest decision (the file is append-only, so the last entry wins); {} without a file."""
    if not path.is_file():
        return {}
    latest: dict[str, Decision] = {}
    for number, entry in enumerate(read_jsonl(path), 1):
        record_id, decision = entry.get("record_id"), entry.get("decision")
        if not isinstance(record_id, str) or decision not in DECISIONS:
            raise BadInputError(f"{path}: entry {number}: needs a record_id and a decision in {', '.join(DECISIONS)}")
        latest[record_id] = Decision(
            record_id,
            decision,
            entry.get("value"),
            str(entry.get("note") or ""),
            str(entry.get("reviewer") or ""),
            str(entry.get("date") or ""),
        )
    return latest
