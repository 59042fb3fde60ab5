"""Probe protocols as data: ``config/protocols/*.yaml`` loaded into validated dataclasses.

A protocol says which datasets it covers (paths relative to the data root), how train and test items are
drawn (one variant per regime), how the probe is fitted and scored, and which catalogue dataset names it
can reproduce (each name maps to the datasets whose mean it is).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from pipeline.errors import ConfigError
from pipeline.probe.data import DataRules
from pipeline.probe.metrics import METRICS
from pipeline.probe.probe import ProbeSettings
from pipeline.shipped import config_folder
from pipeline.store import sha256_file
from pipeline.yamlio import read_yaml

_COUNT = {"type": ["integer", "null"], "minimum": 1}
_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["name", "seeds", "probe", "metrics", "variants", "datasets"],
    "properties": {
        "name": {"type": "string", "pattern": r"^[a-z0-9][a-z0-9._-]*$"},
        "description": {"type": "string"},
        "source": {"type": "string"},
        "seeds": {"type": "array", "items": {"type": "integer"}, "minItems": 1},
        "embedding": {
            "type": "object",
            "additionalProperties": False,
            "properties": {"layer": {"enum": ["last"]}, "pooling": {"enum": ["mean"]}},
        },
        "probe": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "scaler": {"type": "boolean"},
                "c": {"type": "number"},
                "c_grid": {"type": "array", "items": {"type": "number"}},
                "cv_folds": {"type": "integer"},
                "cv_scoring": {"type": "string"},
                "max_iter": {"type": "integer"},
            },
        },
        "metrics": {"type": "array", "items": {"enum": sorted(METRICS)}, "minItems": 1},
        "primary_metric": {"enum": sorted(METRICS)},
        "bootstrap": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "resamples": {"type": "integer", "minimum": 10},
                "confidence": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
                "seed": {"type": "integer"},
            },
        },
        "drop_train_identical_to_test": {"type": "boolean"},
        "holdout": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "train_fraction": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
                "seed": {"type": "integer"},
                "note": {"type": "string"},
            },
        },
        "default_variant": {"type": "string"},
        "variants": {
            "type": "object",
            "minProperties": 1,
            "additionalProperties": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "train_size": _COUNT,
                    "train_per_label": _COUNT,
                    "test_size": _COUNT,
                    "note": {"type": "string"},
                },
            },
        },
        "datasets": {
            "type": "object",
            "minProperties": 1,
            "additionalProperties": {
                "type": "object",
                "additionalProperties": False,
                "required": ["path"],
                "properties": {
                    "path": {"type": "string"},
                    "min_length": {"type": "integer", "minimum": 1},
                    "max_length": {"type": "integer", "minimum": 1},
                    "labels": {"type": "array", "items": {"type": ["string", "integer"]}},
                    "overlap": {"type": "string"},
                    "note": {"type": "string"},
                },
            },
        },
        "catalogue": {
            "type": "object",
            "additionalProperties": {"type": "array", "items": {"type": "string"}, "minItems": 1},
        },
    },
}

_VALIDATOR = Draft202012Validator(_SCHEMA)


@dataclass(frozen=True)
class Variant:
    """How many items a run draws: train by total (stratified quotas) or per label (k-shot), test by total."""

    name: str
    train_size: int | None = None
    train_per_label: int | None = None
    test_size: int | None = None
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "train_size": self.train_size,
            "train_per_label": self.train_per_label,
            "test_size": self.test_size,
            "note": self.note,
        }


@dataclass(frozen=True)
class DatasetEntry:
    name: str
    path: str  # relative to the data root (or absolute)
    rules: DataRules = field(default_factory=DataRules)
    overlap: str = ""  # declared train/test overlap, e.g. with a model's pretraining genome
    note: str = ""


@dataclass(frozen=True)
class Holdout:
    """How a dataset with no train split is split: a stratified, hash-ranked share of its test items."""

    train_fraction: float = 0.5
    seed: int = 0
    note: str = ""


@dataclass(frozen=True)
class Protocol:
    name: str
    seeds: tuple[int, ...]
    probe: ProbeSettings
    metrics: tuple[str, ...]
    primary_metric: str
    variants: dict[str, Variant]
    default_variant: str
    datasets: dict[str, DatasetEntry]
    catalogue: dict[str, tuple[str, ...]] = field(default_factory=dict)
    resamples: int = 1000
    confidence: float = 0.95
    bootstrap_seed: int = 0
    drop_train_identical_to_test: bool = True
    holdout: Holdout = field(default_factory=Holdout)
    description: str = ""
    source: str = ""
    file: str = ""
    file_sha256: str = ""

    def variant(self, name: str | None) -> Variant:
        chosen = name or self.default_variant
        if chosen not in self.variants:
            raise ConfigError(f"protocol {self.name}: no variant {chosen!r} (has {', '.join(self.variants)})")
        return self.variants[chosen]

    def datasets_for(self, catalogue_name: str) -> tuple[str, ...] | None:
        wanted = _normal(catalogue_name)
        return next((names for key, names in self.catalogue.items() if _normal(key) == wanted), None)


def _normal(name: str) -> str:
    return " ".join(name.split()).casefold()


def _build(path: Path, data: dict[str, Any]) -> Protocol:
    name = data["name"]
    if name != path.stem:
        raise ConfigError(f"{path}: name {name!r} must match the file name {path.stem!r}")
    metrics = tuple(data["metrics"])
    primary = data.get("primary_metric", metrics[0])
    if primary not in metrics:
        raise ConfigError(f"{path}: primary_metric {primary!r} is not among metrics")
    probe_data = dict(data["probe"])
    probe_data["c_grid"] = tuple(float(c) for c in probe_data.get("c_grid", ()))
    try:
        probe = ProbeSettings(**probe_data)
    except ConfigError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    variants = {key: Variant(key, **value) for key, value in data["variants"].items()}
    for variant in variants.values():
        if variant.train_size and variant.train_per_label:
            raise ConfigError(f"{path}: variant {variant.name}: give train_size or train_per_label, not both")
    default_variant = data.get("default_variant", next(iter(variants)))
    if default_variant not in variants:
        raise ConfigError(f"{path}: default_variant {default_variant!r} is not a variant")
    datasets = {}
    for key, entry in data["datasets"].items():
        rules = DataRules(
            entry.get("min_length", 1), entry.get("max_length"), tuple(str(x) for x in entry.get("labels", ()))
        )
        datasets[key] = DatasetEntry(key, entry["path"], rules, entry.get("overlap", ""), entry.get("note", ""))
    catalogue = {key: tuple(names) for key, names in data.get("catalogue", {}).items()}
    for key, names in catalogue.items():
        unknown = [n for n in names if n not in datasets]
        if unknown:
            raise ConfigError(f"{path}: catalogue {key!r} names unknown datasets {', '.join(unknown)}")
    boot = data.get("bootstrap", {})
    return Protocol(
        name=name,
        seeds=tuple(data["seeds"]),
        probe=probe,
        metrics=metrics,
        primary_metric=primary,
        variants=variants,
        default_variant=default_variant,
        datasets=datasets,
        catalogue=catalogue,
        resamples=boot.get("resamples", 1000),
        confidence=boot.get("confidence", 0.95),
        bootstrap_seed=boot.get("seed", data["seeds"][0]),
        drop_train_identical_to_test=data.get("drop_train_identical_to_test", True),
        holdout=Holdout(**{"seed": data["seeds"][0], **data.get("holdout", {})}),
        description=" ".join(data.get("description", "").split()),
        source=data.get("source", ""),
        file=str(path),
        file_sha256=sha256_file(path),
    )


def load_protocol(path: Path) -> Protocol:
    data = read_yaml(path, _VALIDATOR)
    if data is None:
        raise ConfigError(f"{path}: empty file, not a protocol")
    return _build(path, data)


def load_protocols(config_dir: Path) -> dict[str, Protocol]:
    """Every protocol under ``config_dir/protocols`` (or those shipped with litaudit), by name."""
    folder = config_folder(config_dir, "protocols")
    files = sorted(folder.glob("*.yaml")) if folder.is_dir() else []
    return {p.name: p for p in (load_protocol(f) for f in files)}


def get_protocol(config_dir: Path, name: str) -> Protocol:
    path = config_folder(config_dir, "protocols") / f"{name}.yaml"
    if not path.is_file():
        known = ", ".join(load_protocols(config_dir)) or "none"
        raise ConfigError(f"protocol {name!r}: no {path} (protocols found: {known})")
    return load_protocol(path)
