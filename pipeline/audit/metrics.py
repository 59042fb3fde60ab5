"""Which metric a printed cell reports, and whether higher or lower is better.

In order: the record emitted for the cell, the column's header path, the row's stub, the caption (when it
names exactly one metric); the direction can also come from cue words and arrows ("err.", "↓").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.audit.context import AuditInput
from pipeline.audit.tableview import Pos, TableView
from pipeline.catalogue import Catalogue, DatasetDef, MetricDef

_LOWER = re.compile(
    r"↓|⇓|lower is better|\b(?:err(?:or)?s?|loss|mse|rmse|mae|ece|perplexity|ppl|wer|cer|fid|latency|runtime|drop)\b",
    re.IGNORECASE,
)
_HIGHER = re.compile(
    r"↑|⇑|higher is better|\b(?:acc(?:uracy|uracies)?|f1|auc|auroc|auprc|mcc|pearson|spearman|scores?|precision|recall"
    r"|bleu|rouge|em|exact match|hits?|hit rates?|correlations?|rewards?|returns?)\b|@\d+",
    re.IGNORECASE,
)


# Words that label a difference between scores ("Accuracy increase", "Speed-up"): one vocabulary for every check.
DELTA_WORDS = r"diff\.?|difference|delta|change|gains?|improvement|impr\.?|increase|decrease|drop|reduction|speed-?up"
# Labels of differences between scores ("Δ", "Accuracy increase"), which no score range bounds.
DELTA = re.compile(rf"Δ|∆|\b(?:{DELTA_WORDS})(?!\w)", re.I)
# Labels naming a quantity other than a score (a size, a cost, a count): the caption's metric is not theirs.
QUANTITY = re.compile(
    r"\b(?:time|seconds?|hours?|memory|mem|mb|gb|params?|parameters?|size|speed(?:up)?|throughput|flops|"
    r"steps?|samples?|tokens?|epochs?|iterations?|batch|lr|learning rate|length|count|number)\b|#",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class CellMetric:
    name: str  # as printed, or the catalogue name
    metric: MetricDef | None
    direction: str | None
    origin: str  # "record" | "header" | "row" | "caption" | "cue"
    dataset: DatasetDef | None = None


def direction_cue(text: str) -> str | None:
    """ "higher" / "lower" from arrows and words; arrows win; None when absent or contradictory."""
    up, down = "↑" in text or "⇑" in text, "↓" in text or "⇓" in text
    if up or down:
        return None if up and down else ("higher" if up else "lower")
    lower, higher = bool(_LOWER.search(text)), bool(_HIGHER.search(text))
    return "lower" if lower and not higher else ("higher" if higher and not lower else None)


def text_direction(inp: AuditInput, view: TableView) -> str | None:
    """The direction the sentences citing the table give its numbers ("accuracy", "lower error"), when they all
    point one way: the text names what a table's bare headers do not. A text source's table (a README's) is
    spoken of by the rest of its section, which need not cite it by label."""
    said = [s.text for s in inp.citing(view.table)] if inp.text is not None and view.table.label else []
    if view.table.artifact and view.table.context:
        said.append(view.table.context)
    return direction_cue(" ".join(said)) if said else None


# A name applied like a function ("f1(m)", "f2(x)") is a symbol of the paper's, not the metric.
_NOT_CALLED = r"(?!\(\s*[A-Za-z]\w{0,2}\s*\))"


class _MetricIndex:
    """The catalogue's metric patterns and what they found in each text. One catalogue at a time, and a bounded
    memo of texts: a process that audits thousands of sources must not keep every catalogue and text it saw."""

    TEXTS = 1 << 14

    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue
        forms = {(alias, m.id): m for m in catalogue.metrics for alias in m.names if len(alias) >= 2}
        self.patterns: list[tuple[re.Pattern[str], MetricDef]] = []  # one word-bounded pattern per form, longest first
        for (alias, _), metric in sorted(forms.items(), key=lambda item: -len(item[0][0])):
            flags = 0 if len(alias) <= 4 and alias.upper() == alias else re.IGNORECASE  # short all-caps: exact case
            self.patterns.append((re.compile(rf"(?<![\w-]){re.escape(alias)}(?![\w-]){_NOT_CALLED}", flags), metric))
        self.named: dict[str, list[tuple[str, MetricDef]]] = {}

    def metrics_in(self, text: str) -> list[tuple[str, MetricDef]]:
        if text not in self.named:
            if len(self.named) >= self.TEXTS:
                self.named.clear()
            self.named[text] = _scan(self.patterns, text)
        return self.named[text]


_INDEX: list[_MetricIndex] = []  # the index of the catalogue last asked about


def metrics_named(catalogue: Catalogue, text: str) -> list[tuple[str, MetricDef]]:
    """Catalogue metrics named anywhere in ``text``, with the words as printed (longest alias first)."""
    if not _INDEX or _INDEX[0].catalogue is not catalogue:
        _INDEX[:] = [_MetricIndex(catalogue)]
    return _INDEX[0].metrics_in(text)


def _scan(patterns: list[tuple[re.Pattern[str], MetricDef]], text: str) -> list[tuple[str, MetricDef]]:
    found: dict[str, tuple[str, MetricDef]] = {}
    taken: list[tuple[int, int]] = []
    for pattern, metric in patterns:
        for match in pattern.finditer(text):
            if any(a < match.end() and match.start() < b for a, b in taken):
                continue
            taken.append(match.span())
            found.setdefault(metric.id, (match.group(0), metric))
    return list(found.values())


def _from_label(catalogue: Catalogue | None, label: str) -> tuple[str, MetricDef] | None:
    if catalogue is None:
        return None
    metric = catalogue.find_metric(label)
    if metric is not None:
        return label, metric
    named = metrics_named(catalogue, label)
    return named[0] if len(named) == 1 else None


# "Top-1", "top 5", "Top1"; not "TOP1" or "TOP2A": capitals joined to digits are how gene symbols are written
TOP_K = re.compile(r"(?<![\w-])(?:(?i:top)[- ]\d+|[Tt]op\d+)(?![\w-])")
_METRIC_STUB_HEADER = re.compile(r"\b(?:metrics?|measures?|criteri\w*|statistics?|indices|index|scores?)\b", re.I)


def stub_names_metrics(inp: AuditInput, view: TableView, printed: str) -> bool:
    """A metric printed in a row label is the row's metric only with context: the caption or a header names it
    too, the stub's own header says the rows are metrics ("Metric", "Measure"), or most row labels name metrics.
    Otherwise the label is something that spells like one (a gene such as TOP1 or MCC, a subset)."""
    table = view.table
    headers = [view.text(r, c) for r in range(table.header_rows) for c in range(table.stub_cols, table.n_cols)]
    named = re.compile(rf"(?<![\w-]){re.escape(printed)}(?![\w-])", re.I)
    if any(named.search(t) for t in [table.caption, *headers] if t):
        return True
    stub_headers = [view.text(r, c) for r in range(table.header_rows) for c in range(table.stub_cols)]
    if any(_METRIC_STUB_HEADER.search(t) for t in stub_headers):
        return True
    return len(_metric_rows(inp, view)) * 2 > len(view.body_rows) >= 2


def _metric_rows(inp: AuditInput, view: TableView) -> set[int]:
    """Body rows whose own stub label names a catalogue metric or a Top-k (computed once per table)."""
    key = ("metric_rows", id(view))
    if key not in inp.cache:
        rows = set()
        for row in view.body_rows:
            labels = [view.text(row, c) for c in range(view.table.stub_cols)]
            if any(_from_label(inp.catalogue, t) or TOP_K.fullmatch(t.strip()) for t in labels if t.strip()):
                rows.add(row)
        inp.cache[key] = rows
    return inp.cache[key]  # type: ignore[no-any-return]


def cell_metric(inp: AuditInput, view: TableView, pos: Pos) -> CellMetric | None:
    """The metric of one value cell, or None when nothing says which (computed once per cell)."""
    key = ("cell_metric", id(view), pos)
    if key not in inp.cache:
        inp.cache[key] = _cell_metric(inp, view, pos)
    return inp.cache[key]  # type: ignore[no-any-return]


def _cell_metric(inp: AuditInput, view: TableView, pos: Pos) -> CellMetric | None:
    table, catalogue = view.table, inp.catalogue
    record = inp.record_at(table, pos)
    if record is not None and record.metric and catalogue is not None and catalogue.has("metric", record.metric):
        metric = catalogue.metric(record.metric)
        dataset = catalogue.dataset_by_name(record.dataset) if record.dataset else None
        return CellMetric(metric.name, metric, record.direction or metric.direction, "record", dataset)
    row, col = pos
    header = list(reversed(view.col_paths.get(col, [])))  # the leaf first: it names the cell most closely
    stub = [view.text(row, c) for c in reversed(range(table.stub_cols))]
    for origin, labels in (("header", header), ("row", stub)):
        for label in labels:
            hit = _from_label(catalogue, label)
            if hit is not None and origin == "row" and not stub_names_metrics(inp, view, hit[0]):
                continue  # a row label that spells like a metric (a gene symbol, "MCC") in a table of other things
            if hit is not None:
                return CellMetric(hit[0], hit[1], direction_cue(" ".join(labels)) or hit[1].direction, origin)
            if QUANTITY.search(label) or DELTA.search(label):
                return CellMetric(label, None, direction_cue(label), "cue")  # a size, a cost or a difference
    for text in (" ".join(header), " ".join(stub)):
        direction = direction_cue(text)
        if direction is not None:
            return CellMetric(text, None, direction, "cue")
    if catalogue is not None:
        named = metrics_named(catalogue, table.caption)
        if len(named) == 1:
            printed, metric = named[0]
            after = re.search(rf"{re.escape(printed)}\W+(\w+)", table.caption)  # "Top-1 error": an error rate
            cue = direction_cue(after.group(1)) if after else None
            return CellMetric(printed, metric, cue or metric.direction, "caption")
    direction = direction_cue(table.caption)
    return CellMetric(table.caption, None, direction, "cue") if direction is not None else None
