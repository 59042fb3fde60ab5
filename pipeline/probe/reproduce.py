"""From a record to a verdict: the plan (protocol, data, model) for a printed cell, and how its value is judged.

Verdicts: ``reproduced`` when the printed value, widened by its printed rounding, meets the reproduced
interval; ``differs`` otherwise, with the gap in interval widths; ``not-reproducible`` with the reason
when a cell cannot be re-run here (metric, dataset, data file, model or weights missing). Every
selected record gets one entry, so nothing is skipped silently.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.errors import BadInputError
from pipeline.model import Record
from pipeline.probe.evaluate import RunResult
from pipeline.probe.models import ModelEntry, ModelRegistry, check_weights, record_names
from pipeline.probe.protocols import DatasetEntry, Protocol
from pipeline.reproductions import DIFFERS, NOT_REPRODUCIBLE, REPRODUCED

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
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)")


class NotReproducibleError(BadInputError):
    """A printed cell cannot be re-run here; the message is the reason the reproduction records."""


@dataclass(frozen=True)
class Plan:
    """What reproducing a record means: which protocol, datasets and files, metric and model."""

    protocol: Protocol
    datasets: list[DatasetEntry]
    files: list[Path]
    metric: str
    model: ModelEntry
    weights_sha256: str | None

    @property
    def run_key(self) -> tuple[str, tuple[str, ...], str]:
        """Records with the same key share one run of the protocol."""
        return (self.protocol.name, tuple(d.name for d in self.datasets), self.model.configuration)


def printed_value(record: Record) -> float:
    """The printed number in the catalogue's unit (a fraction for accuracy, as the protocols score)."""
    if record.catalogue_value is not None:
        return float(record.catalogue_value)
    if record.value is None:
        raise NotReproducibleError(f"no numeric value ({record.printed!r})")
    return float(record.value) / 100 if record.percent else float(record.value)


def printed_rounding(record: Record) -> float:
    """Half a unit of the printed last digit, in the catalogue's unit (0.0005 for '0.853', 0.0005 for '85.3%')."""
    match = _NUMBER.search(record.printed or "")
    if match is None or record.value in (None, 0):
        return 0.0
    decimals = len(match.group().partition(".")[2])
    scale = printed_value(record) / float(record.value) if record.value else 1.0
    return abs(0.5 * 10.0**-decimals * scale)


def _protocol_for(record: Record, protocols: dict[str, Protocol]) -> tuple[Protocol, tuple[str, ...]]:
    found = {name: names for name, p in protocols.items() if (names := p.datasets_for(record.dataset or ""))}
    if not found:
        raise NotReproducibleError(f"protocol unknown: no protocol under config/protocols maps {record.dataset!r}")
    if len(found) > 1:
        raise NotReproducibleError(
            f"protocol ambiguous: {record.dataset!r} is mapped by {', '.join(sorted(found))} (choose with --protocol)"
        )
    name, names = next(iter(found.items()))
    return protocols[name], names


def plan_for(
    record: Record, protocols: dict[str, Protocol], models: ModelRegistry, data_root: Path, root: Path
) -> Plan:
    """The plan to re-run a record, or NotReproducibleError saying what is missing."""
    metric = _METRIC_NAMES.get(" ".join((record.metric or "").split()).casefold())
    if metric is None:
        raise NotReproducibleError(f"metric not probe-computable: {record.metric!r}")
    printed_value(record)
    if not record.dataset:
        raise NotReproducibleError("no dataset: the record names none")
    protocol, names = _protocol_for(record, protocols)
    if metric not in protocol.metrics:
        raise NotReproducibleError(f"metric not probe-computable: protocol {protocol.name} does not score {metric}")
    entries = [protocol.datasets[n] for n in names]
    files = [Path(e.path) if Path(e.path).is_absolute() else data_root / e.path for e in entries]
    missing = [str(f) for f in files if not f.is_file()]
    if missing:
        raise NotReproducibleError(f"no data: {', '.join(missing)} not found (set --data-root or LITAUDIT_DATA_ROOT)")
    model = models.find(record_names(record))
    if model is None:
        names_given = " / ".join(dict.fromkeys(record_names(record))) or "none"
        raise NotReproducibleError(f"no model: no entry of {models.file} for configuration {names_given}")
    weights = check_weights(model, root)
    if not weights.present:
        raise NotReproducibleError(weights.problem)
    return Plan(protocol, entries, files, metric, model, weights.sha256)


@dataclass(frozen=True)
class Judgement:
    verdict: str
    distance_widths: float | None  # how far outside the interval the printed value lies, in interval widths


def judge(printed: float, rounding: float, interval: tuple[float, float]) -> Judgement:
    low, high = interval
    if printed + rounding >= low and printed - rounding <= high:
        return Judgement(REPRODUCED, 0.0)
    gap = low - (printed + rounding) if printed < low else (printed - rounding) - high
    width = high - low
    return Judgement(DIFFERS, round(gap / width, 3) if width > 0 else None)


def entry_id(record: Record) -> str:
    return "rep-" + hashlib.sha256(record.id.encode()).hexdigest()[:16]


def _base(record: Record) -> dict[str, Any]:
    return {
        "id": entry_id(record),
        "record_id": record.id,
        "source_id": record.source_id,
        "table_label": record.table_label,
        "locator": record.locator,
        "locator_readable": record.locator_readable,
        "dataset": record.dataset,
        "configuration": record.configuration,
        "printed_text": record.printed,
    }


def not_reproducible_entry(record: Record, reason: str) -> dict[str, Any]:
    return {**_base(record), "verdict": NOT_REPRODUCIBLE, "reason": reason, "reproduced": None, "interval": None}


def reproduction_entry(record: Record, plan: Plan, result: RunResult, device: str) -> dict[str, Any]:
    """Printed beside reproduced, with everything that produced the reproduced value (no timings, so a re-run
    with the same subsets, seeds, data and weights writes the same bytes)."""
    printed = printed_value(record)
    rounding = printed_rounding(record)
    reproduced = result.aggregate[plan.metric]
    low, high = reproduced.interval
    judgement = judge(printed, rounding, (low, high))
    protocol = plan.protocol
    return {
        **_base(record),
        "verdict": judgement.verdict,
        "reason": "",
        "distance_widths": judgement.distance_widths,
        "metric": plan.metric,
        "printed": printed,
        "printed_rounding": rounding,
        "reproduced": reproduced.value,
        "interval": [low, high],
        "confidence": protocol.confidence,
        "delta": reproduced.value - printed,
        "protocol": {
            "name": protocol.name,
            "variant": result.variant.name,
            "version": protocol.file_sha256,
            "seeds": list(protocol.seeds),
        },
        "data": [
            {
                "dataset": d.name,
                "path": d.path,
                "sha256": d.data_sha256,
                "test_subset": d.test_subset.id,
                "train_subsets": sorted({s.id for s in d.train_subsets}),
                "n_test": len(d.test_subset.indices),
                "embedding_hash": d.embedding_hash,
                "overlap": d.overlap,
            }
            for d in result.datasets
        ],
        "model": {
            "configuration": plan.model.configuration,
            "embedder": plan.model.embedder,
            "revision": result.model["revision"],
            "weights_sha256": plan.weights_sha256,
            "weights_revision": plan.model.revision,
            "device": device,
        },
        "versions": result.versions,
        "evidence_origin": "reproduced",
    }
