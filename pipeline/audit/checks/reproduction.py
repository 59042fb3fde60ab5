"""reproduction-differs: a printed value that a re-run of its protocol (litaudit probe reproduce) does not give.

The verdicts come from ``audits/<sid>/reproductions.jsonl``. A ``differs`` verdict is a warning, never an
error: the protocol re-run here is the one config/protocols describes, which may not be the paper's own
(split, probe settings, seeds). A verdict about a cell that now reads otherwise, or a record that is
gone, is stale: the check declines it and says so.
"""

from __future__ import annotations

from typing import Any

from pipeline.audit.checks.base import Issue
from pipeline.audit.context import AuditInput, table_key_of
from pipeline.reproductions import DIFFERS

DOUBT = "the protocol re-run here (config/protocols) may differ from the paper's own split, probe or seeds"


def check_reproductions(inp: AuditInput) -> list[Issue]:
    records = {r.id: r for r in inp.records or []}
    tables = {table_key_of(t): t for t in inp.tables}
    issues = []
    for entry in inp.reproductions:
        if entry.get("verdict") != DIFFERS:
            continue
        record = records.get(str(entry.get("record_id")))
        position = inp.index.position(record.locator or "") if record is not None else None
        table = tables.get(position[0]) if position is not None else None
        if record is None or table is None or position is None or record.printed != entry.get("printed_text"):
            issues.append(_stale(entry))
            continue
        issues.append(
            Issue(
                f"{record.locator_readable}: printed {record.printed} ({entry['printed']:.4g}) lies outside the "
                f"reproduced {entry['metric']} {_interval(entry)} ({entry['protocol']['name']}, "
                f"{entry['model']['configuration']}), {entry.get('distance_widths')} interval widths away",
                table,
                [position[1:]],
                expected=entry["interval"],
                found=entry["printed"],
                tolerance=entry.get("printed_rounding"),
                details={"reproduction": entry["id"], "reproduced": entry["reproduced"]},
            )
        )
    return issues


def _interval(entry: dict[str, Any]) -> str:
    low, high = entry["interval"]
    return f"{entry['reproduced']:.3f} [{low:.3f}, {high:.3f}]"


def _stale(entry: dict[str, Any]) -> Issue:
    return Issue(
        f"reproduction {entry.get('id')} of {entry.get('record_id')} says differs, but that cell now reads otherwise "
        "or is no longer a record: re-run litaudit probe reproduce",
        certainty="declined",
        reason="the reproduction is older than the records",
    )
