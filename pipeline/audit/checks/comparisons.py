"""text-comparison-swapped: a sentence says one thing is higher (or lower) than another and quotes the two values
in parentheses, first the one it speaks of ("Km was slightly higher in A (6.5 μM versus 8.3 μM)"), while the
numbers go the other way and the table prints them in one column.

The comparative and the parenthesis must sit in one clause (no comma, no second comparative between them), with
no negation before the comparative. Words of merit ("better", "worse") are left out: their direction depends on
the metric. Both numbers must be cells of one column of a table of the paper (within rounding), and when the
sentence names the row the comparison is about, the table says which value is whose. Read from words: a warning.
"""

from __future__ import annotations

import re

from pipeline.audit.checks.base import Issue
from pipeline.audit.context import AuditInput
from pipeline.audit.tableview import Pos, TableView
from pipeline.audit.text import Sentence
from pipeline.numbers import PrintedNumber, parse_number

_UP = "higher|greater|larger|more|increased"
_DOWN = "lower|smaller|less|fewer|reduced|decreased"
_NUM = r"\d+(?:\.\d+)?"
_COMPARISON = re.compile(
    rf"\b(?P<word>{_UP}|{_DOWN})\b(?P<mid>[^(),;]{{0,120}}?)\(\s*(?P<a>{_NUM})(?P<ua>[^(),;]{{0,40}}?)\s*"
    rf"\b(?:versus|vs\.?|compared (?:with|to))\s*(?P<b>{_NUM})",
    re.IGNORECASE,
)
_NEGATION = re.compile(r"\b(?:not|no|neither|nor|never)\b[^,;]{0,30}$", re.IGNORECASE)
_SECOND = re.compile(rf"\b(?:{_UP}|{_DOWN}|similar|same|equal)\b", re.IGNORECASE)


def check_comparisons(inp: AuditInput) -> list[Issue]:
    if inp.text is None:
        return []
    issues: list[Issue] = []
    for sentence in inp.text.sentences:
        for match in _COMPARISON.finditer(sentence.text):
            if _NEGATION.search(sentence.text[: match.start()]) or _SECOND.search(match.group("mid")):
                continue
            a, b = parse_number(match.group("a")), parse_number(match.group("b"))
            if a is None or b is None or a.interval.overlaps(b.interval):
                continue
            higher = re.fullmatch(_UP, match.group("word"), re.IGNORECASE) is not None
            if (a.value > b.value) == higher:
                continue
            cells = _one_column(inp.views, a, b)
            if cells is not None:
                issues.append(_issue(sentence, match, cells, higher))
    return issues


def _one_column(views: list[TableView], a: PrintedNumber, b: PrintedNumber) -> tuple[TableView, Pos, Pos] | None:
    """The table and the two cells of one column that print the two numbers, when exactly one pair does."""
    pairs = []
    for view in views:
        for col in view.value_cols:
            first, second = (_rows_printing(view, col, n) for n in (a, b))
            if len(first) == 1 and len(second) == 1 and first != second:
                pairs.append((view, (first[0], col), (second[0], col)))
    return pairs[0] if len(pairs) == 1 else None


def _rows_printing(view: TableView, col: int, number: PrintedNumber) -> list[int]:
    return [r for r in view.body_rows if (n := view.numbers.get((r, col))) and n.interval.overlaps(number.interval)]


def _issue(sentence: Sentence, match: re.Match[str], cells: tuple[TableView, Pos, Pos], higher: bool) -> Issue:
    view, first, second = cells
    label = view.table.label or "a table"
    names = [view.row_labels.get(pos[0], "").split(" / ")[-1] for pos in (first, second)]
    subject = match.group("mid")
    owner = next((name for name in names if name and name in subject), None)
    whose = (f"; {label} prints {match.group('b')} for '{owner}', the row the sentence says is "
             f"{'higher' if higher else 'lower'}: the two values are swapped" if owner == names[1] else "")  # fmt: skip
    clause = match.group(0)
    return Issue(
        f'the text (p. {sentence.page}) says "{clause}...": the first value is the one it speaks of, yet '
        f"{match.group('a')} is {'below' if higher else 'above'} {match.group('b')} (rows '{names[0]}' and "
        f"'{names[1]}' of {label}, column '{view.col_label(first[1])}'){whose}",
        table=view.table,
        cells=[first, second],
        subjects=[first, second],
        expected={
            "relation": f"first value {'>' if higher else '<'} second value",
            "applies because": f"the sentence says '{match.group('word')}'",
        },
        found={"sentence": sentence.text[:300], "page": sentence.page},
        tolerance="printed precision of the text",
        certainty="likely",
        reason="the direction and whose value comes first are read from the sentence's words",
    )
