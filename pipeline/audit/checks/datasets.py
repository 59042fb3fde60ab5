"""dataset-reused: a dataset the catalogue knows from another benchmark (GUE, Genomic Benchmarks),
reported under this paper's own protocol, so its numbers do not compare with that benchmark's.

One finding per dataset family (a task and its datasets; single-dataset tasks grouped by the benchmark they
come from), however many rows, columns and tables report it. The datasets of a table come from its records
(in rows or columns), else from its row labels. A dataset is reused when the catalogue says it was published
before elsewhere (``also_published_in``), or, with records, when it belongs to a benchmark other than the one
most of the paper's records belong to, or, when no benchmark dominates, when the paper presents a catalogued
dataset as new. It is a warning when the paper presents the dataset as its own ("we introduce a new enhancer
dataset, Human Enhancers Cohn", "released here", a row marked "(ours)") or never names where it comes from; a
note (info) when the paper credits the other benchmark.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from pipeline.audit.checks.base import Issue
from pipeline.audit.context import AuditInput
from pipeline.audit.labels import OWN_MARK, row_dataset
from pipeline.audit.tableview import Pos, TableView
from pipeline.audit.text import Sentence
from pipeline.catalogue import DatasetDef

_DOMINANT = 0.6  # share of records a benchmark needs to count as the paper's own
_OWN = re.compile(
    r"\b(?:introduc\w*|new|novel|our own|in-house"
    r"|we (?:have |also )?(?:collect|curat|creat|construct|buil|assembl|label|releas|compil|gather|contribut"
    r"|put together)\w*"
    r"|we (?:propose|present) an? (?:[\w-]+ ){0,3}?(?:dataset|benchmark|corpus|collection)"
    r"|released (?:here|alongside|with (?:this|our))|this (?:work|study|paper))\b|\((?:ours|new)\)",
    re.IGNORECASE,
)


@dataclass
class _Use:
    """Where a table reports a reused dataset: the label as printed and the cells (stub first when a row)."""

    view: TableView
    label: str
    dataset: DatasetDef
    cells: list[Pos]
    values: list[Pos]


def check_reused_datasets(inp: AuditInput) -> list[Issue]:
    """One finding per dataset family (a benchmark's task with its datasets), wherever the paper reports it."""
    if inp.catalogue is None:
        return []
    own = _own_benchmark(inp)
    families: dict[tuple[str, str], list[_Use]] = {}
    for view in inp.views:
        for use in _uses(inp, view, own):
            families.setdefault(_family(inp, use.dataset), []).append(use)
    return [_issue(inp, uses, own) for uses in families.values()]


def _family(inp: AuditInput, dataset: DatasetDef) -> tuple[str, str]:
    """A task with several datasets is one family; datasets that are tasks of their own group by the
    benchmark they were published in before ("Genomic Benchmarks")."""
    catalogue = inp.catalogue
    parts = catalogue is not None and any(
        d.task == dataset.task and d.part for d in catalogue.datasets_of(dataset.benchmark)
    )
    if parts or not dataset.also_published_in:
        return dataset.benchmark, dataset.task or dataset.name
    return dataset.benchmark, "from " + (_origins(inp, dataset) or [dataset.also_published_in[0]])[0]


def _uses(inp: AuditInput, view: TableView, own: str | None) -> list[_Use]:
    """Reused datasets of a table: from its records (datasets in rows or columns), else from its row labels."""
    catalogue = inp.catalogue
    by_dataset: dict[str, list[Pos]] = {}
    for pos in sorted(view.numbers):
        record = inp.record_at(view.table, pos)
        found = catalogue.dataset_by_name(record.dataset) if catalogue and record and record.dataset else None
        if found is not None and _is_reused(inp, view, found, own):
            by_dataset.setdefault(found.id, []).append(pos)
    if by_dataset and catalogue is not None:
        return [_use(view, catalogue.dataset(d), cells) for d, cells in by_dataset.items()]
    uses = []
    for row in view.body_rows:
        dataset = _reused(inp, view, row, own)
        if dataset is not None:
            uses.append(_use(view, dataset, [(row, c) for c in view.value_cols if (row, c) in view.numbers]))
    return uses


def _use(view: TableView, dataset: DatasetDef, values: list[Pos]) -> _Use:
    rows, cols = {r for r, _ in values}, {c for _, c in values}
    if len(rows) == 1:
        row = next(iter(rows))
        stub = [(row, c) for c in range(view.table.stub_cols) if view.text(row, c).strip()]
        return _Use(view, view.row_labels.get(row, ""), dataset, [*stub[:1], *values], values)
    label = view.col_label(next(iter(cols))) if len(cols) == 1 else dataset.name
    return _Use(view, label, dataset, values, values)


def _is_reused(inp: AuditInput, view: TableView, dataset: DatasetDef, own: str | None) -> bool:
    if dataset.also_published_in:
        return True
    if own is not None:
        return not _same_benchmark(inp, dataset, own)
    return _claimed(inp, view, dataset.name, dataset) is not None


def _own_benchmark(inp: AuditInput) -> str | None:
    counts = Counter(r.benchmark for r in inp.records or [] if r.benchmark)
    if not counts:
        return None
    benchmark, n = counts.most_common(1)[0]
    return benchmark if n >= _DOMINANT * sum(counts.values()) else None


def _reused(inp: AuditInput, view: TableView, row: int, own: str | None) -> DatasetDef | None:
    dataset = row_dataset(inp, view, row)
    named = (
        [d for part in _label_parts(view.row_labels.get(row, "")) for d in inp.catalogue.datasets_printed_as(part)]
        if inp.catalogue
        else []
    )
    for candidate in [dataset] if dataset is not None else named:
        if candidate is not None and candidate.also_published_in:
            return candidate
    if dataset is not None and own is not None and not _same_benchmark(inp, dataset, own):
        return dataset
    if dataset is not None and own is None and _claimed(inp, view, view.row_labels.get(row, ""), dataset) is not None:
        return dataset  # the paper's own protocol is unknown, but it presents a catalogued dataset as new
    return None


def _label_parts(label: str) -> list[str]:
    return OWN_MARK.sub("", label).split(" / ")


def _same_benchmark(inp: AuditInput, dataset: DatasetDef, own: str) -> bool:
    """Records may name a benchmark by id or by name."""
    if own == dataset.benchmark or inp.catalogue is None or not inp.catalogue.has("benchmark", dataset.benchmark):
        return own == dataset.benchmark
    return own in inp.catalogue.benchmark(dataset.benchmark).names


def _origins(inp: AuditInput, dataset: DatasetDef) -> list[str]:
    """Names of the benchmarks the dataset was published in before (as a paper would credit them)."""
    catalogue = inp.catalogue
    sources = list(dataset.also_published_in)
    if not sources and catalogue is not None and catalogue.has("benchmark", dataset.benchmark):
        sources = list(catalogue.benchmark(dataset.benchmark).names)
    names: list[str] = []
    for source in sources:
        benchmarks = catalogue.benchmarks if catalogue is not None else []
        known = [n for b in benchmarks for n in b.names if source.lower().startswith(n.lower())]
        names.extend(known or [source, source.split()[0]])
    return [n for n in dict.fromkeys(names) if len(n) >= 3]


def _texts(inp: AuditInput, view: TableView) -> list[Sentence]:
    sentences = list(inp.text.sentences) if inp.text is not None else []
    return [*sentences, Sentence(view.table.page, view.table.caption)]


def _claimed(inp: AuditInput, view: TableView, label: str, dataset: DatasetDef) -> Sentence | None:
    """A sentence naming the dataset that presents it as this paper's own (or a label marked "(ours)")."""
    if OWN_MARK.search(label):
        return Sentence(view.table.page, label)
    parts = _label_parts(label)
    named = [p for p in parts if inp.catalogue is not None and dataset in inp.catalogue.datasets_printed_as(p)]
    forms = {*named, dataset.task, *dataset.aliases}
    patterns = [re.compile(rf"(?<!\w){re.escape(f)}(?!\w)", re.IGNORECASE) for f in forms if f and len(f) >= 6]
    sources = [re.compile(rf"(?<!\w){re.escape(o)}(?!\w)") for o in _origins(inp, dataset)]
    for sentence in _texts(inp, view):
        text = sentence.text
        if _OWN.search(text) and any(p.search(text) for p in patterns) and not any(s.search(text) for s in sources):
            return sentence  # naming the source in the same sentence ("we collected X from GUE") credits it
    return None


def _credited(inp: AuditInput, view: TableView, origins: list[str]) -> Sentence | None:
    patterns = [re.compile(rf"(?<!\w){re.escape(o)}(?!\w)") for o in origins]
    return next((s for s in _texts(inp, view) if any(p.search(s.text) for p in patterns)), None)


def _issue(inp: AuditInput, uses: list[_Use], own: str | None) -> Issue:
    first = uses[0]
    view, dataset = first.view, first.dataset
    here = [u for u in uses if u.view is view]
    labels = list(dict.fromkeys(u.label for u in uses))
    sources = list(dict.fromkeys(s for u in uses for s in u.dataset.also_published_in))
    elsewhere = ", ".join(sources) or f"benchmark '{dataset.benchmark}'"
    protocol = f"this paper's protocol ({own})" if own else "this paper's own protocol"
    claimed = next((c for u in uses if (c := _claimed(inp, u.view, u.label, u.dataset)) is not None), None)
    credited = None if claimed else _credited(inp, view, _origins(inp, dataset))
    if claimed is not None:
        how, evidence = "the paper presents it as its own", claimed
    elif credited is not None:
        how, evidence = "the paper credits the source", credited
    else:
        how, evidence = "the paper does not say where the data come from", None
    if len(uses) == 1:
        what = f"'{first.label}' is {dataset.name} in the catalogue"
    else:
        tables = list(dict.fromkeys(u.view.table.label or "an unlabelled table" for u in uses))
        owner = inp.catalogue.benchmark(dataset.benchmark).name if inp.catalogue else dataset.benchmark
        family = f"{owner} {dataset.task}" if len({u.dataset.task for u in uses}) == 1 else owner
        quoted = ", ".join(f"'{label}'" for label in labels[:6]) + (", ..." if len(labels) > 6 else "")
        what = f"{quoted} in {', '.join(tables)} are {family} datasets in the catalogue"
    return Issue(
        f"{what}, published before in {elsewhere}; here reported under {protocol} and {how}, so the values are "
        "not comparable with that benchmark's",
        table=view.table,
        cells=[c for u in here for c in u.cells],
        scope="cells",
        subjects=[c for u in here for c in u.values],
        elsewhere=[(u.view.table, pos) for u in uses if u.view is not view for pos in u.values],
        expected={"benchmark": own, "dataset": [u.dataset.name for u in uses] if len(uses) > 1 else dataset.name},
        found={"also_published_in": sources, "dataset_benchmark": dataset.benchmark},
        severity="info" if credited is not None else None,
        details={
            "label": first.label if len(uses) == 1 else labels,
            "dataset_id": list(dict.fromkeys(u.dataset.id for u in uses)),
            "limitation": True,
            "origins": _origins(inp, dataset) if sources else [],
            "tasks": list(dict.fromkeys(u.dataset.task or u.dataset.name for u in uses)),
            "evidence": {"page": evidence.page, "sentence": evidence.text.strip()} if evidence else None,
        },
    )
