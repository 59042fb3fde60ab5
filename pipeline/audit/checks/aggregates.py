"""aggregate-row: rows and columns that are the mean (or sum) of other cells, checked within rounding.

Labelled aggregates ("Mean", "Avg.", "Total") are recomputed from their parts: the rows of their group
(or the rows above), the columns under the same header group (or every other value column). A printed
aggregate whose interval does not meet the computed interval is provably wrong: an error. Across tables,
a task-level row is compared with the mean of its dataset rows; there the relation is not labelled, so it
is only taken as meant when most columns agree, and the columns that disagree are warnings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from pipeline.audit.checks.base import Issue
from pipeline.audit.context import AuditInput
from pipeline.audit.interval import Interval, PrintedNumber, fmt_number, interval_mean, interval_sum
from pipeline.audit.labels import aggregate_kind, column_key, row_dataset
from pipeline.audit.tableview import Pos, TableView


@dataclass
class Aggregate:
    """A labelled aggregate line (axis "row": a row of aggregates; "col": a column) and what it may aggregate."""

    axis: str
    index: int
    kind: str  # "mean" | "sum"
    label: str
    candidates: list[list[int]]  # part sets the layout allows, most likely first
    guessed: bool = False  # only a parent header says "Average": its parts may lie outside the table
    parts: list[int] = field(default_factory=list)  # the candidate chosen by :func:`choose_parts`

    @property
    def clear(self) -> bool:
        """The parts follow from the layout alone: one candidate, not guessed."""
        return not self.guessed and len(self.candidates) == 1


@dataclass
class Verdict:
    pos: Pos
    printed: PrintedNumber
    parts: list[Pos]
    computed: Interval
    consistent: bool
    computation: str


def check_aggregates(inp: AuditInput) -> list[Issue]:
    issues: list[Issue] = []
    for view in inp.views:
        for aggregate in labelled_aggregates(view):
            issues.extend(_judge_labelled(view, aggregate))
    issues.extend(_task_level_rows(inp))
    return issues


def labelled_aggregates(view: TableView) -> list[Aggregate]:
    found = _aggregate_rows(view) + _aggregate_cols(view)
    for aggregate in found:
        aggregate.candidates = [list(c) for c in dict.fromkeys(tuple(c) for c in aggregate.candidates if len(c) >= 2)]
    found = [a for a in found if a.candidates]
    for aggregate in found:
        choose_parts(view, aggregate)
    return found


def _aggregate_rows(view: TableView) -> list[Aggregate]:
    rows = {r: kind for r in view.body_rows if (kind := aggregate_kind(_stub_text(view, r)))}
    found = []
    for row, kind in sorted(rows.items()):
        previous = max([r for r in rows if r < row], default=view.table.header_rows - 1)
        above = [r for r in view.body_rows if r < row and r not in rows]
        group = [r for r in above if view.row_groups.get(r) == view.row_groups.get(row)]
        candidates = [group, [r for r in above if r > previous], above]
        found.append(Aggregate("row", row, kind, _stub_text(view, row), candidates))
    return found


def _aggregate_cols(view: TableView) -> list[Aggregate]:
    cols = {c: kind for c in view.value_cols if (kind := aggregate_kind(view.leaf(c)))}
    found = []
    for col, kind in sorted(cols.items()):
        previous = max([c for c in cols if c < col], default=-1)
        before = [c for c in view.value_cols if c < col and c not in cols]
        group = view.col_groups.get(col)
        siblings = [c for c in before if group is not None and view.col_groups.get(c) == group]
        others = [c for c in view.value_cols if c not in cols]
        found.append(
            Aggregate("col", col, kind, view.col_label(col), [siblings, [c for c in before if c > previous], others])
        )
    for col in view.value_cols:
        group = view.col_groups.get(col)
        kind = aggregate_kind(view.text(*group)) if group is not None else None
        if col in cols or group is None or kind is None:
            continue
        parts = [c for c in view.value_cols if view.col_groups.get(c) != group and c not in cols]
        found.append(Aggregate("col", col, kind, view.col_label(col), [parts], guessed=True))
    return found


def choose_parts(view: TableView, aggregate: Aggregate) -> None:
    """The candidate part set that reproduces the most printed aggregates (the first one on a tie)."""
    best, score = aggregate.candidates[0], -1
    for candidate in aggregate.candidates:
        aggregate.parts = candidate
        consistent = sum(v.consistent for v in evaluate(view, aggregate))
        if consistent > score:
            best, score = candidate, consistent
    aggregate.parts = best


def _stub_text(view: TableView, row: int) -> str:
    texts = [view.text(row, c).strip() for c in range(view.table.stub_cols)]
    return next((t for t in reversed(texts) if t), "")


def evaluate(view: TableView, aggregate: Aggregate) -> list[Verdict]:
    """Each printed aggregate cell against the mean (or sum) of its parts' intervals."""
    verdicts = []
    across = view.value_cols if aggregate.axis == "row" else view.body_rows
    for other in across:
        pos = (aggregate.index, other) if aggregate.axis == "row" else (other, aggregate.index)
        printed = view.numbers.get(pos)
        part_pos = [(p, other) if aggregate.axis == "row" else (other, p) for p in aggregate.parts]
        values = [view.numbers.get(p) for p in part_pos]
        if printed is None or any(v is None or v.form != printed.form for v in values):
            continue  # a missing part, or one written unlike the aggregate (%, 4.2M, 3e-4): not comparable
        verdicts.append(_verdict(pos, printed, part_pos, [v for v in values if v is not None], aggregate.kind))
    return verdicts


def homogeneous(view: TableView, verdict: Verdict) -> bool:
    """Parts printed alike and of one magnitude: the kind of cells a mean row averages."""
    values = [view.numbers[p] for p in verdict.parts]
    magnitudes = [abs(v.value) for v in values if v.value]
    same_scale = not magnitudes or max(magnitudes) <= 20 * min(magnitudes)
    return same_scale and len({v.decimals for v in values}) == 1


def _verdict(pos: Pos, printed: PrintedNumber, part_pos: list[Pos], values: list[PrintedNumber], kind: str) -> Verdict:
    intervals = [v.interval for v in values]
    computed = interval_mean(intervals) if kind == "mean" else interval_sum(intervals)
    exact = sum((v.value for v in values), Fraction(0)) / (len(values) if kind == "mean" else 1)
    shown = fmt_number(exact, max(v.decimals for v in values))
    terms = " + ".join(v.text for v in values)
    computation = f"({terms}) / {len(values)} = {shown}" if kind == "mean" else f"{terms} = {shown}"
    return Verdict(pos, printed, part_pos, computed, computed.overlaps(printed.interval), computation)


def _tolerance(verdict: Verdict) -> str:
    return (
        f"printed precision: each part within half a unit of its last digit; the {verdict.printed.text} printed "
        f"stands for {verdict.printed.interval.describe()}; the parts allow {verdict.computed.describe()}"
    )


def _judge_labelled(view: TableView, aggregate: Aggregate) -> list[Issue]:
    verdicts = evaluate(view, aggregate)
    if not verdicts:
        return []
    bad = [v for v in verdicts if not v.consistent]
    good = len(verdicts) - len(bad)
    where = f"row '{aggregate.label}'" if aggregate.axis == "row" else f"column '{aggregate.label}'"
    if not bad:
        return [_consistent_issue(view, aggregate.kind, where, verdicts, "info")]
    unlike = not good and sum(homogeneous(view, v) for v in bad) * 2 < len(bad)
    if (not aggregate.clear and good < len(bad)) or unlike:
        return [
            Issue(
                f"{where} is labelled '{aggregate.kind}' but is not the {aggregate.kind} of any set of cells the "
                f"layout suggests ({len(bad)} of {len(verdicts)} cells differ); its parts may lie outside this table",
                table=view.table,
                cells=[v.pos for v in verdicts],
                severity="info",
                subjects=[],
            )
        ]
    issues = [_inconsistent_issue(view, aggregate.kind, where, v, "error") for v in bad]
    if good:
        issues.append(_consistent_issue(view, aggregate.kind, where, [v for v in verdicts if v.consistent], "info"))
    return issues


def _inconsistent_issue(view: TableView, kind: str, where: str, verdict: Verdict, severity: str) -> Issue:
    return Issue(
        f"{where}: {verdict.printed.text} is not the {kind} of its {len(verdict.parts)} parts "
        f"({verdict.computation}), beyond rounding",
        table=view.table,
        cells=[verdict.pos, *verdict.parts],
        expected={"kind": kind, "computation": verdict.computation, "interval": verdict.computed.describe()},
        found={"printed": verdict.printed.text, "interval": verdict.printed.interval.describe()},
        tolerance=_tolerance(verdict),
        severity=severity,
        details={"verdict": "inconsistent"},
    )


def _consistent_issue(view: TableView, kind: str, where: str, verdicts: list[Verdict], severity: str) -> Issue:
    return Issue(
        f"{where} is the {kind} of its parts in {len(verdicts)} cell(s), consistent within rounding",
        table=view.table,
        cells=[v.pos for v in verdicts],
        severity=severity,
        subjects=[v.pos for v in verdicts],
        details={
            "verdict": "consistent within rounding",
            "computations": [{"cell": list(v.pos), "computation": v.computation} for v in verdicts],
        },
    )


def _task_level_rows(inp: AuditInput) -> list[Issue]:
    """A row naming a task whose datasets appear as rows elsewhere: is it their mean?"""
    if inp.catalogue is None:
        return []
    rows = [(view, row, row_dataset(inp, view, row)) for view in inp.views for row in view.body_rows]
    issues: list[Issue] = []
    for view, row, dataset in rows:
        if dataset is None or dataset.part or aggregate_kind(_stub_text(view, row)):
            continue
        parts = [
            (v, r)
            for v, r, d in rows
            if d is not None and d.task == dataset.task and d.part and aggregate_kind(d.part) is None
        ]
        by_table: dict[int, list[int]] = {}
        for v, r in parts:
            by_table.setdefault(id(v), []).append(r)
        for part_view in (v for v in inp.views if id(v) in by_table):
            issues.extend(_compare_task_row(inp, view, row, part_view, by_table[id(part_view)], dataset.task))
    return issues


def _compare_task_row(
    inp: AuditInput, view: TableView, row: int, part_view: TableView, part_rows: list[int], task: str
) -> list[Issue]:
    if len(part_rows) < 2:
        return []
    columns = {column_key(inp, part_view, c): c for c in part_view.value_cols}
    verdicts: list[Verdict] = []
    for col in view.value_cols:
        part_col = columns.get(column_key(inp, view, col))
        printed = view.numbers.get((row, col))
        values = [part_view.numbers.get((r, part_col)) for r in part_rows] if part_col is not None else []
        if printed is None or not values or any(v is None for v in values):
            continue
        part_pos = [(r, part_col) for r in part_rows if part_col is not None]
        verdicts.append(_verdict((row, col), printed, part_pos, [v for v in values if v is not None], "mean"))
    good = [v for v in verdicts if v.consistent]
    if len(good) < 2 or len(good) * 2 < len(verdicts):
        return []
    other = part_view.table.label or f"table {part_view.table.index + 1}"
    where = f"task-level row '{view.row_labels.get(row, task)}' (mean of its dataset rows in {other})"
    issues = []
    for verdict in (v for v in verdicts if not v.consistent):
        issues.append(_moved(_inconsistent_issue(view, "mean", where, verdict, "warning"), view, part_view))
    return [*issues, _moved(_consistent_issue(view, "mean", where, good, "info"), view, part_view)]


def _moved(issue: Issue, view: TableView, part_view: TableView) -> Issue:
    """Evidence cells that sit in another table are listed as such."""
    if part_view is not view:
        subjects = len(issue.subjects) if issue.subjects is not None else 1
        issue.elsewhere = [(part_view.table, p) for p in issue.cells[subjects:]]
        issue.cells = issue.cells[:subjects]
    return issue
