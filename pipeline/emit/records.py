"""One Record per mapped cell, built from tables.json and mapping.json alone (the catalogue facts were
copied into the mapping), so the same two files always give the same records."""

from __future__ import annotations

import re
from typing import Any

from pipeline.errors import BadInputError
from pipeline.mapping.model import CellMapping, MappingFile, TableMapping
from pipeline.model import Cell, Record, Table, TablesFile

NOT_REPORTED = "Not reported"
NO_UNCERTAINTY = "Not reported by the source"

# What a caption calls the printed spread ("0.522 (0.019)", "88.5 ± 0.4").
_SPREADS = (
    (re.compile(r"standard errors?|\bs\.?e\.?m?\b", re.IGNORECASE), "standard error"),
    (re.compile(r"standard deviations?|\bs\.?d\.?\b|\bstd\b", re.IGNORECASE), "standard deviation"),
    (re.compile(r"confidence intervals?|\bCI\b"), "confidence interval"),
)


class StaleMappingError(BadInputError):
    """mapping.json was made from another tables.json than the one on disk."""


def spread_kind(caption: str) -> str | None:
    for pattern, kind in _SPREADS:
        if pattern.search(caption):
            return kind
    return None


def uncertainty_text(cell: Cell, caption: str) -> str:
    if cell.plus_minus is None:
        return NO_UNCERTAINTY
    kind = spread_kind(caption)
    what = f"the caption calls it the {kind}" if kind else "the source does not say what it is"
    return f"±{cell.plus_minus:g} as printed ('{cell.text}'); {what}"


def evidence_of(cell: Cell) -> str:
    """How many readings stand behind the printed value (pipeline/readers/agreement.py)."""
    if cell.second_reading is None:
        return "one reading"
    return "two readings" if cell.second_reading.agrees else "readings disagree"


def limitations_of(mapped: CellMapping) -> list[str]:
    """What a reviewer should know about how the number was linked."""
    notes = []
    metric = mapped.metric
    if metric.printed_as:
        standard = "" if mapped.facts.metric_standard else ", not a standard metric name"
        where = f"the {metric.source} '{metric.label}'"
        notes.append(f"Metric '{metric.printed_as}' as printed in {where}{standard}; recorded as {metric.name}.")
    if mapped.metric.method == "default":
        notes.append(
            f"No metric printed with the value; {mapped.metric.name} is the catalogue's metric for the dataset."
        )
    for link in (mapped.dataset, mapped.configuration):
        if link.method == "fuzzy":
            notes.append(f"{link.kind.capitalize()} linked by a fuzzy match (score {link.score:g}) of '{link.label}'.")
    return notes


def _mapping_of(mapped: CellMapping, table: TableMapping) -> dict[str, Any]:
    facts = mapped.facts
    return {
        "ids": {
            "dataset": mapped.dataset.id,
            "configuration": mapped.configuration.id,
            "metric": mapped.metric.id,
            "protocol": facts.protocol,
            "benchmark": facts.benchmark,
        },
        "dataset": mapped.dataset.to_dict(),
        "configuration": mapped.configuration.to_dict(),
        "metric": mapped.metric.to_dict(),
        "orientation": table.orientation or "",
        "benchmark_reason": table.benchmark.reason if table.benchmark else "",
        "manual": any(link.manual for link in (mapped.dataset, mapped.configuration, mapped.metric)),
        "metric_printed": mapped.metric.printed_as or mapped.metric.id,
        "metric_standard": facts.metric_standard,
        "valid_range": list(facts.valid_range),
    }


def build_record(source: dict[str, Any], table: Table, cell: Cell, mapped: CellMapping, tm: TableMapping) -> Record:
    facts = mapped.facts
    return Record(
        id=f"rec:{mapped.locator}",
        source_id=str(source.get("id")),
        source_sha256=str(source.get("sha256")),
        table_label=table.label,
        page=cell.locator.page if cell.locator else table.page,
        bbox=cell.bbox,
        locator=mapped.locator,
        locator_readable=mapped.locator_readable,
        printed=cell.text,
        value=cell.value,
        plus_minus=cell.plus_minus,
        percent=cell.percent,
        metric=mapped.metric.id,
        unit=facts.unit,
        direction=facts.direction,
        configuration=mapped.configuration.name,
        model=facts.model,
        protocol=facts.protocol_name,
        dataset=mapped.dataset.name,
        benchmark=facts.benchmark_name,
        catalogue_value=mapped.scale.catalogue_value,
        rescale=mapped.scale.note,
        uncertainty=uncertainty_text(cell, table.caption),
        aggregation=mapped.aggregation or NOT_REPORTED,
        also_published_in=list(facts.also_published_in),
        mapping=_mapping_of(mapped, tm),
        limitations=limitations_of(mapped),
        evidence=evidence_of(cell),
        regime=mapped.regime,
    )


def _table_for(tables: TablesFile, tm: TableMapping) -> Table:
    for table in tables.tables:
        if table.index == tm.index and table.label == tm.label:
            return table
    raise StaleMappingError(f"mapping.json names table {tm.label or tm.index!r}, which tables.json lacks")


def _cell_for(table: Table, mapped: CellMapping) -> Cell:
    for cell in table.cells:
        if (cell.row, cell.col) == (mapped.row, mapped.col) and cell.text == mapped.text:
            return cell
    raise StaleMappingError(f"mapping.json cell {mapped.locator_readable!r} is not in tables.json")


def build_records(tables: TablesFile, mapping: MappingFile) -> list[Record]:
    """Every mapped cell as a Record, in table, row and column order."""
    if mapping.source.get("sha256") != tables.source.get("sha256"):
        raise StaleMappingError("mapping.json and tables.json describe different PDFs (source SHA-256 differs)")
    records = []
    for tm in sorted(mapping.tables, key=lambda t: t.index):
        if not tm.cells:
            continue
        table = _table_for(tables, tm)
        for mapped in sorted(tm.cells, key=lambda c: (c.row, c.col)):
            records.append(build_record(tables.source, table, _cell_for(table, mapped), mapped, tm))
    return records
