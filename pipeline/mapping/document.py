"""Mapping every table of one source (a pure function: tables and catalogue in, mapping out)."""

from __future__ import annotations

from typing import Any

from pipeline.catalogue import Catalogue
from pipeline.mapping.aggregates import add_cross_table_notes
from pipeline.mapping.links import Linker
from pipeline.mapping.model import MappingFile
from pipeline.mapping.overrides import SourcePins
from pipeline.mapping.table import TableMapper
from pipeline.model import TablesFile


def map_tables(
    tables: TablesFile,
    catalogue: Catalogue,
    pins: SourcePins | None = None,
    tables_sha256: str = "",
    catalogue_info: dict[str, Any] | None = None,
) -> MappingFile:
    """Link every value cell of every table to the catalogue, or list it as unmapped with the reasons."""
    pins = pins or SourcePins()
    linker = Linker(catalogue)
    source_sha256 = str(tables.source.get("sha256", ""))
    mapped = [TableMapper(table, linker, pins).map(source_sha256) for table in tables.tables]
    add_cross_table_notes(mapped, catalogue)
    return MappingFile(
        source={"id": tables.source.get("id"), "sha256": source_sha256},
        tables_sha256=tables_sha256,
        catalogue=catalogue_info or {"digest": catalogue.digest},
        overrides={"used": sorted(pins.used), "unused": pins.unused()},
        tables=mapped,
    )
