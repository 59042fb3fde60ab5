"""derived-fscore: an F1 score against the precision and recall printed beside it.

For one confusion matrix F1 = 2PR / (P + R). Averaged over classes, examples or seeds (macro, per-example,
per-seed F1) the harmonic mean is concave, so F1 <= 2PR / (P + R) still holds — and nothing more: F1 may fall
below min(P, R). So the bound is checked always, equality only where a single pooled (micro) matrix is
stated in the header or caption. F-beta columns (F2, F0.5) and "best F" are not F1 and are never read.
"""

from __future__ import annotations

import re
from fractions import Fraction

from pipeline.audit.checks.base import Issue
from pipeline.audit.checks.derived.evidence import Operand, relation_issue
from pipeline.audit.checks.derived.layout import Line, leaf_label, named_lines
from pipeline.audit.context import AuditInput
from pipeline.audit.tableview import TableView
from pipeline.numbers import Interval

_AVERAGE = r"(?:(?:macro|micro|weighted|avg\.?|mean)[- ]?)?"
ROLES: dict[str, re.Pattern[str]] = {
    "p": re.compile(rf"{_AVERAGE}(?:precision|prec\.?|p)", re.I),
    "r": re.compile(rf"{_AVERAGE}(?:recall|rec\.?|r)", re.I),
    "f": re.compile(rf"{_AVERAGE}(?:f1|f-1|f1[- ]score|f[- ]score|f[- ]?measure|f1[- ]measure|f)", re.I),
}
POOLED = re.compile(r"\bmicro\b|\bpooled\b|single confusion matrix", re.I)


def check_fscores(inp: AuditInput) -> list[Issue]:
    issues: list[Issue] = []
    for view in inp.views:
        for line in named_lines(view, ROLES):
            issue = _judge(view, line)
            if issue is not None:
                issues.append(issue)
    return issues


def harmonic(p: Interval, r: Interval) -> Interval:
    """2PR / (P + R) over the box, exact: the harmonic mean rises with each (non-negative) argument."""

    def h(a: Fraction, b: Fraction) -> Fraction:
        a, b = max(a, Fraction(0)), max(b, Fraction(0))
        return 2 * a * b / (a + b) if a + b > 0 else Fraction(0)

    return Interval(h(p.lo, r.lo), h(p.hi, r.hi))


def _bare_letters(view: TableView, ops: tuple[Operand, ...]) -> bool:
    labels = [view.leaf(o.pos[1]) if o.pos[0] == ops[0].pos[0] else view.row_labels.get(o.pos[0], "") for o in ops]
    return any(len(leaf_label(label)) == 1 for label in labels)


def _in_order(*positions: tuple[int, int]) -> bool:
    """Adjacent and in this order, along a row or along a column."""
    rows, cols = [p[0] for p in positions], [p[1] for p in positions]
    along_row = len(set(rows)) == 1 and cols == list(range(cols[0], cols[0] + len(cols)))
    along_col = len(set(cols)) == 1 and rows == list(range(rows[0], rows[0] + len(rows)))
    return along_row or along_col


def _judge(view: TableView, line: Line) -> Issue | None:
    ops = line.operands
    if set(ops) != {"p", "r", "f"}:
        return None
    p, r, f = ops["p"], ops["r"], ops["f"]
    if _bare_letters(view, (p, r, f)) and not _in_order(p.pos, r.pos, f.pos):
        return None  # "P", "R", "F" alone may be a p-value, a correlation and an F statistic: only as "P R F"
    if len({o.number.percent for o in (p, r, f)}) > 1 or len({o.number.value <= 1 for o in (p, r, f)}) > 1:
        return None  # printed on different scales
    computed = harmonic(p.number.interval, r.number.interval)
    context = " ".join([view.col_label(f.pos[1]), view.row_labels.get(f.pos[0], ""), view.table.caption])
    pooled = POOLED.search(context) is not None
    printed = f.number.interval
    if pooled and not computed.overlaps(printed):
        relation, why = "F1 = 2PR / (P + R)", "a single pooled (micro) confusion matrix is stated"
    elif computed.below(printed):
        relation, why = "F1 <= 2PR / (P + R)", "the bound holds under any averaging (macro, per-example, per-seed)"
    else:
        return None
    return relation_issue(
        view,
        message=(
            f"F1 {f.number.text} ({line.where}) breaks {relation}: precision {p.number.text} and recall "
            f"{r.number.text} give {computed.describe(4)}"
        ),
        relation=relation,
        operands=[f, p, r],
        computed=computed,
        why=f"the labels name precision, recall and F1 of one line; {why}",
        certainty="exact",
        subject=f,
    )
