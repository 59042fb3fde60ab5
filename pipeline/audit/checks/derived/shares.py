"""derived-shares: a printed percentage against the count and the total it is the share of.

The grammar reads "23 (71%)", "23/33 (70%)" and "15 (36)" under an "n (%)" label as a count with its share. A
share is checked against:

- the total printed beside it ("a/b (p%)"): p = 100 a / b is exact, an error when off;
- no total at all: a count whose share no whole number of cases gives (rounded or cut) is impossible, an error;
- the total the table states for the column or the block: a header "(n = 120)", an "N" row (it governs the rows
  below it, up to the next one), the caption ("n = 120"). A row may count only its own non-missing cases, so the
  column's rows must fit their totals all but one (at least three of them), and the one misfit is a warning;
- where no total is printed: the one denominator all rows but one fit, the misfit a warning.

A value correct at one fewer decimal is accepted where the column mixes precisions; a value that is the truncated
share is a note. A total found by its label ("Neoplasms (total)", "Overall", "All") whose count the rows above it
add up to exactly (counts are whole) must have their shares add up to its share, or to 100 (shares of the
group): a warning otherwise, as the rows are assumed to share one denominator.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from pipeline.audit.checks.base import Issue
from pipeline.audit.checks.derived.arith import point
from pipeline.audit.checks.derived.evidence import Operand, relation_issue
from pipeline.audit.context import AuditInput
from pipeline.audit.tableview import Pos, TableView
from pipeline.numbers import Interval, PrintedNumber, fold_label, interval_sum, parse_number

_TOTAL = re.compile(r"\(?\b[nN]\s*=\s*(?P<n>\d[\d,]*)\)?")
_N_ROW = re.compile(
    r"(?:^|,\s*)(?:n|N)\s*$|^(?:sample size|number of (?:participants|patients|subjects|samples|cases))$", re.I
)
_NOT_A_SHARE = re.compile(r"\b(?:mean|median|sd|s\.d\.|iqr|range|age|years?|score)\b|±", re.I)
_SAYS_SHARE = re.compile(r"%|\bn\s*\(|percent|proportion", re.I)
_WEIGHTED = re.compile(r"\bweighted\b", re.I)  # survey-weighted shares are no count over a count
# a total by its label: the word alone or last ("Neoplasms (total)"), never first ("Total cholesterol" is a
# category); "ALL" in capitals is an abbreviation (acute lymphoblastic leukemia)
_TOTAL_ROW = re.compile(r"^(?:[Tt]otal|TOTAL|[Ss]ubtotal|[Oo]verall|OVERALL|All)$|(?i:\(total\)|,\s*total|\stotal)$")
MIN_FITS = 3


@dataclass(frozen=True)
class Line:
    """One count with its share in a column, and the total the table states for it (None: not stated)."""

    pos: Pos
    count: int
    share: PrintedNumber
    total: int | None = None
    source: str = ""


def check_shares(inp: AuditInput) -> list[Issue]:
    issues: list[Issue] = []
    for view in inp.views:
        if _WEIGHTED.search(view.table.caption):
            continue
        for col in view.value_cols:
            lines = count_lines(view, col)
            issues.extend(_own_totals(view, lines))
            issues.extend(_impossible(view, lines))
            issues.extend(_stated_totals(view, lines))
            issues.extend(_sum_to_totals(view, lines))
    return issues


def count_lines(view: TableView, col: int) -> list[Line]:
    """The column's counts with their shares, each with the total the header, an N row or the caption states."""
    says = bool(_SAYS_SHARE.search(view.col_label(col) + " " + view.table.caption))
    totals = stated_totals(view, col)
    lines = []
    for row in range(view.table.header_rows, view.table.n_rows):
        number = view.numbers.get((row, col))
        if number is None or row in totals.n_rows or _NOT_A_SHARE.search(stub_label(view, row)):
            continue  # "58 (9)" on "Age, mean (SD)" is a value and its spread
        if _may_be_count(number) and (says or _SAYS_SHARE.search(_row_context(view, row))):
            number = parse_number(view.text(row, col), counts=True) or number  # "41 (34.2)", the caption says n (%)
        if number.share is not None and number.whole is None:
            total, source = totals.of(row) or (None, "")
            lines.append(Line((row, col), int(number.value), number.share, total, source))
        elif number.share is not None and number.whole:
            lines.append(Line((row, col), int(number.value), number.share, number.whole, "own"))
    return lines


@dataclass
class StatedTotals:
    """The totals a table states for one column: its header or caption ("n = 120"), else its N rows, each
    governing the rows below it up to the next (the first one also those above it: an N printed last)."""

    fixed: tuple[int, str] | None
    n_rows: dict[int, tuple[int, str]]

    def of(self, row: int) -> tuple[int, str] | None:
        if self.fixed is not None:
            return self.fixed
        above = [r for r in self.n_rows if r < row]
        return self.n_rows[max(above)] if above else next(iter(self.n_rows.values()), None)


def stated_totals(view: TableView, col: int) -> StatedTotals:
    n_rows = {r: (n, f"the row '{stub_label(view, r)}' (row {r}) gives the total {n} for the rows below it")
              for r in range(view.table.header_rows, view.table.n_rows)
              if (n := _n_row_total(view, r, col)) is not None}  # fmt: skip
    return StatedTotals(_header_total(view, col) or (None if n_rows else _caption_total(view)), n_rows)


def _may_be_count(number: PrintedNumber) -> bool:
    """A whole number with another in brackets: a count and its share if a label says so."""
    return number.share is None and number.spread == "()" and not number.decimals and number.value >= 0


def _header_total(view: TableView, col: int) -> tuple[int, str] | None:
    for text in view.col_paths.get(col, []):
        match = _TOTAL.search(fold_label(text))
        if match and int(match.group("n").replace(",", "")) > 0:
            total = int(match.group("n").replace(",", ""))
            return total, f"the header '{view.col_label(col)}' gives the total {total}"
    return None


def _caption_total(view: TableView) -> tuple[int, str] | None:
    """One "n = 120" in the caption (several name several groups: none is the column's)."""
    found = {int(m.group("n").replace(",", "")) for m in _TOTAL.finditer(fold_label(view.table.caption))}
    if len(found) == 1 and (total := found.pop()) > 0:
        return total, f"the caption gives the total {total}"
    return None


def _n_row_total(view: TableView, row: int, col: int) -> int | None:
    number = view.numbers.get((row, col))
    if number is not None and not number.decimals and number.share is None and number.value > 0:
        return int(number.value) if _N_ROW.search(fold_label(stub_label(view, row))) else None
    return None


def stub_label(view: TableView, row: int) -> str:
    """The row's own label as printed in its stub (the last stub cell with text), its group path left out."""
    texts = [view.text(row, c).strip() for c in range(view.table.stub_cols)]
    return next((t for t in reversed(texts) if t), view.row_labels.get(row, "").split(" / ")[-1])


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


def _own_totals(view: TableView, lines: list[Line]) -> list[Issue]:
    issues = []
    for line in (x for x in lines if x.source == "own" and x.total):
        assert line.total is not None
        exact = _share(line.count, line.total, line.share)
        verdict = _verdict(line.share, exact, mixed=False)
        if verdict != "fits":
            issues.append(_issue(view, line, line.total, exact, verdict, "exact",
                                 "the cell prints the count and its total itself (a/b)"))  # fmt: skip
    return issues


def _impossible(view: TableView, lines: list[Line]) -> list[Issue]:
    """A share no whole number of cases gives: 23 (71%) is 23/32 = 71.9% or 23/33 = 69.7%, never 71%."""
    issues = []
    for line in lines:
        if line.source == "own" or line.count == 0 or line.share.value <= 0:
            continue
        scale = 100 if line.share.value > 1 or line.share.percent else 1
        lo, hi = line.share.value - line.share.half_unit, line.share.value + 2 * line.share.half_unit  # cut too
        if hi > scale:
            continue
        wholes = range(math.ceil(line.count * scale / hi), math.floor(line.count * scale / lo) + 1) if lo > 0 else []
        if lo <= 0 or wholes:
            continue
        below = math.floor(line.count * scale / line.share.value)
        nearest = [Fraction(line.count * scale, w) for w in (below, below + 1) if w > 0]
        shown = ", ".join(f"{line.count}/{w} = {float(Fraction(line.count * scale, w)):.2f}"
                          for w in (below, below + 1) if w > 0)  # fmt: skip
        issues.append(
            relation_issue(
                view,
                message=f"{_shown(line.share)} is the share of no whole number of cases for the count {line.count} "
                f"({shown}), rounded or cut",
                relation="p = 100 n / N for some whole N",
                operands=[Operand("share", line.pos, line.share), Operand("count", line.pos, _count(line))],
                computed=Interval(min(nearest), max(nearest)),
                why="every whole denominator N was tried: none gives a share within the printed digits",
                certainty="exact",
                subject=Operand("share", line.pos, line.share),
            )
        )  # fmt: skip
    return issues


def _stated_totals(view: TableView, lines: list[Line]) -> list[Issue]:
    """Rows against their stated totals, else against the one denominator all rows but one fit."""
    lines = [x for x in lines if x.source != "own"]
    if len(lines) < MIN_FITS + 1:
        return []
    if all(x.total is not None for x in lines):
        return _majority(view, lines, lambda x: x.total or 0, _stated_why(lines))
    return _inferred(view, lines)


def _stated_why(lines: list[Line]) -> str:
    sources = list(dict.fromkeys(x.source for x in lines))
    return "; ".join(sources)


def _majority(view: TableView, lines: list[Line], total_of: Callable[[Line], int], why: str) -> list[Issue]:
    mixed = len({x.share.decimals for x in lines}) > 1
    verdicts = [(x, _verdict(x.share, _share(x.count, total_of(x), x.share), mixed)) for x in lines]
    off = [x for x, v in verdicts if v == "off"]
    fits = sum(v == "fits" for _, v in verdicts)
    truncated = [x for x, v in verdicts if v == "truncated"]
    why = f"{why}; {fits} of {len(lines)} rows fit n / N"
    issues = [_issue(view, x, total_of(x), _share(x.count, total_of(x), x.share), "truncated", "weak", why)
              for x in truncated]  # fmt: skip
    if len(off) == 1 and fits >= len(lines) - 1 - len(truncated) and fits >= MIN_FITS:
        line = off[0]
        issues.append(_issue(view, line, total_of(line), _share(line.count, total_of(line), line.share), "off",
                             "majority", why))  # fmt: skip
    return issues


def _inferred(view: TableView, lines: list[Line]) -> list[Issue]:
    """The whole number N that the most rows fit; its one misfit is a warning when every other row fits it."""
    candidates: dict[int, int] = {}
    for line in lines:
        for whole in _wholes(line):
            candidates[whole] = candidates.get(whole, 0) + 1
    if not candidates:
        return []
    best = max(candidates.values())
    totals = sorted(w for w, n in candidates.items() if n == best)
    if best != len(lines) - 1 or best < MIN_FITS:
        return []
    misfits = {x.pos for x in lines if not any(w in _wholes(x) for w in totals)}
    if len(misfits) != 1:
        return []
    total = totals[0] if len(totals) == 1 else None
    if total is None:
        return []  # several denominators fit as well: the table does not fix one
    why = f"no total is printed; {best} of {len(lines)} rows fit n / {total} and no other whole N fits as many"
    return _majority(view, lines, lambda _: total, why)


def _wholes(line: Line) -> set[int]:
    """The whole denominators N for which n / N rounds to the printed share."""
    scale = 100 if line.share.value > 1 or line.share.percent else 1
    lo, hi = line.share.interval.lo, line.share.interval.hi
    if line.count == 0 or lo <= 0:
        return set()
    first, last = math.ceil(line.count * scale / hi), math.floor(line.count * scale / lo)
    return set(range(max(first, line.count), last + 1)) if last - first < 10_000 else set()


def _sum_to_totals(view: TableView, lines: list[Line]) -> list[Issue]:
    """A labelled total whose count its rows add up to exactly: their shares add up to its share (or to 100)."""
    by_row = {x.pos[0]: x for x in lines}
    issues = []
    start = view.table.header_rows
    for row in sorted(by_row):
        if not _TOTAL_ROW.search(view.row_labels.get(row, "").split(" / ")[-1]):
            continue
        total = by_row[row]
        parts = [by_row[r] for r in sorted(by_row) if start <= r < row and not _TOTAL_ROW.search(
            view.row_labels.get(r, "").split(" / ")[-1])]  # fmt: skip
        start = row + 1
        if len(parts) < 2 or sum(x.count for x in parts) != total.count:
            continue
        shares = interval_sum(x.share.interval for x in parts)
        hundred = 100 if total.share.value > 1 or total.share.percent else 1
        if shares.overlaps(total.share.interval) or shares.contains(Fraction(hundred)):
            continue
        terms = " + ".join(x.share.text for x in parts)
        counts = " + ".join(str(x.count) for x in parts)
        issues.append(
            relation_issue(
                view,
                message=f"the shares of the {len(parts)} rows that make up '{view.row_labels.get(row, '')}' add up "
                f"to {terms} = {float(sum(x.share.value for x in parts)):g}, not its {total.share.text} (nor "
                f"{hundred}), while their counts add up to its count exactly ({counts} = {total.count})",
                relation="sum of shares = share of the total (one denominator)",
                operands=[Operand("total share", total.pos, total.share),
                          *(Operand("share", x.pos, x.share) for x in parts)],
                computed=shares,
                why="the counts partition the total exactly, so over one denominator the shares must too",
                certainty="majority",
                subject=Operand("total share", total.pos, total.share),
            )
        )  # fmt: skip
    return issues


def _row_context(view: TableView, row: int) -> str:
    """The row's label with the label rows above it in its group ("Sex, n (%) / Male")."""
    label = view.row_labels.get(row, "")
    for above in range(row - 1, view.table.header_rows - 1, -1):
        if above in view.body_rows:
            break
        label = view.text(above, 0) + " / " + label
    return label


def _shown(share: PrintedNumber) -> str:
    return share.text + ("%" if share.percent else "")


def _count(line: Line) -> PrintedNumber:
    return parse_number(str(line.count)) or line.share


def _issue(view: TableView, line: Line, whole: int, exact: Interval, verdict: str, certainty: str,
           why: str) -> Issue:  # fmt: skip
    printed = line.share
    scale = "100 x " if printed.value > 1 or printed.percent else ""
    shown = f"{float(exact.lo):.{printed.decimals + 2}f}"
    how = "is the share truncated, not rounded" if verdict == "truncated" else "is not the share"
    return relation_issue(
        view,
        message=f"{_shown(printed)} {how}: {scale}{line.count} / {whole} = {shown}",
        relation=f"p = {scale}n / N",
        operands=[Operand("share", line.pos, printed), Operand("count", line.pos, _count(line))],
        computed=exact,
        why=why,
        certainty="weak" if verdict == "truncated" else certainty,
        subject=Operand("share", line.pos, printed),
    )
