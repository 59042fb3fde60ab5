"""From a record to a reproduction: find the record, run the protocol its dataset names, judge the printed value.

Reproductions are stored beside the audit (``audits/<source>/reproductions.jsonl``), one entry per
record, protocol variant and model revision, so re-running replaces an entry instead of adding one.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.errors import EXIT_OK, EXIT_PROBLEMS, BadInputError
from pipeline.model import Record
from pipeline.probe.evaluate import RunResult
from pipeline.probe.protocols import DatasetEntry, Protocol
from pipeline.store import Workspace, read_jsonl, write_jsonl

REPRODUCED, NOT_REPRODUCED = "reproduced", "not reproduced"

_METRIC_NAMES = {
    "accuracy": "accuracy",
    "acc": "accuracy",
    "acc.": "accuracy",
    "f1": "macro_f1",
    "macro-f1": "macro_f1",
    "macro f1": "macro_f1",
    "f1 (macro)": "macro_f1",
    "f1-macro": "macro_f1",
    "macro_f1": "macro_f1",
    "mcc": "mcc",
    "matthews correlation": "mcc",
    "matthews correlation coefficient": "mcc",
}


class RecordNotFoundError(BadInputError):
    """No records.jsonl of the workspace holds the record id."""


class NotReproducibleError(BadInputError):
    """The record names a dataset or metric that no probe protocol covers."""


@dataclass(frozen=True)
class Plan:
    """What reproducing a record means: which protocol, which of its datasets, which metric."""

    protocol: Protocol
    datasets: list[DatasetEntry]
    metric: str


def find_record(ws: Workspace, record_id: str) -> Record:
    """The record with this id, from the audit's records when they exist, else from the emitted ones."""
    for root in (ws.audits_root, ws.extracted_root):
        for path in sorted(root.glob("*/records.jsonl")) if root.is_dir() else []:
            for row in read_jsonl(path):
                if row.get("id") == record_id:
                    return Record.from_dict(row)
    raise RecordNotFoundError(f"record {record_id!r}: not in any audits/*/records.jsonl or extracted/*/records.jsonl")


def printed_value(record: Record) -> float:
    """The printed number in the catalogue's unit (a fraction for accuracy, as the protocols score)."""
    if record.catalogue_value is not None:
        return float(record.catalogue_value)
    if record.value is None:
        raise NotReproducibleError(f"record {record.id}: no numeric value ({record.printed!r})")
    return float(record.value) / 100 if record.percent else float(record.value)


def plan_for(record: Record, protocols: dict[str, Protocol], protocol_name: str | None = None) -> Plan:
    if not record.dataset:
        raise NotReproducibleError(f"record {record.id}: has no dataset to reproduce")
    metric = _METRIC_NAMES.get(" ".join((record.metric or "").split()).casefold())
    if metric is None:
        raise NotReproducibleError(f"record {record.id}: metric {record.metric!r} is not one a probe computes")
    candidates = {
        name: found
        for name, p in protocols.items()
        if (protocol_name is None or name == protocol_name) and (found := p.datasets_for(record.dataset))
    }
    if not candidates:
        where = f"protocol {protocol_name}" if protocol_name else "no protocol under config/protocols"
        raise NotReproducibleError(f"record {record.id}: dataset {record.dataset!r} is not mapped by {where}")
    if len(candidates) > 1:
        raise NotReproducibleError(
            f"record {record.id}: dataset {record.dataset!r} is mapped by several protocols "
            f"({', '.join(sorted(candidates))}); choose one with --protocol"
        )
    name, dataset_names = next(iter(candidates.items()))
    protocol = protocols[name]
    if metric not in protocol.metrics:
        raise NotReproducibleError(f"record {record.id}: protocol {name} does not score {metric}")
    return Plan(protocol, [protocol.datasets[d] for d in dataset_names], metric)


def reproduction_entry(record: Record, plan: Plan, result: RunResult) -> dict[str, Any]:
    """Printed beside reproduced, with the interval, delta and verdict, linked to the record and its cell."""
    printed = printed_value(record)
    reproduced = result.aggregate[plan.metric]
    low, high = reproduced.interval
    verdict = REPRODUCED if low <= printed <= high else NOT_REPRODUCED
    key = "|".join([record.id, plan.protocol.name, result.variant.name, result.model["revision"]])
    return {
        "id": "rep-" + hashlib.sha256(key.encode()).hexdigest()[:16],
        "record_id": record.id,
        "source_id": record.source_id,
        "locator": record.locator,
        "locator_readable": record.locator_readable,
        "dataset": record.dataset,
        "configuration": record.configuration,
        "metric": plan.metric,
        "printed": printed,
        "printed_text": record.printed,
        "reproduced": reproduced.value,
        "interval": [low, high],
        "confidence": plan.protocol.confidence,
        "delta": reproduced.value - printed,
        "verdict": verdict,
        "evidence_origin": "reproduced",
        "n": sum(len(d.test_subset.indices) for d in result.datasets),
        "protocol": plan.protocol.name,
        "variant": result.variant.name,
        "model": result.model,
        "overlap": {d.name: d.overlap for d in result.datasets},
        "run": result.to_dict(),  # subsets, embedding hashes, probe fits, library versions
    }


def store_reproduction(ws: Workspace, entry: dict[str, Any]) -> Path:
    """Add or replace (same id) the entry in ``audits/<source>/reproductions.jsonl``; other entries are kept."""
    path = ws.audits_dir(entry["source_id"]) / "reproductions.jsonl"
    rows = [row for row in (read_jsonl(path) if path.is_file() else []) if row.get("id") != entry["id"]]
    rows.append(entry)
    write_jsonl(path, sorted(rows, key=lambda row: (str(row.get("record_id")), str(row.get("id")))))
    return path


def exit_code(entry: dict[str, Any]) -> int:
    return EXIT_OK if entry["verdict"] == REPRODUCED else EXIT_PROBLEMS
