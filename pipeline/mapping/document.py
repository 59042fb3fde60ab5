"""Mapping every table of one source (a pure function: tables and catalogue in, mapping out)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from pipeline.catalogue import Catalogue
from pipeline.mapping.aggregates import add_cross_table_notes
from pipeline.mapping.benchmark import introduced_benchmark
from pipeline.mapping.links import Linker
from pipeline.mapping.model import MappingFile, TableMapping
from pipeline.mapping.overrides import SourcePins
from pipeline.mapping.settings import MapSettings
from pipeline.mapping.table import TableMapper
from pipeline.model import TablesFile
from pipeline.progress import steps


def map_tables(
    tables: TablesFile,
    catalogue: Catalogue,
    pins: SourcePins | None = None,
    tables_sha256: str = "",
    catalogue_info: dict[str, Any] | None = None,
    settings: MapSettings | None = None,
) -> MappingFile:
    """Link every value cell of every table to the catalogue, or list it as unmapped with the reasons."""
    pins = pins or SourcePins()
    linker = Linker(catalogue, settings)
    source_sha256 = str(tables.source.get("sha256", ""))
    own = introduced_benchmark(linker, tables.source.get("title"))
    each = steps(tables.tables, len(tables.tables), "tables")
    mapped = [TableMapper(table, linker, pins, own, own).map(source_sha256) for table in each]
    document = own or _main_benchmark(mapped)
    if document is not None:  # a second look at the other tables: a near tie goes to the paper's benchmark
        mapped = [
            m
            if m.benchmark is None or m.benchmark.id == document
            else TableMapper(t, linker, pins, document, own).map(source_sha256)
            for t, m in zip(tables.tables, mapped, strict=True)
        ]
    add_cross_table_notes(mapped, catalogue)
    return MappingFile(
        source={"id": tables.source.get("id"), "sha256": source_sha256},
        tables_sha256=tables_sha256,
        catalogue=catalogue_info or {"digest": catalogue.digest},
        overrides={"used": sorted(pins.used), "unused": pins.unused()},
        tables=mapped,
    )


def _main_benchmark(mapped: list[TableMapping]) -> str | None:
    """The benchmark more of the source's tables report than any other (None without a clear one)."""
    counts = Counter(m.benchmark.id for m in mapped if m.benchmark is not None and m.benchmark.id is not None)
    ranked = counts.most_common(2)
    if not ranked or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
        return None
    return ranked[0][0]
