"""dataset-reused: a dataset the catalogue knows from another benchmark (GUE, Genomic Benchmarks),
reported under this paper's own protocol, so its numbers do not compare with that benchmark's.

The dataset of a row comes from its records, else from its label. A dataset is reused when the catalogue
says it was published before elsewhere (``also_published_in``), or, with records, when it belongs to a
benchmark other than the one most of the paper's records belong to, or, when no benchmark dominates, when
the paper presents a catalogued dataset as new. It is a warning when the paper presents the dataset as its
own ("we introduce a new enhancer dataset, Human Enhancers Cohn", "released here", a row marked "(ours)")
or never names where it comes from; a note (info) when the paper credits the other benchmark.
"""

from __future__ import annotations

import re
from collections import Counter

from pipeline.audit.checks.base import Issue
from pipeline.audit.context import AuditInput
from pipeline.audit.labels import OWN_MARK, datasets_named, row_dataset
from pipeline.audit.tableview import TableView
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


def check_reused_datasets(inp: AuditInput) -> list[Issue]:
    if inp.catalogue is None:
        return []
    own = _own_benchmark(inp)
    issues = []
    for view in inp.views:
        found = [(row, d) for row in view.body_rows if (d := _reused(inp, view, row, own)) is not None]
        table_issues = [_issue(inp, view, row, dataset, own) for row, dataset in found]
        issues += [i for i in table_issues if i.severity != "info"] + _merged(
            [i for i in table_issues if i.severity == "info"]
        )
    return issues


def _merged(credited: list[Issue]) -> list[Issue]:
    """Credited reuse is a note: one per table and source benchmark, listing its rows."""
    groups: dict[str, list[Issue]] = {}
    for issue in credited:
        groups.setdefault(", ".join(issue.found["also_published_in"]) or issue.found["dataset_benchmark"], []).append(
            issue
        )
    merged = []
    for source, issues in groups.items():
        first = issues[0]
        labels = ", ".join(f"'{i.details['label']}'" for i in issues)
        merged.append(
            Issue(
                f"{len(issues)} row(s) ({labels}) report datasets the catalogue knows from {source}; the paper "
                "credits the source, but the values follow this paper's protocol and do not compare with that "
                "benchmark's",
                table=first.table,
                cells=[c for i in issues for c in i.cells],
                subjects=[c for i in issues for c in i.subjects or []],
                expected=first.expected | {"dataset": [i.expected["dataset"] for i in issues]},
                found=first.found,
                severity="info",
                details=first.details | {"dataset_id": [i.details["dataset_id"] for i in issues]},
            )
        )
    return merged


def _own_benchmark(inp: AuditInput) -> str | None:
    counts = Counter(r.benchmark for r in inp.records or [] if r.benchmark)
    if not counts:
        return None
    benchmark, n = counts.most_common(1)[0]
    return benchmark if n >= _DOMINANT * sum(counts.values()) else None


def _reused(inp: AuditInput, view: TableView, row: int, own: str | None) -> DatasetDef | None:
    dataset = row_dataset(inp, view, row)
    named = (
        [d for part in _label_parts(view, row) for d in datasets_named(inp.catalogue, part)] if inp.catalogue else []
    )
    for candidate in [dataset] if dataset is not None else named:
        if candidate is not None and candidate.also_published_in:
            return candidate
    if dataset is not None and own is not None and not _same_benchmark(inp, dataset, own):
        return dataset
    if dataset is not None and own is None and _claimed(inp, view, row, dataset) is not None:
        return dataset  # the paper's own protocol is unknown, but it presents a catalogued dataset as new
    return None


def _label_parts(view: TableView, row: int) -> list[str]:
    return OWN_MARK.sub("", view.row_labels.get(row, "")).split(" / ")


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


def _claimed(inp: AuditInput, view: TableView, row: int, dataset: DatasetDef) -> Sentence | None:
    """A sentence naming the dataset that presents it as this paper's own (or a row label marked "(ours)")."""
    label = view.row_labels.get(row, "")
    if OWN_MARK.search(label):
        return Sentence(view.table.page, label)
    parts = _label_parts(view, row)
    named = [p for p in parts if inp.catalogue is not None and dataset in datasets_named(inp.catalogue, p)]
    forms = {*named, dataset.task, *dataset.aliases}
    patterns = [re.compile(rf"(?<!\w){re.escape(f)}(?!\w)", re.IGNORECASE) for f in forms if len(f) >= 6]
    sources = [re.compile(rf"(?<!\w){re.escape(o)}(?!\w)") for o in _origins(inp, dataset)]
    for sentence in _texts(inp, view):
        text = sentence.text
        if _OWN.search(text) and any(p.search(text) for p in patterns) and not any(s.search(text) for s in sources):
            return sentence  # naming the source in the same sentence ("we collected X from GUE") credits it
    return None


def _credited(inp: AuditInput, view: TableView, origins: list[str]) -> Sentence | None:
    patterns = [re.compile(rf"(?<!\w){re.escape(o)}(?!\w)") for o in origins]
    return next((s for s in _texts(inp, view) if any(p.search(s.text) for p in patterns)), None)


def _issue(inp: AuditInput, view: TableView, row: int, dataset: DatasetDef, own: str | None) -> Issue:
    label = view.row_labels.get(row, "")
    cells = [(row, c) for c in view.value_cols if (row, c) in view.numbers]
    stub = [(row, c) for c in range(view.table.stub_cols) if view.text(row, c).strip()]
    elsewhere = ", ".join(dataset.also_published_in) or f"benchmark '{dataset.benchmark}'"
    protocol = f"this paper's protocol ({own})" if own else "this paper's own protocol"
    claimed = _claimed(inp, view, row, dataset)
    credited = None if claimed else _credited(inp, view, _origins(inp, dataset))
    if claimed is not None:
        how, evidence = "the paper presents it as its own", claimed
    elif credited is not None:
        how, evidence = "the paper credits the source", credited
    else:
        how, evidence = "the paper does not say where it comes from", None
    return Issue(
        f"'{label}' is {dataset.name} in the catalogue, published before in {elsewhere}; here it is reported under "
        f"{protocol} and {how}, so its values are not comparable with that benchmark's",
        table=view.table,
        cells=[*stub[:1], *cells],
        scope="cells",
        subjects=cells,
        expected={"benchmark": own, "dataset": dataset.name},
        found={"also_published_in": list(dataset.also_published_in), "dataset_benchmark": dataset.benchmark},
        severity="info" if credited is not None else None,
        details={
            "label": label,
            "dataset_id": dataset.id,
            "limitation": True,
            "evidence": {"page": evidence.page, "sentence": evidence.text.strip()} if evidence else None,
        },
    )
