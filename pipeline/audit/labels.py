"""What a row or column label names: a catalogue dataset, a model, an aggregate ("Mean", "Total")."""

from __future__ import annotations

import re

from pipeline.audit.context import AuditInput
from pipeline.audit.tableview import TableView
from pipeline.catalogue import Catalogue, DatasetDef, compact_label

MEAN_LABEL = re.compile(r"^\s*(?:mean|avg\.?|average|averaged|macro[- ]?(?:avg\.?|average))\b", re.IGNORECASE)
SUM_LABEL = re.compile(r"^\s*(?:sum|total)\b", re.IGNORECASE)
# "Overall" (or "All") is a mean of its parts or a figure pooled over them (weighted by their sizes): the parts alone
# settle it only when the caption calls it a mean.
POOLED_LABEL = re.compile(
    r"^\s*(?:overall|all (?:tasks|datasets|benchmarks|samples|patients|participants|subjects|cases)\b"
    r"|(?-i:All|ALL)(?=\s*(?:$|\()))",  # lower-case "all" is a dataset (the promoter datasets of GUE)
    re.IGNORECASE,
)
_OTHER_AVERAGE = re.compile(r"\b(?:weighted|w\.|geometric|geo\.|harmonic|median|rank)", re.IGNORECASE)

OWN_MARK = re.compile(r"\s*[(\[](?:ours|new|this work)[)\]]\s*$", re.IGNORECASE)  # "Human OCR Ensembl (ours)"


def aggregate_kind(label: str) -> str | None:
    """The aggregate a label announces: "mean" ("Mean", "Avg.", "Average") or "sum" ("Sum", "Total").

    None otherwise, and for weighted, geometric or harmonic means and medians, which the parts alone do not give.
    """
    if _OTHER_AVERAGE.search(label):
        return None
    if MEAN_LABEL.match(label) or POOLED_LABEL.match(label):
        return "mean"
    if SUM_LABEL.match(label):
        return "sum"
    return None


def announces_aggregate(label: str) -> bool:
    """The label says the line summarises others (a mean, sum, median, rank, ...), whether or not the parts give it."""
    return bool(_OTHER_AVERAGE.search(label) or aggregate_kind(label))


def may_be_weighted(label: str, caption: str) -> bool:
    """An "Overall" line the caption does not call an (unweighted) mean: it may be pooled over its parts."""
    if not POOLED_LABEL.match(label):
        return False
    said = re.search(rf"(?<!\w){re.escape(label.strip())}(?!\w)[^.;]{{0,60}}?\b(?:mean|averag\w*)\b", caption, re.I)
    return said is None or re.search(r"\bweight", said.group(0), re.I) is not None


def find_dataset(catalogue: Catalogue, label: str) -> DatasetDef | None:
    """The one dataset printed this way, or None when none or several are."""
    found = catalogue.datasets_printed_as(label)
    return found[0] if len(found) == 1 else None


def row_dataset(inp: AuditInput, view: TableView, row: int) -> DatasetDef | None:
    """The catalogue dataset a row reports on: from its records, else from its label."""
    catalogue = inp.catalogue
    if catalogue is None:
        return None
    for col in view.value_cols:
        record = inp.record_at(view.table, (row, col))
        if record is not None and record.dataset:
            found = catalogue.dataset_by_name(record.dataset)
            if found is not None:
                return found
    label = OWN_MARK.sub("", view.row_labels.get(row, ""))
    candidates = [label, label.replace(" / ", " "), *label.split(" / ")[::-1]]
    for candidate in candidates:
        found = find_dataset(catalogue, candidate)
        if found is not None:
            return found
    return None


def column_key(inp: AuditInput, view: TableView, col: int) -> str:
    """What a column stands for, comparable across tables: its configuration, else its compact label."""
    for row in view.body_rows:
        record = inp.record_at(view.table, (row, col))
        if record is not None and record.configuration:
            return f"config:{record.configuration}|{record.metric or ''}"
    return "label:" + compact_label(view.col_label(col))


def model_names(catalogue: Catalogue | None) -> set[str]:
    """Compact forms of every model and configuration name the catalogue knows."""
    if catalogue is None:
        return set()
    return {compact_label(n) for c in catalogue.configurations for n in (*c.names, c.model)}


def model_axis(inp: AuditInput, view: TableView) -> str | None:
    """Where a table's models are: "col" (one per column) or "row"; None when nothing tells."""
    key = ("model_axis", id(view))
    if key not in inp.cache:
        inp.cache[key] = _records_axis(inp, view) or _catalogue_axis(inp.catalogue, view)
    return inp.cache[key]  # type: ignore[no-any-return]


def _records_axis(inp: AuditInput, view: TableView) -> str | None:
    """Columns if a row's records name several configurations, rows if a column's do."""
    by_row: dict[int, set[str]] = {}
    by_col: dict[int, set[str]] = {}
    for row, col in view.numbers:
        record = inp.record_at(view.table, (row, col))
        name = record.configuration or record.model if record is not None else None
        if name:
            by_row.setdefault(row, set()).add(name)
            by_col.setdefault(col, set()).add(name)
    varies_in_rows = sum(len(v) > 1 for v in by_row.values())
    varies_in_cols = sum(len(v) > 1 for v in by_col.values())
    if varies_in_rows == varies_in_cols:
        return None
    return "col" if varies_in_rows > varies_in_cols else "row"


def _catalogue_axis(catalogue: Catalogue | None, view: TableView) -> str | None:
    names = model_names(catalogue)
    if not names:
        return None
    in_cols = sum(any(compact_label(p) in names for p in view.col_paths.get(c, [])) for c in view.value_cols)
    in_rows = sum(
        any(compact_label(part) in names for part in view.row_labels.get(r, "").split(" / ")) for r in view.body_rows
    )
    if in_cols == in_rows:
        return None
    return "col" if in_cols > in_rows else "row"


def groups_name_models(inp: AuditInput, view: TableView) -> bool:
    """The spanning header cells are models, each over its own metric columns ("NT: MSE, Spearman")."""
    groups = {g for c in view.value_cols if (g := view.col_groups.get(c)) is not None}
    if len(groups) < 2:
        return False
    names = model_names(inp.catalogue)
    if sum(compact_label(view.text(*g)) in names for g in groups) * 2 > len(groups):
        return True
    by_group: dict[tuple[int, int], set[str]] = {}
    for row, col in view.numbers:
        group, record = view.col_groups.get(col), inp.record_at(view.table, (row, col))
        name = record.configuration or record.model if record is not None else None
        if group is not None and name:
            by_group.setdefault(group, set()).add(name)
    distinct = set().union(*by_group.values()) if by_group else set()
    return len(by_group) >= 2 and all(len(n) == 1 for n in by_group.values()) and len(distinct) == len(by_group)
