"""range-nesting: a cell printing a range with another in parentheses ("80.42–2.06 (2.13–2.04)") must print one
inside the other.

Whatever the parentheses hold (the highest-resolution shell of a crystallographic data set, a subgroup, an
interquartile range beside the full range), one range contains the other: a range that sticks out of the other
on one side only is impossible under every convention. Bounds are compared on printed precision. When the
caption or a sentence on the table's page says what the parentheses hold ("statistics for the highest
resolution shell are shown in parentheses"), the relation is stated and the finding is an error quoting it;
otherwise a warning.
"""

from __future__ import annotations

import re

from pipeline.audit.checks.base import Issue
from pipeline.audit.context import AuditInput
from pipeline.audit.tableview import Pos, TableView
from pipeline.numbers import Interval, PrintedNumber, normalise, parse_number

_NUMBER = r"\d+(?:\.\d+)?"
_RANGE_PAIR = re.compile(
    rf"^\s*(?P<a>{_NUMBER})\s*[-–—−]\s*(?P<b>{_NUMBER})\s*\(\s*(?P<c>{_NUMBER})\s*[-–—−]\s*(?P<d>{_NUMBER})\s*\)\s*$"
)
_STATES_SUBSET = re.compile(
    r"parenthes\w*[^.]*\b(?:shell|subset|sub-?group|bin)\b|\b(?:shell|subset|sub-?group|bin)\b[^.]*parenthes",
    re.IGNORECASE,
)


def check_nesting(inp: AuditInput) -> list[Issue]:
    issues: list[Issue] = []
    for view in inp.views:
        issues.extend(_overall_ranges(view))
        statement = _statement(inp, view)
        for (row, col), text in _cells(view):
            match = _RANGE_PAIR.match(normalise(text))
            if match is None:
                continue
            numbers = [parse_number(match.group(k)) for k in "abcd"]
            if any(n is None for n in numbers):
                continue
            a, b, c, d = (n for n in numbers if n is not None)
            outer, inner = _span(a, b), _span(c, d)
            if _inside(inner, outer) or _inside(outer, inner):
                continue
            issues.append(_issue(view, (row, col), text, (a, b), (c, d), statement))
    return issues


_RANGE_CELL = re.compile(
    rf"^\s*(?:(?P<m>{_NUMBER})\s*)?[(\[]?\s*(?P<a>{_NUMBER})\s*(?:[-–—−]|to)\s*(?P<b>{_NUMBER})\s*[)\]]?\s*$"
)
_OVERALL = re.compile(
    r"^(?:all|total|overall|whole (?:cohort|sample)|all (?:samples|subjects|patients|donors))\b", re.I
)
_SAYS_RANGE = re.compile(r"\brange\b", re.I)
_NOT_FULL_RANGE = re.compile(r"interquartile|\biqr\b|confidence|\bci\b|percentile", re.I)


def _overall_ranges(view: TableView) -> list[Issue]:
    """An overall row ("All", "Total") printing a range ("11.89 (5–24)") where the labels say it is the range:
    every value and range the other rows print in that column lies inside it (a part's values are values of
    the whole). An interquartile range or a confidence interval holds no such promise and is left alone."""
    issues = []
    rows = range(view.table.header_rows, view.table.n_rows)
    overall = [r for r in rows if _OVERALL.match(view.row_labels.get(r, "").split(" / ")[-1].strip())]
    for row in overall:
        for col in view.value_cols:
            words = " ".join([view.col_label(col), view.row_labels.get(row, ""), view.table.caption or ""])
            match = _RANGE_CELL.match(normalise(view.text(row, col)))
            if match is None or not _SAYS_RANGE.search(words) or _NOT_FULL_RANGE.search(words):
                continue
            low, high = (parse_number(match.group(k)) for k in "ab")
            if low is None or high is None:
                continue
            whole = _span(low, high)
            for other in (r for r in view.body_rows if r not in overall):
                part = _RANGE_CELL.match(normalise(view.text(other, col)))
                values = [parse_number(part.group(k)) for k in "mab" if part.group(k)] if part else []
                values = values or [view.numbers.get((other, col))]
                outside = [v for v in values if v is not None and not _inside(v.interval, whole)]
                if outside:
                    issues.append(_omitted(view, (row, col), (other, col), outside[0], whole))
    return issues


def _omitted(view: TableView, pos: Pos, part: Pos, value: PrintedNumber, whole: Interval) -> Issue:
    text = view.text(*pos).strip()
    row, other = view.row_labels.get(pos[0], ""), view.row_labels.get(part[0], "")
    return Issue(
        f"'{row}' prints the range {text} under '{view.col_label(pos[1])}', but '{other}' prints {value.text} "
        "in the same column: the overall range omits a value of its own parts",
        table=view.table,
        cells=[pos, part],
        expected={"relation": "every part's value lies inside the overall range", "range": whole.describe()},
        found={"printed": value.text},
        tolerance="printed precision: each bound stands for the interval of half a unit of its last digit",
        certainty="likely",
        reason="that the rows are parts of the overall row is read from its label",
        details={"relation": "nested ranges"},
    )


def _cells(view: TableView) -> list[tuple[tuple[int, int], str]]:
    table = view.table
    return [
        ((cell.row, cell.col), cell.reading)
        for cell in table.cells
        if cell.row >= table.header_rows and cell.col >= table.stub_cols and cell.reading.strip()
    ]


def _span(x: PrintedNumber, y: PrintedNumber) -> Interval:
    """The range from the smaller bound to the larger, each bound widened by its printed precision."""
    low, high = sorted((x, y), key=lambda n: n.value)
    return Interval(low.interval.lo, high.interval.hi)


def _inside(inner: Interval, outer: Interval) -> bool:
    return outer.lo <= inner.lo and inner.hi <= outer.hi


def _statement(inp: AuditInput, view: TableView) -> str | None:
    """A sentence of the caption, or of the table's pages (its footnotes), that says the parentheses hold a part."""
    for sentence in inp.statements_about(view.table, pages=True):
        match = _STATES_SUBSET.search(sentence)
        if match:  # a footnote read into the line beside it starts at its own capital letter
            starts = [m.start() for m in re.finditer(r"(?<=[a-z] )[A-Z]", sentence[: match.start()])]
            return sentence[starts[-1] if starts else 0 :].strip()
    return None


def _issue(
    view: TableView,
    pos: tuple[int, int],
    text: str,
    outer: tuple[PrintedNumber, PrintedNumber],
    inner: tuple[PrintedNumber, PrintedNumber],
    statement: str | None,
) -> Issue:
    row_label = view.row_labels.get(pos[0], "")
    shown = f"{outer[0].text}–{outer[1].text}", f"{inner[0].text}–{inner[1].text}"
    why = (
        f'the paper says what the parentheses hold: "{statement}"'
        if statement
        else "a range printed in parentheses after another is a part of it (or holds it) under every convention"
    )
    return Issue(
        f"'{row_label}' prints {text.strip()}: the range in parentheses ({shown[1]}) is neither inside the range "
        f"before it ({shown[0]}) nor holds it; it sticks out on one side. {why[0].upper()}{why[1:]}",
        table=view.table,
        cells=[pos],
        expected={
            "relation": "the range in parentheses lies inside the range before it (or holds it)",
            "applies because": why,
        },
        found={"printed": text.strip(), "outer": _span(*outer).describe(), "inner": _span(*inner).describe()},
        tolerance="printed precision: each bound stands for the interval of half a unit of its last digit",
        severity="error" if statement else "warning",
        certainty="proved" if statement else "likely",
        reason="" if statement else "what the parentheses hold is not stated; any part of a range nests in it",
        details={"relation": "nested ranges", "statement": statement or ""},
    )
