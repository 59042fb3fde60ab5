"""What the map stage decides (extracted/<source>/mapping.json): a link per cell, each with its evidence."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

MODELS_IN_COLUMNS = "models in columns"
MODELS_IN_ROWS = "models in rows"


@dataclass
class Alternative:
    """A catalogue entry the matcher considered and did not pick."""

    id: str
    name: str
    score: float


@dataclass
class Link:
    """One decision: a printed label linked to a catalogue entry (or to nothing), and why."""

    kind: str  # "dataset" | "configuration" | "metric" | "benchmark"
    id: str | None  # None: linked to nothing
    name: str | None
    label: str  # the printed text the decision rests on
    source: str  # where that text sits: "row", "column", "caption", "catalogue", "override"
    score: float  # rapidfuzz score, 0-100 (100: equal ignoring case and punctuation)
    method: str  # "exact" | "fuzzy" | "printed" | "default" | "labels" | "manual" | "none"
    reason: str
    alternatives: list[Alternative] = field(default_factory=list)
    printed_as: str | None = None  # the id the printed label names, when recorded as another ("top-1" -> accuracy)

    @property
    def manual(self) -> bool:
        return self.method == "manual"

    def to_dict(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "manual": self.manual}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Link:
        names = {f.name for f in dataclasses.fields(cls)}
        kw = {k: v for k, v in data.items() if k in names}
        kw["alternatives"] = [Alternative(**a) for a in data.get("alternatives", [])]
        return cls(**kw)


@dataclass
class Scale:
    """How a printed value becomes a value in the catalogue's unit."""

    printed: str  # "percent" | "as catalogue unit"
    factor: float  # catalogue value = printed value * factor
    catalogue_value: float
    note: str | None = None  # the recorded rescale, None when nothing was rescaled


@dataclass
class CatalogueFacts:
    """What the catalogue says about a mapped cell, copied in so that emit needs only this file."""

    benchmark: str
    benchmark_name: str
    protocol: str
    protocol_name: str
    model: str
    unit: str
    direction: str
    metric_standard: bool  # of the metric as printed
    valid_range: tuple[float | None, float | None]
    also_published_in: tuple[str, ...] = ()  # the same data in other benchmarks


@dataclass
class CellMapping:
    row: int
    col: int
    locator: str
    locator_readable: str
    text: str
    dataset: Link
    configuration: Link
    metric: Link
    scale: Scale
    facts: CatalogueFacts
    aggregation: str | None = None
    regime: str | None = None  # "full-shot", "10-shot": the data regime printed with it (pipeline/mapping/regime.py)

    def to_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        for key in ("dataset", "configuration", "metric"):
            data[key] = getattr(self, key).to_dict()
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CellMapping:
        kw = dict(data)
        for key in ("dataset", "configuration", "metric"):
            kw[key] = Link.from_dict(data[key])
        kw["scale"] = Scale(**data["scale"])
        facts = dict(data["facts"])
        facts["valid_range"] = tuple(facts["valid_range"])
        facts["also_published_in"] = tuple(facts.get("also_published_in", ()))
        kw["facts"] = CatalogueFacts(**facts)
        return cls(**kw)


@dataclass
class UnmappedCell:
    """A numeric cell that maps to nothing (or is skipped as a setting), and why: listed, never dropped silently."""

    row: int
    col: int
    locator: str
    locator_readable: str
    text: str
    reasons: list[str]
    links: list[Link] = field(default_factory=list)  # the dataset, configuration and metric decisions, when made

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> UnmappedCell:
        kw = {k: v for k, v in data.items() if k != "links"}
        return cls(**kw, links=[Link.from_dict(link) for link in data.get("links", [])])


@dataclass
class TableMapping:
    index: int
    label: str | None
    page: int
    status: str  # "mapped" | "ignored" | "no values"
    orientation: str | None = None
    orientation_reason: str = ""
    benchmark: Link | None = None
    cells: list[CellMapping] = field(default_factory=list)
    unmapped: list[UnmappedCell] = field(default_factory=list)
    skipped: list[UnmappedCell] = field(default_factory=list)  # settings or statistics, not results

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "label": self.label,
            "page": self.page,
            "status": self.status,
            "orientation": self.orientation,
            "orientation_reason": self.orientation_reason,
            "benchmark": self.benchmark.to_dict() if self.benchmark else None,
            "cells": [c.to_dict() for c in self.cells],
            "unmapped": [dataclasses.asdict(u) for u in self.unmapped],
            "skipped": [dataclasses.asdict(u) for u in self.skipped],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableMapping:
        return cls(
            index=data["index"],
            label=data.get("label"),
            page=data["page"],
            status=data["status"],
            orientation=data.get("orientation"),
            orientation_reason=data.get("orientation_reason", ""),
            benchmark=Link.from_dict(data["benchmark"]) if data.get("benchmark") else None,
            cells=[CellMapping.from_dict(c) for c in data.get("cells", [])],
            unmapped=[UnmappedCell.from_dict(u) for u in data.get("unmapped", [])],
            skipped=[UnmappedCell.from_dict(u) for u in data.get("skipped", [])],
        )


@dataclass
class MappingFile:
    """The map stage's output for one source."""

    source: dict[str, Any]  # id and sha256
    tables_sha256: str  # the tables.json this mapping was made from
    catalogue: dict[str, Any]  # where the catalogue came from and its digest
    overrides: dict[str, Any]  # pins used and pins that matched nothing
    tables: list[TableMapping] = field(default_factory=list)

    @property
    def summary(self) -> dict[str, int]:
        cells = [c for t in self.tables for c in t.cells]
        return {
            "tables": len(self.tables),
            "tables_mapped": sum(t.status == "mapped" for t in self.tables),
            "tables_ignored": sum(t.status == "ignored" for t in self.tables),
            "cells_mapped": len(cells),
            "cells_unmapped": sum(len(t.unmapped) for t in self.tables),
            "cells_skipped": sum(len(t.skipped) for t in self.tables),
            "cells_rescaled": sum(c.scale.note is not None for c in cells),
            "links_manual": sum(link.manual for c in cells for link in (c.dataset, c.configuration, c.metric)),
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "tables_sha256": self.tables_sha256,
            "catalogue": self.catalogue,
            "overrides": self.overrides,
            "summary": self.summary,
            "tables": [t.to_dict() for t in self.tables],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MappingFile:
        return cls(
            source=data["source"],
            tables_sha256=data["tables_sha256"],
            catalogue=data.get("catalogue", {}),
            overrides=data.get("overrides", {}),
            tables=[TableMapping.from_dict(t) for t in data.get("tables", [])],
        )
