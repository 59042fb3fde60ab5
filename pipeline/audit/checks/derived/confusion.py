"""derived-confusion: per-class recall (or accuracy) printed beside a confusion matrix, recomputed from its counts.

A square block of whole numbers is a confusion matrix only when its row labels and column labels are the
same set of classes: an extra column ("Unassigned", "Other") changes what a row's total means, so such a
table is not read. A column after the matrix named recall / accuracy / sensitivity / "% correct" is
diag / row total; a row named precision / PPV is diag / column total. Both follow from the printed counts
exactly, so a mismatch is an error.
"""

from __future__ import annotations

import re
from fractions import Fraction

from pipeline.audit.checks.base import Issue
from pipeline.audit.checks.derived.arith import point
from pipeline.audit.checks.derived.evidence import Operand, leading_number, relation_issue
from pipeline.audit.checks.derived.layout import leaf_label
from pipeline.audit.context import AuditInput
from pipeline.audit.tableview import TableView

_PER_ROW = re.compile(r"recall|accuracy|acc\.?|sensitivity|% ?correct|correct ?%|tpr", re.I)
_PER_COL = re.compile(r"precision|ppv|prec\.?", re.I)


def check_confusion(inp: AuditInput) -> list[Issue]:
    issues: list[Issue] = []
    for view in inp.views:
        matrix = _matrix(view)
        if matrix is not None:
            issues.extend(_judge(view, *matrix))
    return issues


def _matrix(view: TableView) -> tuple[list[int], list[int]] | None:
    """(rows, cols) of the classes, when the stub and the header name the same classes in the same order."""
    rows = {leaf_label(view.row_labels.get(r, "")): r for r in view.body_rows}
    cols = {leaf_label(view.leaf(c)): c for c in view.value_cols}
    classes = [label for label in cols if label in rows and label]
    if len(classes) < 2:
        return None
    class_rows, class_cols = [rows[k] for k in classes], [cols[k] for k in classes]
    other_cols = [
        c for c in view.value_cols if c not in class_cols and not _PER_ROW.fullmatch(leaf_label(view.leaf(c)))
    ]
    if other_cols and not all(_total_label(view.leaf(c)) for c in other_cols):
        return None  # a column the classes do not name ("Unassigned"): the row totals mean something else
    counts = [view.numbers.get((r, c)) for r in class_rows for c in class_cols]
    if any(n is None or n.decimals or n.value < 0 for n in counts):
        return None
    return class_rows, class_cols


def _total_label(label: str) -> bool:
    return bool(re.fullmatch(r"total|sum|n|all", leaf_label(label)))


def _judge(view: TableView, rows: list[int], cols: list[int]) -> list[Issue]:
    issues = []
    for col in view.value_cols:
        if col not in cols and _PER_ROW.fullmatch(leaf_label(view.leaf(col))):
            for i, row in enumerate(rows):
                issues.extend(_rate(view, (row, col), (row, cols[i]), [(row, c) for c in cols], "recall"))
    for row in view.body_rows:
        if row not in rows and _PER_COL.fullmatch(leaf_label(view.row_labels.get(row, ""))):
            for i, col in enumerate(cols):
                issues.extend(_rate(view, (row, col), (rows[i], col), [(r, col) for r in rows], "precision"))
    return issues


def _rate(
    view: TableView, at: tuple[int, int], diag: tuple[int, int], line: list[tuple[int, int]], kind: str
) -> list[Issue]:
    printed = leading_number(view.text(*at))
    counts = [view.numbers[p] for p in line]
    total = sum(int(n.value) for n in counts)
    hit = int(view.numbers[diag].value)
    if printed is None or total == 0:
        return []
    scale = Fraction(100) if printed.value > 1 or printed.percent else Fraction(1)
    exact = point(Fraction(hit, total) * scale)
    if exact.overlaps(printed.interval):
        return []
    operands = [Operand(kind, at, printed), *(Operand("count", p, n) for p, n in zip(line, counts, strict=True))]
    return [
        relation_issue(
            view,
            message=(
                f"{kind} {printed.text} is not {'100 x ' if scale != 1 else ''}{hit} / {total} = "
                f"{float(exact.lo):.{printed.decimals + 2}f} from the confusion matrix's "
                f"{'row' if kind == 'recall' else 'column'}"
            ),
            relation=f"{kind} = diagonal / {'row' if kind == 'recall' else 'column'} total",
            operands=operands,
            computed=exact,
            why="the stub and the header name the same classes, so the counts form a confusion matrix",
            certainty="exact",
            subject=operands[0],
        )
    ]
