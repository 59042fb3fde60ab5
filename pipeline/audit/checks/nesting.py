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
from pipeline.audit.tableview import TableView
from pipeline.audit.text import split_sentences
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
    sentences = split_sentences(view.table.caption or "")
    if inp.text is not None:
        pages = {view.table.page, *view.table.continued_pages}
        sentences += [s.text for s in inp.text.sentences if s.page in pages]
    for sentence in sentences:
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
