"""Running a protocol on one model: draw subsets, embed, fit the probe for each seed, score with intervals.

Every result says what produced it (model revision, embedding hash, probe parameters, seeds, subset ids,
library versions), so a reproduced number can be traced back like a printed one.
"""

from __future__ import annotations

import hashlib
import platform
import time
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from pipeline import __version__
from pipeline.clock import utc_now
from pipeline.probe.cache import EmbeddingCache, EmbedStats, embed_all
from pipeline.probe.data import DataFileError, SequenceTable, read_sequences
from pipeline.probe.embedders import Embedder
from pipeline.probe.metrics import Group, bootstrap_interval, mean_over_groups
from pipeline.probe.probe import ProbeFit, fit_predict
from pipeline.probe.protocols import DatasetEntry, Protocol, Variant
from pipeline.probe.subsets import Pools, Subset, draw, drop_test_duplicates, holdout_split, make_subset


@dataclass(frozen=True)
class RunOptions:
    data_root: Path
    cache: EmbeddingCache | None = None
    show_progress: bool = False


@dataclass
class MetricValue:
    value: float
    interval: tuple[float, float]
    per_seed: list[float] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, "interval": list(self.interval), "per_seed": self.per_seed}


@dataclass
class DatasetResult:
    name: str
    path: str
    data_sha256: str
    split: dict[str, Any]
    classes: list[str]
    test_subset: Subset
    train_subsets: list[Subset]
    embedding_hash: str
    fits: list[dict[str, Any]]
    metrics: dict[str, MetricValue]
    overlap: dict[str, Any]
    group: Group = field(repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "path": self.path,
            "data_sha256": self.data_sha256,
            "split": self.split,
            "classes": self.classes,
            "n_test": len(self.test_subset.indices),
            "test_subset": self.test_subset.to_dict(),
            "train_subsets": [s.to_dict() for s in self.train_subsets],
            "embedding_hash": self.embedding_hash,
            "fits": self.fits,
            "metrics": {k: v.to_dict() for k, v in self.metrics.items()},
            "overlap": self.overlap,
        }


@dataclass
class RunResult:
    protocol: Protocol
    variant: Variant
    model: dict[str, Any]
    datasets: list[DatasetResult]
    aggregate: dict[str, MetricValue]
    timing: dict[str, Any]
    versions: dict[str, str | None]
    created_at: str

    def to_dict(self) -> dict[str, Any]:
        p = self.protocol
        return {
            "protocol": {
                "name": p.name,
                "variant": self.variant.to_dict(),
                "file": p.file,
                "file_sha256": p.file_sha256,
                "description": p.description,
                "source": p.source,
                "seeds": list(p.seeds),
                "probe": p.probe.to_dict(),
                "metrics": list(p.metrics),
                "primary_metric": p.primary_metric,
                "bootstrap": {"resamples": p.resamples, "confidence": p.confidence, "seed": p.bootstrap_seed},
                "drop_train_identical_to_test": p.drop_train_identical_to_test,
                "aggregate": "mean over datasets, each weighted equally; per dataset, mean over seeds",
            },
            "model": self.model,
            "datasets": [d.to_dict() for d in self.datasets],
            "aggregate": {k: {**v.to_dict(), "n_datasets": len(self.datasets)} for k, v in self.aggregate.items()},
            "timing": self.timing,
            "versions": self.versions,
            "created_at": self.created_at,
        }


def library_versions(model_kind: str) -> dict[str, str | None]:
    names = ["numpy", "scikit-learn"] + (["torch", "transformers"] if model_kind == "hf" else [])
    versions: dict[str, str | None] = {"python": platform.python_version(), "litaudit": __version__}
    for name in names:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return versions


def _label_key(label: str) -> tuple[int, float, str]:
    try:
        return (0, float(label), label)
    except ValueError:
        return (1, 0.0, label)


def _pools(table: SequenceTable, protocol: Protocol) -> Pools:
    train, test = table.indices("train"), table.indices("test")
    if not test:
        raise DataFileError(f"{table.path}: no test rows (splits found: {table.split_counts()})")
    if train:
        return Pools(train, test, {"kind": "file", "counts": table.split_counts()})
    holdout = protocol.holdout
    pools = holdout_split(test, table.ids, table.labels, holdout.seed, holdout.train_fraction)
    pools.split["note"] = holdout.note or "the file has no train rows: a share of its test rows stands in for train"
    return pools


def _draw_rule(variant: Variant, part: str) -> str:
    if part == "test":
        return f"{variant.test_size} test items, stratified" if variant.test_size else "every test item"
    if variant.train_per_label:
        return f"{variant.train_per_label} train items per label"
    return f"{variant.train_size} train items, stratified" if variant.train_size else "every train item"


def evaluate_dataset(
    protocol: Protocol,
    variant: Variant,
    embedder: Embedder,
    entry: DatasetEntry,
    options: RunOptions,
    stats: EmbedStats,
) -> DatasetResult:
    path = Path(entry.path) if Path(entry.path).is_absolute() else options.data_root / entry.path
    table = read_sequences(path, entry.rules)
    ids, labels = table.ids, table.labels
    pools = _pools(table, protocol)
    test_draw = draw(pools.test, ids, labels, protocol.seeds[0], total=variant.test_size)
    test = make_subset(test_draw, ids, labels, protocol.seeds[0], _draw_rule(variant, "test"))
    train_pool = pools.train
    if protocol.drop_train_identical_to_test:
        train_pool = drop_test_duplicates(train_pool, pools.test, table.sequences)
    dropped = len(pools.train) - len(train_pool)
    trains = [
        make_subset(
            draw(train_pool, ids, labels, seed, total=variant.train_size, per_label=variant.train_per_label),
            ids,
            labels,
            seed,
            _draw_rule(variant, "train"),
            dropped,
        )
        for seed in protocol.seeds
    ]
    classes = sorted({labels[i] for i in train_pool + pools.test}, key=_label_key)
    code = {label: n for n, label in enumerate(classes)}
    used = sorted(set(test.indices).union(*(t.indices for t in trains)))
    vectors = embed_all(embedder, [table.sequences[i] for i in used], options.cache, stats, options.show_progress)
    row = {i: r for r, i in enumerate(used)}
    y = {i: code[labels[i]] for i in used}
    x_test = vectors[[row[i] for i in test.indices]]
    fitted: dict[tuple[str, int | None], ProbeFit] = {}
    fits, predictions = [], []
    for seed, train in zip(protocol.seeds, trains, strict=True):
        key = (train.id, seed if protocol.probe.uses_seed else None)  # a deterministic fit is not repeated
        if key not in fitted:
            x_train = vectors[[row[i] for i in train.indices]]
            y_train = np.array([y[i] for i in train.indices])
            fitted[key] = fit_predict(x_train, y_train, x_test, protocol.probe, seed)
        predictions.append(fitted[key].predictions)
        fits.append({"seed": seed, "train_subset": train.id, **fitted[key].to_dict()})
    group = Group(np.array([y[i] for i in test.indices]), np.stack(predictions), len(classes))
    metrics = {
        name: MetricValue(
            float(group.metric(name)),
            bootstrap_interval([group], name, protocol.resamples, protocol.confidence, protocol.bootstrap_seed),
            [float(v) for v in group.per_run(name)],
        )
        for name in protocol.metrics
    }
    overlap = {"declared": entry.overlap or "none declared", "train_identical_to_test_dropped": dropped}
    return DatasetResult(
        name=entry.name,
        path=str(path),
        data_sha256=table.sha256,
        split=pools.split,
        classes=classes,
        test_subset=test,
        train_subsets=trains,
        embedding_hash=hashlib.sha256(np.ascontiguousarray(vectors, dtype=np.float32).tobytes()).hexdigest(),
        fits=fits,
        metrics=metrics,
        overlap=overlap,
        group=group,
    )


def run_protocol(
    protocol: Protocol, variant: Variant, embedder: Embedder, entries: list[DatasetEntry], options: RunOptions
) -> RunResult:
    """The protocol on each dataset, then the mean over datasets (each weighted equally) with its interval."""
    started = time.perf_counter()
    stats = EmbedStats()
    results = [evaluate_dataset(protocol, variant, embedder, e, options, stats) for e in entries]
    groups = [r.group for r in results]
    aggregate = {
        name: MetricValue(
            mean_over_groups(groups, name),
            bootstrap_interval(groups, name, protocol.resamples, protocol.confidence, protocol.bootstrap_seed),
        )
        for name in protocol.metrics
    }
    total = time.perf_counter() - started
    n_sequences = sum(
        len(r.test_subset.indices) + len({i for t in r.train_subsets for i in t.indices}) for r in results
    )
    timing = {
        "total_seconds": round(total, 3),
        "embed_seconds": round(stats.seconds, 3),
        "sequences_embedded": stats.computed,
        "sequences_from_cache": stats.cached,
        "embed_sequences_per_second": round(stats.computed / stats.seconds, 1) if stats.seconds else None,
        "sequences_used": n_sequences,
        "protocol_sequences_per_second": round(n_sequences / total, 1) if total else None,
    }
    model = embedder.describe()
    versions = library_versions(model["kind"])
    return RunResult(protocol, variant, model, results, aggregate, timing, versions, utc_now())
