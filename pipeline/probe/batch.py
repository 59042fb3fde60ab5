"""Reproducing a source's selected records: one protocol run per (protocol, datasets, model), one entry per record.

A failure while running (a bad data row, a model that does not load, an unknown variant) becomes the
``not-reproducible`` reason of the records that needed that run, never an abort of the others.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pipeline.errors import LitauditError
from pipeline.model import Record
from pipeline.probe.devices import resolve_device
from pipeline.probe.embedders import ModelOptions, parse_model
from pipeline.probe.evaluate import RunOptions, RunResult, run_protocol
from pipeline.probe.models import ModelRegistry
from pipeline.probe.protocols import Protocol
from pipeline.probe.reproduce import NotReproducibleError, Plan, not_reproducible_entry, plan_for, reproduction_entry


@dataclass(frozen=True)
class BatchOptions:
    root: Path  # the workspace root: hf: paths in the registry are relative to it
    run: RunOptions
    device: str = "cpu"
    variant: str | None = None
    batch_size: int = 32


@dataclass
class Batch:
    entries: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    runs: int = 0
    seconds: float = 0.0
    sequences_embedded: int = 0
    sequences_from_cache: int = 0


def _run(plan: Plan, options: BatchOptions, batch: Batch) -> tuple[RunResult, str]:
    device, note = resolve_device(options.device, plan.model.kind)
    if note and note not in batch.notes:
        batch.notes.append(note)
    model_options = ModelOptions(
        trust_remote_code=plan.model.trust_remote_code, batch_size=options.batch_size, device=device
    )
    embedder = parse_model(plan.model.spec(options.root), model_options)
    variant = plan.protocol.variant(options.variant if options.variant in plan.protocol.variants else None)
    if options.variant and options.variant not in plan.protocol.variants:
        note = f"protocol {plan.protocol.name} has no variant {options.variant!r}: ran its default, {variant.name}"
        if note not in batch.notes:
            batch.notes.append(note)
    run = options.run if not embedder.cheap else replace(options.run, cache=None)  # cheap: faster than the cache
    result = run_protocol(plan.protocol, variant, embedder, plan.datasets, run)
    batch.runs += 1
    batch.sequences_embedded += result.timing["sequences_embedded"]
    batch.sequences_from_cache += result.timing["sequences_from_cache"]
    return result, device


def reproduce_records(
    records: list[Record], protocols: dict[str, Protocol], models: ModelRegistry, options: BatchOptions
) -> Batch:
    started = time.perf_counter()
    batch = Batch()
    runs: dict[tuple[str, tuple[str, ...], str], tuple[RunResult, str] | str] = {}
    for record in records:
        try:
            plan = plan_for(record, protocols, models, options.run.data_root, options.root)
        except NotReproducibleError as exc:
            batch.entries.append(not_reproducible_entry(record, str(exc)))
            continue
        if plan.run_key not in runs:
            try:
                runs[plan.run_key] = _run(plan, options, batch)
            except LitauditError as exc:
                runs[plan.run_key] = f"run failed: {exc}"
        done = runs[plan.run_key]
        if isinstance(done, str):
            batch.entries.append(not_reproducible_entry(record, done))
        else:
            batch.entries.append(reproduction_entry(record, plan, *done))
    batch.seconds = time.perf_counter() - started
    return batch
