"""aggregate-row: rows and columns that are the mean (or sum) of other cells, checked within rounding.

Labelled aggregates ("Mean", "Avg.", "Overall", "Total") are recomputed from their parts: the rows of their
group (or the rows above; below, for an aggregate printed first), the columns under the same header group (or
every other value column). A printed aggregate whose interval does not meet the computed interval is provably
wrong: an error. An "Overall" the caption does not call a mean, and that is not the mean in most of its cells,
may be pooled over its parts: a value within their range (or a gap between pooled scores) is a note, one
outside it a warning. Across tables, a task-level
row is compared with the mean of its dataset rows; there the relation is not labelled, so it is only taken as
meant when most columns agree, and the columns that disagree are warnings.
A Total / Overall / All line adds up only counts: over scores, rates, medians or correlations it is the
statistic of all the data, never summed, and never an error (a warning at most when most of its cells are
the mean of the parts or an accuracy leaves their range; correlations and AUC may leave it when pooled).
A line that is the mean of its block under a label that does not say so is a warning (see ``unlabelled``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from fractions import Fraction

from pipeline.audit.checks.base import Issue
from pipeline.audit.checks.unlabelled import unlabelled_means
from pipeline.audit.checks.verdicts import (
    Verdict,
    aggregate_verdict,
    consistent_issue,
    homogeneous,
    inconsistent_issue,
)
from pipeline.audit.context import AuditInput
from pipeline.audit.labels import aggregate_kind, column_key, may_be_weighted, row_dataset
from pipeline.audit.metrics import DELTA
from pipeline.audit.tableview import Pos, TableView
from pipeline.numbers import PrintedNumber

# What a count counts: a line or caption naming one makes its whole numbers exact
COUNTED = re.compile(r"(?<![\w-])(?:n|no\.|numbers?|counts?|#|samples|sequences|patients|cases|individuals|"
                     r"participants|subjects|reads|genes|variants|species|isolates|strains|events|records|studies|"
                     r"papers|images|documents|examples|instances|sites|children|animals|plants)(?![\w-])",
                     re.IGNORECASE)  # fmt: skip
# A unit scale on a line of counts: thousands or millions of things, each rounded
SCALED = re.compile(r"\(\s*(?:[kKMBG]|bn|mn|×\s*10\S*|x\s*10\S*)\s*\)|\b(?:thousands?|millions?|billions?)\b",
                    re.IGNORECASE)  # fmt: skip
# Lines of descriptive statistics: beside them, "Mean" is each line's own mean.
DESCRIPTIVE = re.compile(r"^\s*(?:min(?:imum)?|max(?:imum)?|median|s\.?d\.?|std\.?|st\.? ?dev\.?|iqr|range|"
                         r"variance|percentile|p\d\d|q[13]|quartiles?)\b", re.IGNORECASE)  # fmt: skip
# Columns or rows of statistics that no aggregate line sums or averages.
STATISTIC = re.compile(r"(?<![\w-])(?:(?i:p[- ]?values?|q[- ]?values?|fdr)|[pP]|OR|HR|RR|CI|χ2)(?![\w-])")


@dataclass
class Aggregate:
    """A labelled aggregate line (axis "row": a row of aggregates; "col": a column) and what it may aggregate."""

    axis: str
    index: int
    kind: str  # "mean" | "sum"
    label: str
    candidates: list[list[int]]  # part sets the layout allows, most likely first
    guessed: bool = False  # only a parent header says "Average": its parts may lie outside the table
    weighted_ok: bool = False  # "Overall" not called a mean: a value within the parts' range may be pooled
    parts: list[int] = field(default_factory=list)  # the candidate chosen by :func:`choose_parts`

    @property
    def clear(self) -> bool:
        """The parts follow from the layout alone: one candidate, not guessed."""
        return not self.guessed and len(self.candidates) == 1


def check_aggregates(inp: AuditInput) -> list[Issue]:
    issues: list[Issue] = []
    for view in inp.views:
        for aggregate in labelled_aggregates(view):
            issues.extend(_judge_labelled(view, aggregate))
    issues.extend(_task_level_rows(inp))
    issues.extend(unlabelled_means(inp))
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
    if _describes(_stub_text(view, r) for r in view.body_rows):
        return []
    rows = {r: kind for r in view.body_rows if (kind := aggregate_kind(_stub_text(view, r)))}
    found = []
    for row, kind in sorted(rows.items()):
        previous = max([r for r in rows if r < row], default=view.table.header_rows - 1)
        following = min([r for r in rows if r > row], default=view.table.n_rows)
        label = _stub_text(view, row)
        parts = [r for r in view.body_rows if r not in rows and _same_stub(view, row, r, label)]
        above, below = [r for r in parts if r < row], [r for r in parts if r > row]
        group = [r for r in above if view.row_groups.get(r) == view.row_groups.get(row)]
        group_below = [r for r in below if view.row_groups.get(r) == view.row_groups.get(row)]
        candidates = [group, [r for r in above if r > previous], above]
        if not above:  # an aggregate printed above its parts
            candidates += [group_below, [r for r in below if r < following], parts]
        found.append(Aggregate("row", row, kind, label, candidates, weighted_ok=_weighted_ok(view, label)))
    return found


def _same_stub(view: TableView, row: int, other: int, label: str) -> bool:
    """``other`` repeats the aggregate row's other stub labels ("AUROC" of "AUROC | Overall"): a part of it."""
    for col in range(view.table.stub_cols):
        text = view.text(row, col).strip()
        if text and text != label and view.text(other, col).strip() != text:
            return False
    return True


def _aggregate_cols(view: TableView) -> list[Aggregate]:
    if _describes(view.leaf(c) for c in view.value_cols):
        return []
    cols = {c: kind for c in view.value_cols if (kind := aggregate_kind(view.leaf(c)))}
    found = []
    for col, kind in sorted(cols.items()):
        previous = max([c for c in cols if c < col], default=-1)
        before = [c for c in view.value_cols if c < col and c not in cols]
        group = view.col_groups.get(col)
        siblings = [c for c in before if group is not None and view.col_groups.get(c) == group]
        others = [c for c in view.value_cols if c not in cols]
        candidates = [siblings, [c for c in before if c > previous], others]
        weighted_ok = _weighted_ok(view, view.leaf(col))
        found.append(Aggregate("col", col, kind, view.col_label(col), candidates, weighted_ok=weighted_ok))
    for col in view.value_cols:
        group = view.col_groups.get(col)
        kind = aggregate_kind(view.text(*group)) if group is not None else None
        if col in cols or group is None or kind is None:
            continue
        parts = [c for c in view.value_cols if view.col_groups.get(c) != group and c not in cols]
        found.append(Aggregate("col", col, kind, view.col_label(col), [parts], guessed=True))
    return found


def _describes(labels: Iterable[str]) -> bool:
    """Lines naming descriptive statistics (Mean beside Min, Max, SD): each row's own mean, not one of others."""
    return sum(DESCRIPTIVE.match(label) is not None for label in labels) >= 1


def _weighted_ok(view: TableView, label: str) -> bool:
    return may_be_weighted(label, view.table.caption)


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
        parts = [v for v in values if v is not None]
        exact = aggregate.kind == "sum" and _whole_counts(view, pos, [printed, *parts]) and _names_counts(view, pos)
        verdicts.append(aggregate_verdict(pos, printed, part_pos, parts, aggregate.kind, exact))
    return verdicts


def _names_counts(view: TableView, pos: Pos) -> bool:
    """The line or the caption says what is counted ("Number of sequences", "n", "Samples"): whole numbers of
    things, not measures printed to the unit (seconds, megabytes), which are rounded like any other."""
    if view.numbers[pos].share is not None:
        return True
    if SCALED.search(view.col_label(pos[1]) + " " + view.row_labels.get(pos[0], "")):
        return False  # "Token count (M)": counts in millions, each rounded to the million
    return bool(COUNTED.search(view.col_label(pos[1]) + " " + view.row_labels.get(pos[0], "") + " " +
                               view.table.caption))  # fmt: skip


def _whole_counts(view: TableView, pos: Pos, numbers: list[PrintedNumber]) -> bool:
    """Whole numbers printed plainly (no decimals, %, suffix or power of ten) on lines that name no rate, mean or
    score: counts, which a sum adds exactly."""
    if any(n.decimals or n.percent or n.scale != 1 or n.plus_minus is not None for n in numbers):
        return False
    return not _COUNT_WORDS.search(view.col_label(pos[1]) + " " + view.row_labels.get(pos[0], ""))


def _judge_labelled(view: TableView, aggregate: Aggregate) -> list[Issue]:
    if aggregate.weighted_ok:  # an "Overall" the caption does not define: a mean, or a total (people pooled)?
        as_total = replace(aggregate, kind="sum")
        if sum(v.consistent for v in evaluate(view, as_total)) > sum(v.consistent for v in evaluate(view, aggregate)):
            aggregate = as_total
    verdicts = [v for v in evaluate(view, aggregate) if not _statistic(view, v.pos)]
    if not verdicts:
        return []
    where = f"row '{aggregate.label}'" if aggregate.axis == "row" else f"column '{aggregate.label}'"
    unread = [v for v in verdicts if not v.consistent and _unread_parts(view, aggregate, v)]
    notes = [_declined(view, where, unread, "cannot verify: parts unread (a cell among its parts is not a number)")]
    verdicts = [v for v in verdicts if v not in unread]
    notes = notes if unread else []
    overall = _overall_statistics(view, aggregate, verdicts)
    if overall:
        notes.append(_declined(view, where, overall, OVERALL_REASON))
        verdicts = [v for v in verdicts if v not in overall]
    apart = [v for v in verdicts if not v.consistent and _other_magnitude(view, v, aggregate.kind)]
    if apart:
        notes.append(_declined(view, where, apart, "its parts are of another magnitude (counts beside a mean age, "
                               "rates beside a total) or format: they are not what it aggregates"))  # fmt: skip
        verdicts = [v for v in verdicts if v not in apart]
    bad = [v for v in verdicts if not v.consistent]
    good = len(verdicts) - len(bad)
    if bad and not good and not aggregate.weighted_ok and not _caption_defines(view, aggregate):
        reason = (f"no cell of {where} is the {aggregate.kind} of the parts the layout suggests, so it probably "
                  "summarises something else (a pooled group, another statistic)")  # fmt: skip
        return [*notes, _declined(view, where, bad, reason)]
    weighted = aggregate.weighted_ok and not (good >= 2 and good > len(bad))  # most cells agree: a mean after all
    # an "Overall" read as a total (of counts) may pool its mean rows: a cell within its parts' range is one
    pools = weighted or (aggregate.weighted_ok and aggregate.kind == "sum")
    pooled = [v for v in bad if pools and (_within_parts(view, v) or _difference(view, v) or _total(view, v))]
    notes += [_pooled_issue(view, where, pooled)] if pooled else []
    bad = [v for v in bad if v not in pooled]
    if not bad:
        consistent = [v for v in verdicts if v.consistent]
        return notes + ([consistent_issue(view, aggregate.kind, where, consistent, "info")] if consistent else [])
    unlike = not good and sum(homogeneous(view, v) for v in bad) * 2 < len(bad)
    if (not aggregate.clear and good < len(bad) + len(apart)) or unlike:  # cells of another magnitude count too
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
    issues = notes
    for verdict in bad:  # a pooled non-additive score (AUROC) may leave the range; an overall score may be pooled
        pooled_score = _overall_line(view, aggregate) and not _counts(view, verdict)
        severity = "warning" if weighted or pooled_score else "error"
        issue = _certain(inconsistent_issue(view, aggregate.kind, where, verdict, severity), aggregate)
        if pooled_score:
            issue.certainty, issue.reason = "likely", OVERALL_MEAN_REASON
        issues.append(issue)
    if good:
        issues.append(consistent_issue(view, aggregate.kind, where, [v for v in verdicts if v.consistent], "info"))
    return issues


OVERALL_REASON = ("a Total / Overall / All line adds up only counts; over scores, rates, medians or correlations "
                  "it is the statistic computed on all the data, not a sum of its parts")  # fmt: skip
OVERALL_MEAN_REASON = ("most cells of this Overall line are the mean of its parts, but an overall score may be "
                       "computed on the pooled data")  # fmt: skip
# An Overall or Total line: a statistic of all the data (pooled), unless it is a line of counts
OVERALL_LABEL = re.compile(r"^\s*(?:total|overall|all)\b", re.IGNORECASE)
# Statistics that pooled data can take beyond the parts' range (Simpson), so no range check applies
UNPOOLED = re.compile(
    r"(?<![\w-])(?:correlations?|pearson|spearman|r|r2|r²|rho|ρ|auc|auroc|auprc|roc|c[- ]index|kappa|κ|mcc|f1|"
    r"or|hr|odds ratios?|hazard ratios?)(?![\w-])",
    re.IGNORECASE,
)
_COUNT_WORDS = re.compile(r"(?<![\w-])(?:rates?|ratios?|medians?|means?|averages?|%|percent\w*|proportions?|shares?|"
                          r"per\s+\d|scores?|ages?|index|indices)(?![\w-])", re.IGNORECASE)  # fmt: skip


def _overall_line(view: TableView, aggregate: Aggregate) -> bool:
    """A Total / Overall / All line whose caption does not say it is a mean or sum of the others."""
    return bool(OVERALL_LABEL.match(aggregate.label.split(" / ")[-1])) and not _caption_defines(view, aggregate)


def _counts(view: TableView, verdict: Verdict) -> bool:
    """The printed value and its parts are counts: whole numbers, no percent, on lines that name no rate,
    median, mean or score."""
    return _whole_counts(view, verdict.pos, [verdict.printed, *(view.numbers[p] for p in verdict.parts)])


def _overall_statistics(view: TableView, aggregate: Aggregate, verdicts: list[Verdict]) -> list[Verdict]:
    """Cells of a Total / Overall / All line that are an overall statistic, never a sum or a mean of the parts
    to be judged: read as a sum, every cell that is not a count; read as a mean, the statistics pooled data can
    take beyond the parts' range (correlations, AUC, odds ratios)."""
    if not _overall_line(view, aggregate):
        return []
    if aggregate.kind == "sum":
        return [v for v in verdicts if not v.consistent and not _counts(view, v)]
    label = f"{view.table.caption} "
    return [v for v in verdicts if not v.consistent and UNPOOLED.search(label + _line_names(view, v.pos))]


def _line_names(view: TableView, pos: Pos) -> str:
    return view.col_label(pos[1]) + " " + view.row_labels.get(pos[0], "")


def _other_magnitude(view: TableView, verdict: Verdict, kind: str) -> bool:
    """Parts the printed value cannot aggregate: a mean under half its smallest part or over twice its largest,
    a total below its largest part (all parts non-negative: a rate or a share, not a sum), or the very digits
    of the result with a point for a thousands separator ("1.178" for 1,178)."""
    values = [view.numbers[p].value for p in verdict.parts]
    printed = verdict.printed.value
    if printed > 0 and verdict.computed.scaled(Fraction(1, 1000)).overlaps(verdict.printed.interval):
        return True
    if kind == "sum":
        return min(values) >= 0 and printed < max(values)
    return min(values) > 0 and printed > 0 and (printed * 2 < min(values) or printed > 2 * max(values))


def _caption_defines(view: TableView, aggregate: Aggregate) -> bool:
    """The caption says what the line is ("Overall is the mean of the datasets", "Total is the sum of ...")."""
    label = re.escape(aggregate.label.split(" / ")[-1].strip())
    pattern = rf"(?<!\w){label}(?!\w)[^.;]{{0,60}}?\b(?:mean|averag\w*|sum|total)\b"
    return bool(label) and re.search(pattern, view.table.caption, re.IGNORECASE) is not None


def _certain(issue: Issue, aggregate: Aggregate) -> Issue:
    """A proof only when the layout alone gives the parts; parts picked as the best fit make it likely."""
    if not aggregate.clear:
        issue.certainty = "likely"
        issue.reason = f"the parts were chosen as the best fit among {len(aggregate.candidates)} readings of the layout"
    return issue


def _unread_parts(view: TableView, aggregate: Aggregate, verdict: Verdict) -> list[Pos]:
    """Cells among the parts' span that print something other than a number ("96.9/98.0", "-"): the printed
    aggregate may include them, so the parts read cannot disprove it."""
    row, col = verdict.pos
    indices = [p[1] if aggregate.axis == "col" else p[0] for p in verdict.parts]
    kinds = {aggregate.index}
    span = range(min(indices), max(indices) + 1)
    if aggregate.axis == "col":
        cells = [(row, c) for c in span if c not in kinds and c >= view.table.stub_cols]
    else:
        cells = [(r, col) for r in span if r not in kinds and r >= view.table.header_rows]
    return [p for p in cells if p not in view.numbers and view.text(*p).strip() and _part_of(view, aggregate, p)]


def _part_of(view: TableView, aggregate: Aggregate, pos: Pos) -> bool:
    """A cell on a line of the kind the aggregate averages (not a label row, not another aggregate)."""
    if aggregate.axis == "col":
        return aggregate_kind(view.leaf(pos[1])) is None
    return pos[0] in view.body_rows and aggregate_kind(_stub_text(view, pos[0])) is None


def _statistic(view: TableView, pos: Pos) -> bool:
    """A p-value, odds ratio or test statistic: not something a mean or total row aggregates."""
    return bool(STATISTIC.search(view.col_label(pos[1])) or STATISTIC.search(view.row_labels.get(pos[0], "")))


def _declined(view: TableView, where: str, verdicts: list[Verdict], reason: str) -> Issue:
    return Issue(
        f"{where}: {len(verdicts)} cell(s) not the mean or sum of the parts read; {reason}",
        table=view.table,
        cells=[v.pos for v in verdicts],
        severity="info",
        subjects=[],
        certainty="declined",
        reason=reason,
        details={"computations": [{"cell": list(v.pos), "computation": v.computation} for v in verdicts]},
    )


def _within_parts(view: TableView, verdict: Verdict) -> bool:
    """The printed value lies within the range of its parts, as some weighting of them would."""
    parts = [view.numbers[p].interval for p in verdict.parts]
    low, high = min(i.lo for i in parts), max(i.hi for i in parts)
    return verdict.printed.interval.hi >= low and verdict.printed.interval.lo <= high


def _total(view: TableView, verdict: Verdict) -> bool:
    """An "Overall" that is the total of its parts (participants pooled over cohorts), not their mean."""
    values = [view.numbers[p] for p in verdict.parts]
    return aggregate_verdict(verdict.pos, verdict.printed, verdict.parts, values, "sum").consistent


def _difference(view: TableView, verdict: Verdict) -> bool:
    """A gap between two scores ("Difference", "+0.155"): a pooled gap need not lie within its parts' gaps."""
    row, col = verdict.pos
    label = view.col_label(col) + " " + view.row_labels.get(row, "")
    return bool(DELTA.search(label)) or verdict.printed.text.startswith("+")


def _pooled_issue(view: TableView, where: str, verdicts: list[Verdict]) -> Issue:
    return Issue(
        f"{where} is not the unweighted mean of its parts in {len(verdicts)} cell(s) but lies within their range "
        "(or is their total); the caption does not call it a mean, so it may be pooled or weighted by the parts' sizes",
        table=view.table,
        cells=[v.pos for v in verdicts],
        severity="info",
        subjects=[],
        details={"computations": [{"cell": list(v.pos), "computation": v.computation} for v in verdicts]},
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
        verdicts.append(aggregate_verdict((row, col), printed, part_pos, [v for v in values if v is not None], "mean"))
    good = [v for v in verdicts if v.consistent]
    if len(good) < 2 or len(good) * 2 < len(verdicts):
        return []
    other = part_view.table.label or f"table {part_view.table.index + 1}"
    where = f"task-level row '{view.row_labels.get(row, task)}' (mean of its dataset rows in {other})"
    issues = []
    for verdict in (v for v in verdicts if not v.consistent):
        issues.append(_moved(inconsistent_issue(view, "mean", where, verdict, "warning"), view, part_view))
    return [*issues, _moved(consistent_issue(view, "mean", where, good, "info"), view, part_view)]


def _moved(issue: Issue, view: TableView, part_view: TableView) -> Issue:
    """Evidence cells that sit in another table are listed as such."""
    if part_view is not view:
        subjects = len(issue.subjects) if issue.subjects is not None else 1
        issue.elsewhere = [(part_view.table, p) for p in issue.cells[subjects:]]
        issue.cells = issue.cells[:subjects]
    return issue
