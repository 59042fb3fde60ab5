"""Aggregation notes: when a printed number summarises other rows (a "Mean" row, a task-level value)."""

from __future__ import annotations

import re
from collections import defaultdict

from pipeline.catalogue import Catalogue, DatasetDef, normalize_label
from pipeline.mapping.links import AGGREGATE_WORDS
from pipeline.mapping.model import CellMapping, TableMapping
from pipeline.model import where_printed

_NUMBER = re.compile(r"\d+(?:\.(\d+))?")


def table_name(label: str | None, index: int, page: int, artifact: str = "") -> str:
    return label or f"Unlabelled table {index + 1} ({where_printed(page, artifact)})"


def _parts(catalogue: Catalogue, dataset: DatasetDef) -> list[DatasetDef]:
    """The dataset-level entries of a task (its parts that are not themselves aggregates)."""
    return [
        d
        for d in catalogue.datasets_of(dataset.benchmark)
        if d.task == dataset.task and d.part and normalize_label(d.part) not in AGGREGATE_WORDS
    ]


def aggregation_note(catalogue: Catalogue, dataset: DatasetDef, row_word: str | None, table: str) -> str | None:
    """How the value was formed, as far as the table and catalogue say; None for a plain dataset value."""
    if dataset.part and normalize_label(dataset.part) in AGGREGATE_WORDS:
        others = [d.part for d in _parts(catalogue, dataset) if d.part]
        listed = " and ".join([", ".join(others[:-1]), others[-1]] if len(others) > 1 else others)
        return (
            f"{dataset.part.lower()} of {listed} as printed in {table}"
            if others
            else f"aggregate as printed in {table}"
        )
    if dataset.part is None and row_word:
        return f"{row_word.lower()} of the {dataset.task} dataset rows as printed in {table}"
    if dataset.part is None and _parts(catalogue, dataset):
        return f"task-level value as printed in {table}"
    return None


def half_unit(text: str) -> float:
    """Half the unit of the last printed digit ("0.745" -> 0.0005): how far rounding may have moved the value."""
    number = _NUMBER.search(text)
    return 0.5 * 10.0 ** -len(number.group(1) or "") if number else 0.0


def is_mean_of(value: CellMapping, parts: list[CellMapping]) -> bool:
    """Whether a printed value equals the mean of printed parts within the rounding of both (catalogue units);
    parts naming a dataset twice (two settings of one model) do not say which to average."""
    if len(parts) < 2 or len({p.dataset.id for p in parts}) < len(parts):
        return False
    mean = sum(p.scale.catalogue_value for p in parts) / len(parts)
    slack = half_unit(value.text) * value.scale.factor
    slack += sum(half_unit(p.text) * p.scale.factor for p in parts) / len(parts)
    return abs(value.scale.catalogue_value - mean) <= slack + 1e-9


def add_cross_table_notes(tables: list[TableMapping], catalogue: Catalogue) -> None:
    """A task-level value that is the mean of the same task's dataset rows printed in another table names that
    table ("...; mean of the Table 10 dataset rows"), so a reviewer can check one against the other."""
    parts_in: dict[tuple[str, str, str], dict[str, list[CellMapping]]] = defaultdict(lambda: defaultdict(list))
    for table in tables:
        name = table_name(table.label, table.index, table.page)
        for cell in table.cells:
            dataset = catalogue.dataset(cell.dataset.id) if cell.dataset.id else None
            if dataset is None or not dataset.part or normalize_label(dataset.part) in AGGREGATE_WORDS:
                continue
            parts_in[_key(dataset, cell)][name].append(cell)
    for table in tables:
        for cell in table.cells:
            if not cell.aggregation or not cell.aggregation.startswith("task-level value") or not cell.dataset.id:
                continue
            holders = parts_in.get(_key(catalogue.dataset(cell.dataset.id), cell), {})
            matching = [name for name, parts in holders.items() if is_mean_of(cell, parts)]
            if not matching and is_mean_of(cell, [p for parts in holders.values() for p in parts]):
                matching = list(holders)
            if matching:
                cell.aggregation += f"; mean of the {' and '.join(matching)} dataset rows"


def _key(dataset: DatasetDef, cell: CellMapping) -> tuple[str, str, str]:
    """Cells of one task, one configuration and one metric: the values a task-level value may average."""
    return (f"{dataset.benchmark}/{dataset.task}", str(cell.configuration.id), str(cell.metric.id))
