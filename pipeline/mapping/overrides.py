"""Hand-made pins (config/overrides.yaml): when the matcher is wrong, a person decides, and the pin wins."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipeline.catalogue import Catalogue, compact_label
from pipeline.errors import ConfigError
from pipeline.yamlio import read_yaml, schema_validator


@dataclass(frozen=True)
class TablePins:
    ignore: bool = False
    benchmark: str | None = None
    metric: str | None = None
    datasets: dict[str, str] = field(default_factory=dict)  # printed label -> dataset id
    configurations: dict[str, str] = field(default_factory=dict)  # printed label -> configuration id


@dataclass(frozen=True)
class CellPins:
    dataset: str | None = None
    configuration: str | None = None
    metric: str | None = None


@dataclass
class SourcePins:
    """The pins of one source, and which of them the mapping used (the rest are reported)."""

    tables: dict[str, TablePins] = field(default_factory=dict)  # table label, or "table-<index>" when unlabelled
    cells: dict[str, CellPins] = field(default_factory=dict)  # Locator.id -> pins
    used: set[str] = field(default_factory=set)

    def table(self, label: str | None, index: int) -> TablePins | None:
        key = label if label in self.tables else f"table-{index}"
        if key in self.tables:
            self.used.add(f"table '{key}'")
            return self.tables[key]
        return None

    def cell(self, locator_id: str) -> CellPins | None:
        if locator_id in self.cells:
            self.used.add(f"cell '{locator_id}'")
            return self.cells[locator_id]
        return None

    def label(self, table_key: str, kind: str, pins: dict[str, str], path: tuple[str, ...]) -> tuple[str, str] | None:
        """The (printed label, id) pinned for a row or column path: the whole path or one of its parts."""
        keys = {compact_label(" ".join(path)), compact_label(" / ".join(path))} | {compact_label(p) for p in path}
        for printed, target in pins.items():
            if compact_label(printed) in keys:
                self.used.add(f"table '{table_key}' {kind} '{printed}'")
                return printed, target
        return None

    def unused(self) -> list[str]:
        every = [f"table '{key}'" for key in self.tables]
        for key, pins in self.tables.items():
            every += [f"table '{key}' datasets '{label}'" for label in pins.datasets]
            every += [f"table '{key}' configurations '{label}'" for label in pins.configurations]
        every += [f"cell '{key}'" for key in self.cells]
        return [pin for pin in every if pin not in self.used]


def _check_ids(path: Path, where: str, kind: str, ids: list[str | None], catalogue: Catalogue) -> None:
    for item in ids:
        if item is not None and not catalogue.has(kind, item):
            raise ConfigError(f"{path}: {where}: unknown {kind} '{item}'")


def _table_pins(path: Path, where: str, data: dict[str, Any], catalogue: Catalogue) -> TablePins:
    pins = TablePins(
        ignore=data.get("ignore", False),
        benchmark=data.get("benchmark"),
        metric=data.get("metric"),
        datasets=dict(data.get("datasets", {})),
        configurations=dict(data.get("configurations", {})),
    )
    _check_ids(path, where, "benchmark", [pins.benchmark], catalogue)
    _check_ids(path, where, "metric", [pins.metric], catalogue)
    _check_ids(path, f"{where}/datasets", "dataset", list(pins.datasets.values()), catalogue)
    _check_ids(path, f"{where}/configurations", "configuration", list(pins.configurations.values()), catalogue)
    return pins


def _cell_pins(path: Path, where: str, data: dict[str, Any], catalogue: Catalogue) -> CellPins:
    pins = CellPins(data.get("dataset"), data.get("configuration"), data.get("metric"))
    _check_ids(path, where, "dataset", [pins.dataset], catalogue)
    _check_ids(path, where, "configuration", [pins.configuration], catalogue)
    _check_ids(path, where, "metric", [pins.metric], catalogue)
    return pins


def load_overrides(path: Path, catalogue: Catalogue, source_id: str) -> SourcePins:
    """The pins for one source (none when the file is absent); ConfigError naming the file when invalid."""
    if not path.is_file():
        return SourcePins()
    data = read_yaml(path, schema_validator("pipeline.mapping", "overrides.schema.json")) or {}
    sources = data.get("sources") or {}
    pins = SourcePins()
    for sid, entry in sources.items():
        tables = {
            key: _table_pins(path, f"sources/{sid}/tables/{key}", value, catalogue)
            for key, value in (entry.get("tables") or {}).items()
        }
        cells = {
            key: _cell_pins(path, f"sources/{sid}/cells/{key}", value, catalogue)
            for key, value in (entry.get("cells") or {}).items()
        }
        if sid == source_id:
            pins = SourcePins(tables, cells)
    return pins
