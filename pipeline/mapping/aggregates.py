"""Aggregation notes: when a printed number summarises other rows (a "Mean" row, a task-level value)."""

from __future__ import annotations

from collections import defaultdict

from pipeline.catalogue import Catalogue, DatasetDef, normalize_label
from pipeline.mapping.links import AGGREGATE_WORDS
from pipeline.mapping.model import TableMapping


def table_name(label: str | None, index: int, page: int) -> str:
    return label or f"Unlabelled table {index + 1} (page {page})"


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


def add_cross_table_notes(tables: list[TableMapping], catalogue: Catalogue) -> None:
    """Task-level values name the tables holding the same task's dataset rows ("...; mean of the Table 10
    dataset rows"), so a reviewer can check one against the other."""
    tables_of_part: dict[tuple[str, str], list[str]] = defaultdict(list)
    for table in tables:
        name = table_name(table.label, table.index, table.page)
        for cell in table.cells:
            dataset = catalogue.dataset(cell.dataset.id) if cell.dataset.id else None
            if dataset is None or not dataset.part or normalize_label(dataset.part) in AGGREGATE_WORDS:
                continue
            if name not in tables_of_part[(dataset.benchmark, dataset.task)]:
                tables_of_part[(dataset.benchmark, dataset.task)].append(name)
    for table in tables:
        for cell in table.cells:
            if not cell.aggregation or not cell.aggregation.startswith("task-level value") or not cell.dataset.id:
                continue
            dataset = catalogue.dataset(cell.dataset.id)
            holders = tables_of_part.get((dataset.benchmark, dataset.task))
            if holders:
                cell.aggregation += f"; mean of the {' and '.join(holders)} dataset rows"
