"""Multi-class diagnostic rates: each class's Se, Sp, PPV and NPV pin its prevalence pi_k (one-vs-rest), and the
overall figures must then follow: the pi_k sum to 1 (a warning: which class is off is not known), NIR = max
pi_k, accuracy = sum of Se_k * pi_k.

Each pi_k is bounded by the hull of the prevalences its own rates allow (a superset, so a verdict of
"impossible" stays a proof); the overall accuracy is bounded by sum Se_k.lo * pi_k.lo and sum Se_k.hi *
pi_k.hi, the NIR by the largest bounds. Accuracy or NIR outside those bounds is flagged.
"""

from __future__ import annotations

from fractions import Fraction

from pipeline.audit.checks.base import Issue
from pipeline.audit.checks.derived.evidence import Operand, relation_issue
from pipeline.audit.checks.derived.layout import Line
from pipeline.audit.tableview import TableView
from pipeline.numbers import Interval

Feasible = list[bool]


def check_classes(
    view: TableView,
    classes: list[Line],
    overall: dict[str, Operand],
    prevalence: list[Interval | None],
    scale: Fraction,
    loose: bool = False,
) -> list[Issue]:
    """``prevalence[k]``: the hull of class k's feasible prevalences (None when its rates pin none). ``loose``: some
    class's own rates share no prevalence, so its hull spans what each of them allows; the overall figures are
    then judged on that wider hull, as a warning (one of that class's rates is off, and which is not known)."""
    if len(classes) < 2 or any(p is None for p in prevalence):
        return []
    pis = [p for p in prevalence if p is not None]
    sens = [line.operands["se"].number.interval.scaled(1 / scale) for line in classes]
    bounds = {
        "acc": Interval(
            sum((s.lo * p.lo for s, p in zip(sens, pis, strict=True)), Fraction(0)),
            sum((s.hi * p.hi for s, p in zip(sens, pis, strict=True)), Fraction(0)),
        ),
        "nir": Interval(max(p.lo for p in pis), max(p.hi for p in pis)),
    }
    relations = {"acc": "Acc = sum over classes of Se_k * pi_k", "nir": "NIR = max over classes of pi_k"}
    issues = []
    total = Interval(sum((p.lo for p in pis), Fraction(0)), sum((p.hi for p in pis), Fraction(0)))
    if not total.overlaps(Interval(Fraction(1), Fraction(1))):
        first = classes[0].operands["se"]
        issues.append(
            relation_issue(
                view,
                message=(
                    f"the prevalences the {len(classes)} classes' rates imply sum to {total.describe(3)}, not 1: "
                    "one of the classes' Se, Sp, PPV or NPV is off"
                ),
                relation="sum over classes of pi_k = 1",
                operands=[first, *(line.operands["se"] for line in classes[1:])],
                computed=total,
                why="one Se/Sp/PPV/NPV block per class of one classifier: the classes partition the cases",
                certainty="majority",
                subject=first,
            )
        )
    for role, bound in bounds.items():
        op = overall.get(role)
        if op is None or bound.overlaps(op.number.interval.scaled(1 / scale)):
            continue
        shown = bound.scaled(scale)
        issues.append(
            relation_issue(
                view,
                message=(
                    f"{'accuracy' if role == 'acc' else 'NIR'} {op.number.text} (column '{view.col_label(op.pos[1])}') "
                    "cannot follow from the "
                    f"{len(classes)} classes' rates: their prevalences (from each class's Se, Sp, PPV, NPV) give "
                    f"{shown.describe(3)}"
                ),
                relation=relations[role],
                operands=[op, *(line.operands["se"] for line in classes)],
                computed=shown,
                why=(
                    "one Se/Sp/PPV/NPV block per class under one overall accuracy and NIR: a multi-class table, "
                    "whose class prevalences each class's rates pin"
                ),
                certainty="majority" if loose else "exact",
                subject=op,
                reason=(
                    "one class's own rates share no prevalence; each class's prevalence is bounded by what any of "
                    "its rates allows"
                    if loose
                    else None
                ),
            )
        )
    return issues
