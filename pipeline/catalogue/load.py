"""Reading the catalogue from config/catalogue/*.yaml, with one-line errors naming the file."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from pipeline.catalogue.model import (
    BenchmarkDef,
    Catalogue,
    ConfigurationDef,
    DatasetDef,
    MetricDef,
    ProtocolDef,
    QuantityDef,
    Range,
)
from pipeline.errors import ConfigError
from pipeline.shipped import SHIPPED_CONFIG
from pipeline.yamlio import read_yaml, schema_validator

# The catalogue shipped with litaudit, used when a workspace has none.
BUNDLED_DIR = SHIPPED_CONFIG / "catalogue"


_LAST_READ: list[tuple[tuple[tuple[str, ...], str], Catalogue]] = []  # one entry: (files and digest, catalogue)


def resolve_catalogue_dir(config_dir: Path) -> Path:
    """The catalogue folder of a workspace's config/ folder (a folder named "catalogue" is taken as is).

    A workspace without config/catalogue uses the catalogue shipped with litaudit.
    """
    folder = config_dir if config_dir.name == "catalogue" else config_dir / "catalogue"
    if folder.is_dir():
        _catalogue_files(folder)
        return folder
    if BUNDLED_DIR.is_dir():
        return BUNDLED_DIR
    raise ConfigError(f"{folder}: not found, and no catalogue is shipped with this installation")


def _catalogue_files(folder: Path) -> list[Path]:
    """The *.yaml files of a catalogue folder, in name order; a folder without any is an error, not an empty
    catalogue (which would pass every check)."""
    if not folder.is_dir():
        raise ConfigError(f"{folder}: not a folder")
    paths = sorted(folder.glob("*.yaml"))
    if not paths:
        raise ConfigError(f"{folder}: no catalogue files (*.yaml)")
    return paths


def _range(value: list[Any] | None) -> Range | None:
    if value is None:
        return None
    low, high = value
    return (None if low is None else float(low), None if high is None else float(high))


def _tuple(entry: dict[str, Any], key: str) -> tuple[str, ...]:
    return tuple(entry.get(key) or ())


def _metric(entry: dict[str, Any], origin: str) -> MetricDef:
    return MetricDef(
        id=entry["id"],
        name=entry["name"],
        aliases=_tuple(entry, "aliases"),
        unit=entry["unit"],
        direction=entry["direction"],
        range=_range(entry["range"]) or (None, None),
        standard=entry.get("standard", True),
        definition=entry.get("definition", ""),
        same_as=entry.get("same_as"),
        origin=origin,
    )


def _benchmark(entry: dict[str, Any], origin: str) -> BenchmarkDef:
    return BenchmarkDef(
        id=entry["id"],
        name=entry["name"],
        protocols=_tuple(entry, "protocols"),
        description=entry.get("description", ""),
        aliases=_tuple(entry, "aliases"),
        origin=origin,
    )


def _protocol(entry: dict[str, Any], origin: str) -> ProtocolDef:
    return ProtocolDef(entry["id"], entry["name"], entry["benchmark"], entry.get("description", ""), origin)


def _dataset(entry: dict[str, Any], origin: str) -> DatasetDef:
    return DatasetDef(
        id=entry["id"],
        name=entry["name"],
        benchmark=entry["benchmark"],
        protocol=entry["protocol"],
        task=entry["task"],
        part=entry.get("part") or None,
        aliases=_tuple(entry, "aliases"),
        metrics=_tuple(entry, "metrics"),
        also_published_in=_tuple(entry, "also_published_in"),
        range=_range(entry.get("range")),
        description=entry.get("description", ""),
        origin=origin,
    )


def _quantity(entry: dict[str, Any], origin: str) -> QuantityDef:
    return QuantityDef(entry["id"], entry["name"], _tuple(entry, "aliases"), origin)


def _configuration(entry: dict[str, Any], origin: str) -> ConfigurationDef:
    return ConfigurationDef(
        entry["id"], entry["name"], entry["model"], entry["benchmark"], _tuple(entry, "aliases"), origin
    )


_BUILDERS = {
    "metrics": _metric,
    "benchmarks": _benchmark,
    "protocols": _protocol,
    "datasets": _dataset,
    "configurations": _configuration,
    "quantities": _quantity,
}


def load_catalogue(config_dir: Path) -> Catalogue:
    """The catalogue of a workspace's config/ folder (see :func:`resolve_catalogue_dir`).

    Raises ConfigError naming the file on unreadable or malformed YAML; semantic problems are
    :func:`check_catalogue`'s job.
    """
    return read_catalogue_dir(resolve_catalogue_dir(Path(config_dir)))


def read_catalogue_dir(folder: Path) -> Catalogue:
    """Every *.yaml of one catalogue folder, merged in file-name order.

    The last catalogue read is kept and returned again while its files hold the same bytes: every source of a
    run reads the catalogue (map and audit), and parsing and validating it costs more than mapping a paper.
    Nobody changes a loaded catalogue, so sharing it is safe."""
    paths = _catalogue_files(folder)
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    key = (tuple(str(p) for p in paths), digest.hexdigest())
    if _LAST_READ and _LAST_READ[0][0] == key:
        return _LAST_READ[0][1]
    parts: dict[str, list[Any]] = {kind: [] for kind in _BUILDERS}
    for path in paths:
        data = read_yaml(path, schema_validator("pipeline.catalogue", "catalogue.schema.json")) or {}
        for kind, build in _BUILDERS.items():
            parts[kind].extend(build(entry, str(path)) for entry in data.get(kind, []))
    catalogue = Catalogue(**parts, files=key[0], digest=key[1])
    _LAST_READ[:] = [(key, catalogue)]
    return catalogue
