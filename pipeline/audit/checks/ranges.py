"""value-out-of-range: a value outside its metric's valid range in the catalogue.

Evidence: an error needs the metric named by the cell's own column header or row label, or by a caption
naming no other metric (not only by a parent header or the mapping), and, for a value above the range, most
values of that metric in range (two thirds of three or more); anything less is a warning that says why. A
line with more than a third of its values out of range probably reports another quantity, and a column
headed by a bare sign or symbol under a metric ("+", "−": wins and losses under "Sensitivity") reports
something about the metric, not the metric: both are declined.
"""

from __future__ import annotations

import re
from fractions import Fraction

from pipeline.audit.checks.base import Issue
from pipeline.audit.context import AuditInput
from pipeline.audit.metrics import DELTA, CellMetric, cell_metric, metrics_named
from pipeline.audit.tableview import Pos, TableView
from pipeline.catalogue import Catalogue
from pipeline.numbers import Interval


def check_ranges(inp: AuditInput) -> list[Issue]:
    issues: list[Issue] = []
    for view in inp.views:
        metrics = {
            pos: m
            for pos in view.numbers
            if view.numbers[pos].share is None  # a count with its share is a count, not the metric's value
            and (m := cell_metric(inp, view, pos))
            and m.metric is not None
            and not _difference(view, pos)
        }
        percent_scale = _percent_scale(view, metrics)
        lines: dict[tuple[str, int], list[tuple[Pos, Issue | None]]] = {}
        for pos, metric in sorted(metrics.items()):
            bounds = _bounds(inp.catalogue, metric)
            if bounds is None:
                continue
            scale = Fraction(100) if metric.metric and metric.metric.id in percent_scale else Fraction(1)
            lo, hi = (None if b is None else b * scale for b in bounds)
            line = ("row", pos[0]) if metric.origin == "row" else ("col", pos[1])
            lines.setdefault(line, []).append((pos, _judge(view, pos, metric, lo, hi)))
        lines = {line: judged for line, judged in lines.items() if not _symbol_column(view, judged, metrics)}
        in_range = [pos for judged in lines.values() for pos, issue in judged if issue is None]
        for line, judged in lines.items():
            if len(judged) < 3 and all(metrics[pos].origin == "caption" for pos, _ in judged):
                # a caption's metric is a weak guess for a line this short: a value stays flagged only as an
                # outlier among in-range values of that metric beside it
                same = {pos: [p for p in in_range if metrics[p].metric == metrics[pos].metric] for pos, _ in judged}
                lines[line] = [(pos, issue if _outlier(view, pos, same[pos]) else None) for pos, issue in judged]
        within = {pos for judged in lines.values() for pos, issue in judged if issue is None}
        for (axis, index), judged in lines.items():
            flagged = [issue for _, issue in judged if issue is not None]
            if len(flagged) >= 2 and len(flagged) * 3 > len(judged):
                issues.append(_doubtful(view, axis, index, judged, len(flagged)))
                continue
            issues.extend(_weigh(inp, view, issue, metrics, within) for issue in flagged)
    return issues


def _weigh(inp: AuditInput, view: TableView, issue: Issue, metrics: dict[Pos, CellMetric], in_range: set[Pos]) -> Issue:
    """Proved only when the cell's own header or row label names the metric and, for a value above the range
    (where a percent scale could be misread), most values of that metric in the table are in range."""
    metric = metrics[issue.cells[0]]
    same = [p for p, m in metrics.items() if m.metric == metric.metric]
    good = sum(p in in_range for p in same)
    if not _named_at_cell(inp, view, issue.cells[0], metric):
        issue.certainty = "likely"
        named_by = _ORIGINS.get(metric.origin, metric.origin)
        issue.reason = f"the metric is named only by {named_by}, not by the cell's own header or row label"
    elif issue.details.get("above") and (len(same) < 3 or good * 3 < len(same) * 2):
        issue.certainty = "likely"
        issue.reason = f"only {good} of {len(same)} values of this metric are in range: too few to be sure of the scale"
    return issue


_ORIGINS = {"header": "a header above the column's own", "row": "a row label above the "
            "cell's own", "record": "the mapping of the cell"}  # fmt: skip


def _named_at_cell(inp: AuditInput, view: TableView, pos: Pos, metric: CellMetric) -> bool:
    """The cell's own column header or row label names the metric, or the caption names it as the table's only
    metric while no header names any (the caption then speaks for every cell)."""
    if inp.catalogue is None or metric.metric is None:
        return False
    if metric.origin == "caption":
        return True
    own = [view.leaf(pos[1]), view.text(pos[0], view.table.stub_cols - 1) if view.table.stub_cols else ""]
    return any(m.id == metric.metric.id for label in own if label for _, m in metrics_named(inp.catalogue, label))


def _symbol_column(view: TableView, judged: list[tuple[Pos, Issue | None]], metrics: dict[Pos, CellMetric]) -> bool:
    """A column headed by a bare sign or symbol ("+", "−") under the header naming the metric."""
    pos = judged[0][0]
    leaf = view.leaf(pos[1]).strip()
    return metrics[pos].origin == "header" and bool(leaf) and not re.search(r"[^\W\d_]", leaf)


def _outlier(view: TableView, pos: Pos, in_range: list[Pos]) -> bool:
    """Beside in-range values (its row or column) and printed on their scale (within twice the largest)."""
    near = [abs(view.numbers[p].value) for p in in_range if p != pos and (p[0] == pos[0] or p[1] == pos[1])]
    return bool(near) and abs(view.numbers[pos].value) <= 2 * max(near)


def _difference(view: TableView, pos: Pos) -> bool:
    """A cell in a column or row of differences ("Δ", "Increase", "+0.024"): a gap between scores, not a score."""
    row, col = pos
    if DELTA.search(view.col_label(col)) or DELTA.search(view.row_labels.get(row, "")):
        return True
    return any(n.text.startswith("+") for (_, c), n in view.numbers.items() if c == col)


def _doubtful(view: TableView, axis: str, index: int, judged: list[tuple[Pos, Issue | None]], bad: int) -> Issue:
    """Most of a line out of range: the metric was probably misattributed (a size column under an accuracy caption)."""
    where = f"row '{view.row_labels.get(index, index)}'" if axis == "row" else f"column '{view.col_label(index)}'"
    first = next(issue for _, issue in judged if issue is not None)
    return Issue(
        f"{bad} of {len(judged)} values in {where} fall outside the range of {first.expected['metric']}; the column "
        f"probably reports another quantity, so no value is flagged",
        table=view.table,
        cells=[pos for pos, _ in judged],
        severity="info",
        subjects=[],
        expected=first.expected,
        details={"out_of_range": bad},
    )


def _bounds(catalogue: Catalogue | None, metric: CellMetric) -> tuple[Fraction | None, Fraction | None] | None:
    if catalogue is None or metric.metric is None:
        return None
    lo, hi = catalogue.valid_range(metric.dataset, metric.metric)
    if lo is None and hi is None:
        return None
    return (None if lo is None else Fraction(lo), None if hi is None else Fraction(hi))


def _percent_scale(view: TableView, metrics: dict[Pos, CellMetric]) -> set[str]:
    """Metrics bounded within [-1, 1] that this table prints as percentages."""
    by_metric: dict[str, list[Pos]] = {}
    for pos, metric in metrics.items():
        m = metric.metric
        if m is not None and m.unit != "percent" and _unit_bounded(m.range):
            by_metric.setdefault(m.id, []).append(pos)
    scaled = set()
    for metric_id, cells in by_metric.items():
        marked = any(view.numbers[p].percent or "%" in view.col_label(p[1]) for p in cells)
        large = sum(abs(view.numbers[p].value) > 1 for p in cells)
        if marked or large * 2 > len(cells):
            scaled.add(metric_id)
    return scaled


def _unit_bounded(bounds: tuple[float | None, float | None]) -> bool:
    lo, hi = bounds
    return hi is not None and abs(hi) <= 1 and (lo is None or abs(lo) <= 1)


def _judge(view: TableView, pos: Pos, metric: CellMetric, lo: Fraction | None, hi: Fraction | None) -> Issue | None:
    printed = view.numbers[pos]
    interval: Interval = printed.interval
    if (lo is None or interval.hi >= lo) and (hi is None or interval.lo <= hi):
        return None
    shown = f"[{'-inf' if lo is None else _num(lo)}, {'inf' if hi is None else _num(hi)}]"
    name = metric.metric.name if metric.metric else metric.name
    return Issue(
        f"{name} {printed.text} is outside the catalogue's valid range {shown}",
        table=view.table,
        cells=[pos],
        expected={"range": shown, "metric": metric.metric.id if metric.metric else None},
        found={"printed": printed.text, "interval": interval.describe()},
        tolerance=f"printed precision: {printed.text} stands for {interval.describe()}, wholly outside the range",
        details={"metric_from": metric.origin, "above": hi is not None and interval.lo > hi},
    )


def _num(value: Fraction) -> str:
    return str(int(value)) if value.denominator == 1 else str(float(value))
