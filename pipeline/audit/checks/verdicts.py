"""A printed aggregate against the mean (or sum) of its parts, within rounding, and the issues it gives.

Shared by the labelled aggregates, the task-level rows and the unlabelled means of aggregate-row.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from pipeline.audit.checks.base import Issue
from pipeline.audit.tableview import Pos, TableView
from pipeline.numbers import Interval, PrintedNumber, fmt_number, interval_mean, interval_sum


@dataclass
class Verdict:
    pos: Pos
    printed: PrintedNumber
    parts: list[Pos]
    computed: Interval
    consistent: bool
    computation: str


def aggregate_verdict(
    pos: Pos,
    printed: PrintedNumber,
    part_pos: list[Pos],
    values: list[PrintedNumber],
    kind: str,
    exact_counts: bool = False,
) -> Verdict:
    """The printed cell against the mean (kind "mean") or sum of the parts' printed-precision intervals;
    ``exact_counts`` for counts, whole numbers and no rounding of anything (1,280 + 4 + 1 = 1,285 or it is not)."""
    intervals = [Interval(v.value, v.value) if exact_counts else v.interval for v in values]
    computed = interval_mean(intervals) if kind == "mean" else interval_sum(intervals)
    exact = sum((v.value for v in values), Fraction(0)) / (len(values) if kind == "mean" else 1)
    shown = (
        f"{exact} (whole counts, added exactly)" if exact_counts else fmt_number(exact, max(v.decimals for v in values))
    )
    terms = " + ".join(v.text for v in values)
    computation = f"({terms}) / {len(values)} = {shown}" if kind == "mean" else f"{terms} = {shown}"
    own = Interval(printed.value, printed.value) if exact_counts else printed.interval
    return Verdict(pos, printed, part_pos, computed, computed.overlaps(own), computation)


def homogeneous(view: TableView, verdict: Verdict) -> bool:
    """Parts printed alike and of one magnitude: the kind of cells a mean row averages."""
    values = [view.numbers[p] for p in verdict.parts]
    magnitudes = [abs(v.value) for v in values if v.value]
    same_scale = not magnitudes or max(magnitudes) <= 20 * min(magnitudes)
    return same_scale and len({v.decimals for v in values}) == 1


def _tolerance(verdict: Verdict) -> str:
    return (
        f"printed precision: each part within half a unit of its last digit; the {verdict.printed.text} printed "
        f"stands for {verdict.printed.interval.describe()}; the parts allow {verdict.computed.describe()}"
    )


def inconsistent_issue(view: TableView, kind: str, where: str, verdict: Verdict, severity: str) -> Issue:
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


def consistent_issue(view: TableView, kind: str, where: str, verdicts: list[Verdict], severity: str) -> Issue:
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
