"""derived-shares: a printed percentage against the count and the total it is the share of.

"a/b (p%)" states both operands: p = 100 a / b is exact (an error when off). "n (p)" states only the count:
the total comes from the column header ("(n = 120)", "N = 120"), and a column whose every row but one fits
n / N is taken to use that denominator, so its one misfit is a warning (a row may count only its own
non-missing cases, which is why a column that fits in fewer rows says nothing). A value correct at one
fewer decimal is accepted where the column mixes precisions; a value that is the truncated share is a note.
Category rows named "Total ..." are rows like any other: no sum is assumed anywhere.
"""

from __future__ import annotations

import re
from fractions import Fraction

from pipeline.audit.checks.base import Issue
from pipeline.audit.checks.derived.arith import point
from pipeline.audit.checks.derived.evidence import Operand, relation_issue
from pipeline.audit.context import AuditInput
from pipeline.audit.tableview import Pos, TableView
from pipeline.numbers import Interval, PrintedNumber, parse_number

_NUM = r"\d+(?:\.\d+)?"
_RATIO = re.compile(rf"^\s*(?P<a>\d+)\s*/\s*(?P<b>\d+)\s*\(\s*(?P<p>{_NUM})\s*(?P<pct>%?)\s*\)\s*$")
_COUNT = re.compile(rf"^\s*(?P<n>\d[\d,]*)\s*\(\s*(?P<p>{_NUM})\s*(?P<pct>%?)\s*\)\s*$")
_TOTAL = re.compile(r"\(?\b[nN]\s*=\s*(?P<n>\d[\d,]*)\)?")
_N_ROW = re.compile(
    r"(?:^|,\s*)(?:n|N)\s*$|^(?:sample size|number of (?:participants|patients|subjects|samples))$", re.I
)
_NOT_A_SHARE = re.compile(r"\b(?:mean|median|sd|s\.d\.|iqr|range|age|years?|score)\b|±", re.I)
_SAYS_SHARE = re.compile(r"%|\bn\s*\(|percent|proportion", re.I)
MIN_FITS = 3


def check_shares(inp: AuditInput) -> list[Issue]:
    issues: list[Issue] = []
    for view in inp.views:
        issues.extend(_ratio_cells(view))
        for col in view.value_cols:
            issues.extend(_count_column(view, col))
    return issues


def _share(part: int, whole: int, printed: PrintedNumber) -> Interval:
    return point(Fraction(100 * part, whole) if printed.value > 1 or printed.percent else Fraction(part, whole))


def _verdict(printed: PrintedNumber, exact: Interval, mixed: bool) -> str:
    """ "fits", "truncated" (the share cut, not rounded, to the printed digits) or "off"."""
    if exact.overlaps(printed.interval):
        return "fits"
    if mixed and exact.overlaps(
        Interval(printed.value - 10 * printed.half_unit, printed.value + 10 * printed.half_unit)
    ):
        return "fits"
    unit = 2 * printed.half_unit
    if printed.value <= exact.lo < printed.value + unit:
        return "truncated"
    return "off"


def _ratio_cells(view: TableView) -> list[Issue]:
    issues = []
    for cell in view.table.cells:
        match = _RATIO.match(cell.text)
        if cell.row < view.table.header_rows or not match or int(match.group("b")) == 0:
            continue
        printed = parse_number(match.group("p") + match.group("pct"))
        if printed is None:
            continue
        a, b = int(match.group("a")), int(match.group("b"))
        exact = _share(a, b, printed)
        verdict = _verdict(printed, exact, mixed=False)
        if verdict == "fits":
            continue
        issues.append(_issue(view, (cell.row, cell.col), printed, a, b, exact, verdict, "exact",
                             "the cell prints the count and its total itself (a/b)"))  # fmt: skip
    return issues


def _count_column(view: TableView, col: int) -> list[Issue]:
    """The column's total: from its header, else the one of its "N" rows most of its rows are shares of."""
    header = _column_total(view, col)
    if header is not None:
        return _count_lines(view, col, header, f"the header '{view.col_label(col)}' gives the total {header}")
    best: list[Issue] = []
    for row, total in _n_rows(view, col):
        found = _count_lines(view, col, total, f"the row '{view.row_labels.get(row, '')}' gives the total {total}")
        if found and (not best or len(found) < len(best)):
            best = found
    return best


def _n_rows(view: TableView, col: int) -> list[tuple[int, int]]:
    found = []
    for row in view.body_rows:
        number = view.numbers.get((row, col))
        label = view.row_labels.get(row, "").split(" / ")[-1].strip()
        if number is not None and not number.decimals and number.value > 0 and _N_ROW.search(label):
            found.append((row, int(number.value)))
    return found


def _count_lines(view: TableView, col: int, total: int, source: str) -> list[Issue]:
    lines: list[tuple[Pos, int, PrintedNumber]] = []
    header_says = bool(_SAYS_SHARE.search(view.col_label(col) + " " + view.table.caption))
    for row in view.body_rows:
        label = _row_context(view, row)
        if _NOT_A_SHARE.search(label) or not (header_says or _SAYS_SHARE.search(label)):
            continue  # "58 (9)" under "Age, mean (SD)" is not a count and its share
        match = _COUNT.match(view.text(row, col))
        printed = parse_number(match.group("p") + match.group("pct")) if match else None
        if match and printed is not None:
            lines.append(((row, col), int(match.group("n").replace(",", "")), printed))
    if len(lines) < MIN_FITS + 1:
        return []
    mixed = len({p.decimals for _, _, p in lines}) > 1
    verdicts = [(line, _verdict(line[2], _share(line[1], total, line[2]), mixed)) for line in lines]
    off = [line for line, v in verdicts if v == "off"]
    fits = sum(v == "fits" for _, v in verdicts)
    why = f"{source}; {fits} of {len(lines)} rows fit n / {total}"
    issues = []
    for line, verdict in verdicts:
        if verdict == "truncated":
            issues.append(
                _issue(view, line[0], line[2], line[1], total, _share(line[1], total, line[2]), verdict, "weak", why)
            )
    if len(off) == 1 and fits >= len(lines) - 1 - len(issues) and fits >= MIN_FITS:
        pos, n, printed = off[0]
        issues.append(_issue(view, pos, printed, n, total, _share(n, total, printed), "off", "majority", why))
    return issues


def _row_context(view: TableView, row: int) -> str:
    """The row's label with the label rows above it in its group ("Sex, n (%) / Male")."""
    label = view.row_labels.get(row, "")
    for above in range(row - 1, view.table.header_rows - 1, -1):
        if above in view.body_rows:
            break
        label = view.text(above, 0) + " / " + label
    return label


def _column_total(view: TableView, col: int) -> int | None:
    for text in view.col_paths.get(col, []):
        match = _TOTAL.search(text)
        if match:
            value = int(match.group("n").replace(",", ""))
            return value if value > 0 else None
    return None


def _issue(view: TableView, pos: Pos, printed: PrintedNumber, part: int, whole: int, exact: Interval,
           verdict: str, certainty: str, why: str) -> Issue:  # fmt: skip
    scale = "100 x " if printed.value > 1 or printed.percent else ""
    shown = f"{float(exact.lo):.{printed.decimals + 2}f}"
    how = "is the share truncated, not rounded" if verdict == "truncated" else "is not the share"
    return relation_issue(
        view,
        message=f"{printed.text}{'%' if printed.percent else ''} {how}: {scale}{part} / {whole} = {shown}",
        relation=f"p = {scale}n / N",
        operands=[Operand("share", pos, printed), Operand("count", pos, parse_number(str(part)) or printed)],
        computed=exact,
        why=why,
        certainty="weak" if verdict == "truncated" else certainty,
        subject=Operand("share", pos, printed),
    )
