"""cross-table-mean: a task-level value in one table proved (interval arithmetic, per model) to be the mean of
the same task's dataset rows in another table, or proved not to be.

Papers print one value per task in a summary table and the per-dataset values in an appendix table, and say
at most that one "summarises" the other. The records say which cells are which: a record of a task-level
dataset (a task the catalogue splits into datasets) and the records of that task's datasets elsewhere, for
the same configuration and metric. Each printed number stands for the interval its last digit allows (percent
values are put on the catalogue's scale first), so "the mean holds" means the intervals meet, and "it does
not" is a proof under any rounding. A mean that holds is a note (with the limitation in words); one that does
not, a warning.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

from pipeline.audit.checks.base import Issue
from pipeline.audit.context import AuditInput, nearest, table_key_of
from pipeline.audit.tableview import Pos, TableView
from pipeline.catalogue import Catalogue, DatasetDef
from pipeline.model import Record
from pipeline.numbers import Interval, parse_number


@dataclass(frozen=True)
class _Cell:
    record: Record
    view: TableView
    pos: Pos
    interval: Interval


def check_cross_table_means(inp: AuditInput) -> list[Issue]:
    catalogue = inp.catalogue
    if catalogue is None or not inp.records:
        return []
    views = {table_key_of(v.table): v for v in inp.views}
    cells: dict[tuple[str, str, str], list[tuple[DatasetDef, _Cell]]] = defaultdict(list)  # task, config, metric
    for record in inp.records:
        found = _cell(inp, record, views)
        dataset = catalogue.dataset_by_name(record.dataset or "")
        if found is not None and dataset is not None and record.configuration and record.metric:
            cells[dataset.benchmark + "|" + dataset.task, record.configuration, record.metric].append((dataset, found))
    groups: dict[tuple[str, str, str], list[tuple[_Cell, list[_Cell]]]] = defaultdict(list)
    for items in cells.values():
        # the parts by the label of their table, then by table: a label printed more than once (a volume, a
        # supplement restarting its numbering) is read as the table of that label nearest the summary
        by_label: dict[str, dict[int, list[_Cell]]] = defaultdict(lambda: defaultdict(list))
        for d, c in items:
            if d.part:
                by_label[c.view.table.label or ""][id(c.view.table)].append(c)
        ordered = {
            label: sorted(tables.values(), key=lambda parts: (parts[0].view.table.page, parts[0].view.table.index))
            for label, tables in by_label.items()
        }
        for task_cell in (c for d, c in items if not d.part and _has_parts(catalogue, d)):
            label = task_cell.view.table.label or ""
            for other, tables in ordered.items():
                parts = nearest(tables, task_cell.view.table.page, lambda p: p[0].view.table.page) or []
                if other != label and len(parts) >= 2:
                    key = (table_key_of(task_cell.view.table), task_cell.record.dataset or "", other)
                    groups[key].append((task_cell, parts))
    return [_issue(items) for items in groups.values()]


def _cell(inp: AuditInput, record: Record, views: dict[str, TableView]) -> _Cell | None:
    position = inp.index.position(record.locator or "")
    printed = parse_number(record.printed)
    if position is None or position[0] not in views or printed is None:
        return None
    interval = printed.interval.scaled(Fraction(1, 100)) if record.rescale else printed.interval
    return _Cell(record, views[position[0]], (position[1], position[2]), interval)


def _has_parts(catalogue: Catalogue, dataset: DatasetDef) -> bool:
    return any(d.task == dataset.task and d.part for d in catalogue.datasets_of(dataset.benchmark))


def _mean(parts: list[_Cell]) -> Interval:
    total = parts[0].interval
    for part in parts[1:]:
        total = total + part.interval
    return total.scaled(Fraction(1, len(parts)))


def _issue(items: list[tuple[_Cell, list[_Cell]]]) -> Issue:
    task_cell, parts = items[0]
    view, other = task_cell.view, parts[0].view.table.label or "another table"
    here = view.table.label or "this table"
    row_label = view.row_labels.get(task_cell.pos[0]) or task_cell.record.dataset or ""
    lines, failed = [], []
    for whole, pieces in items:
        mean = _mean(pieces)
        holds = whole.interval.overlaps(mean)
        printed = ", ".join(p.record.printed for p in pieces)
        lines.append(
            f"{whole.record.configuration}: {whole.record.printed} vs mean({printed}) in {mean.describe(5)}"
            + ("" if holds else " - does not hold")
        )
        if not holds:
            failed.append(whole.record.configuration or "")
    datasets = ", ".join(dict.fromkeys(_part_name(p.record) for p in parts))
    limitation = f"{here} rows for multi-dataset tasks are means of the {other} dataset rows."
    if failed:
        message = (
            f"task-level row '{row_label}' in {here} is not the mean of its dataset rows in {other} ({datasets}) "
            f"for {len(failed)} of {len(items)} model(s) ({', '.join(failed)}), beyond rounding: " + "; ".join(lines)
        )
    else:
        message = (
            f"task-level row '{row_label}' in {here} is the mean of its dataset rows in {other} ({datasets}) for "
            f"all {len(items)} model(s), within rounding; the paper does not print how the task value was formed: "
            + "; ".join(lines)
        )
    return Issue(
        message,
        table=view.table,
        cells=[whole.pos for whole, _ in items],
        scope="cells",
        subjects=[whole.pos for whole, _ in items],
        elsewhere=[(p.view.table, p.pos) for _, pieces in items for p in pieces],
        expected="mean of the dataset rows",
        found={"computations": lines, "failed": failed},
        severity="warning" if failed else "info",
        details={
            "limitation": True,
            "limitation_text": limitation,
            "aggregation": f"mean of the {other} dataset rows",
            "parts_table": other,
        },
    )


def _part_name(record: Record) -> str:
    name = record.dataset or ""
    return name.rsplit(", dataset ", 1)[-1] if ", dataset " in name else name.rsplit("(", 1)[-1].rstrip(")")
