"""text-claim-mismatch, prose that quantifies many cells at once: "below 0.1 on every dataset", "a 3–4 point
gain over X". Such a claim covers every cell of the line it names (a model's row, or its column when models are
columns) and is checked against each of them, with the rounding of the text and the cells honoured.

A bound ("below", "under", "less than", "above", "at least", ...) needs a quantifier over the line ("every",
"all", "each", "any", "consistently", "always") and a named line; the threshold is taken as exact, and a cell
contradicts it only when its whole printed-precision interval lies on the wrong side. A gain needs two named
lines (the subject before the words, the reference after "over", "than", "compared with") and a range ("3–4
points") or a quantifier; each difference of a pair of cells must meet the range widened by half a unit of its
last digit ("%" may also be relative to the reference). Points on a 0-1 scale are read as hundredths. A
sentence speaking of an average claims nothing about each cell and is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from pipeline.audit.checks.base import Issue
from pipeline.audit.tableview import Pos, TableView
from pipeline.audit.text import Sentence
from pipeline.numbers import Interval, PrintedNumber, parse_number

_NUM = r"\d+(?:\.\d+)?"
_EVERY = re.compile(r"\b(?:every|all|each|any|consistently|always|uniformly)\b", re.I)
_AVERAGE = re.compile(r"\b(?:on average|average[ds]?|mean|overall|median)\b", re.I)
_BOUND = re.compile(
    rf"(?P<word>below|under|less than|lower than|smaller than|above|over|more than|greater than|higher than|"
    rf"exceed(?:s|ing)?|at least|at most|no more than|no less than|[<>≤≥])\s*"
    rf"(?P<num>{_NUM})(?!\s?/\s?\d)(?P<pct>\s?%)?",
    re.I,
)
_UPPER = {"below", "under", "less than", "lower than", "smaller than", "at most", "no more than", "<", "≤"}
_STRICT = {"below", "under", "less than", "lower than", "smaller than", "<", "above", "over", "more than",
           "greater than", "higher than", "exceed", "exceeds", "exceeding", ">"}  # fmt: skip
_GAIN = re.compile(
    rf"(?P<lo>{_NUM})(?:\s*(?:–|-|to)\s*(?P<hi>{_NUM}))?[- ]?\s*(?P<unit>percentage[- ]points?|points?|pp\b|%)"
    r"[^.;]{0,40}?\b(?:gains?|improvements?|increases?|higher|better|advantage|margin|lead)\b"
    r"[^.;]{0,30}?\b(?:over|than|compared (?:with|to)|versus|vs\.?)\s",
    re.I,
)


@dataclass(frozen=True)
class _Line:
    axis: str  # "row": the cells of a row; "col": of a column
    index: int
    label: str
    at: int  # where the sentence names it

    def cells(self, view: TableView) -> list[Pos]:
        if self.axis == "row":
            return [(self.index, c) for c in view.value_cols if (self.index, c) in view.numbers]
        return [(r, self.index) for r in view.body_rows if (r, self.index) in view.numbers]


NamedAt = Callable[[str, str], list[int]]  # (text, label) -> where the text names the label as a whole word


def quantified_claims(view: TableView, sentence: Sentence, named_at: NamedAt) -> list[Issue]:
    """The cells of ``view`` that contradict a bound or a gain the sentence states for a whole line."""
    text = sentence.text
    if _AVERAGE.search(text):
        return []
    lines = _named_lines(view, text, named_at)
    issues = []
    bound = _BOUND.search(text)
    if bound and _EVERY.search(text[bound.end() :] + text[: bound.start()]):
        subject = _nearest_before(lines, bound.start())
        if subject is not None:
            issues += _bound_issues(view, sentence, subject, bound)
    gain = _GAIN.search(text)
    if gain and (gain.group("hi") or _EVERY.search(text)):
        subject = _nearest_before(lines, gain.start())
        reference = next((line for line in lines if line.at >= gain.end() - 1), None)
        if subject is not None and reference is not None and subject.axis == reference.axis:
            issues += _gain_issues(view, sentence, subject, reference, gain)
    return issues


def _named_lines(view: TableView, text: str, named_at: NamedAt) -> list[_Line]:
    lines = []
    for row in view.body_rows:
        label = view.row_labels.get(row, "").split(" / ")[-1]
        lines += [_Line("row", row, label, at) for at in named_at(text, label)[:1]]
    for col in view.value_cols:
        label = view.leaf(col)
        lines += [_Line("col", col, label, at) for at in named_at(text, label)[:1]]
    return sorted(lines, key=lambda line: line.at)


def _nearest_before(lines: list[_Line], position: int) -> _Line | None:
    before = [line for line in lines if line.at < position]
    return before[-1] if before else None


def _scale(cells: list[PrintedNumber], claimed: Fraction, percent: bool) -> Fraction:
    """Points or percent said of cells printed on a 0-1 scale are hundredths."""
    fractions = all(abs(n.value) <= 1 and not n.percent for n in cells)
    return Fraction(1, 100) if fractions and (percent or claimed > 1) else Fraction(1)


def _bound_issues(view: TableView, sentence: Sentence, line: _Line, bound: re.Match[str]) -> list[Issue]:
    word = bound.group("word").lower()
    claimed = parse_number(bound.group("num"))
    cells = line.cells(view)
    if claimed is None or len(cells) < 2:
        return []
    numbers = [view.numbers[p] for p in cells]
    scale = _scale(numbers, claimed.value, bool(bound.group("pct")))
    limit = Interval(claimed.value * scale, claimed.value * scale)  # a threshold is exact; the cells are rounded
    upper = word in _UPPER
    strict = word in _STRICT
    wrong = [p for p, n in zip(cells, numbers, strict=True) if _breaks(n.interval, limit, upper, strict)]
    if not wrong:
        return []
    claim = bound.group(0).strip()
    shown = ", ".join(f"{view.numbers[p].text} ({_other_label(view, line, p)})" for p in wrong)
    return [
        _issue(
            view,
            sentence,
            f"the text says {line.label} is '{claim}' on every {_covered(line)}, but {view.table.label or 'the table'} "
            f"prints {shown}",
            wrong,
            {"bound": claim, "line": line.label, "cells": len(cells)},
        )
    ]


def _breaks(cell: Interval, limit: Interval, upper: bool, strict: bool) -> bool:
    """The cell lies on the wrong side of the bound whatever the rounding of either."""
    if upper:
        return cell.lo >= limit.hi if strict else cell.lo > limit.hi
    return cell.hi <= limit.lo if strict else cell.hi < limit.lo


def _gain_issues(
    view: TableView, sentence: Sentence, subject: _Line, reference: _Line, gain: re.Match[str]
) -> list[Issue]:
    low, high = parse_number(gain.group("lo")), parse_number(gain.group("hi") or gain.group("lo"))
    pairs = [(p, _partner(subject, reference, p)) for p in subject.cells(view)]
    pairs = [(p, q) for p, q in pairs if q in view.numbers]
    if low is None or high is None or len(pairs) < 2:
        return []
    numbers = [view.numbers[p] for pair in pairs for p in pair]
    relative = gain.group("unit").strip() == "%"
    said = Interval(low.interval.lo, high.interval.hi)
    claimed = said.scaled(_scale(numbers, high.value, relative))
    wrong = []
    for p, q in pairs:
        a, b = view.numbers[p].interval, view.numbers[q].interval
        difference = Interval(a.lo - b.hi, a.hi - b.lo)
        fits = difference.overlaps(claimed)
        if relative and not fits and b.lo > 0:  # "4% better" may also be relative to the reference
            ratio = (difference.lo / (b.hi if difference.lo >= 0 else b.lo), difference.hi / b.lo)
            fits = Interval(min(ratio) * 100, max(ratio) * 100).overlaps(said)
        if not fits:
            wrong.append((p, q))
    if not wrong:
        return []
    claim = gain.group(0).strip()
    shown = "; ".join(
        f"{_other_label(view, subject, p)}: {view.numbers[p].text} vs {view.numbers[q].text}" for p, q in wrong
    )
    cells = [c for pair in wrong for c in pair]
    return [
        _issue(
            view,
            sentence,
            f"the text claims '{claim}' {reference.label} for {subject.label} on every {_covered(subject)}, but "
            f"{len(wrong)} of {len(pairs)} differences fall outside it ({shown})",
            cells,
            {"gain": claim, "line": subject.label, "reference": reference.label, "pairs": len(pairs)},
        )
    ]


def _partner(subject: _Line, reference: _Line, pos: Pos) -> Pos:
    return (reference.index, pos[1]) if subject.axis == "row" else (pos[0], reference.index)


def _other_label(view: TableView, line: _Line, pos: Pos) -> str:
    return view.col_label(pos[1]) if line.axis == "row" else view.row_labels.get(pos[0], "")


def _covered(line: _Line) -> str:
    return "column" if line.axis == "row" else "row"


def _issue(view: TableView, sentence: Sentence, message: str, cells: list[Pos], claim: dict[str, object]) -> Issue:
    return Issue(
        message,
        table=view.table,
        cells=cells,
        subjects=cells,
        expected=claim,
        found={"sentence": sentence.text[:300], "page": sentence.page},
        tolerance="printed precision of the text and of every cell covered",
        certainty="likely",
        reason="which cells the sentence covers is read from its words (the line it names, 'every')",
        details={"where": f"p. {sentence.page}"},
    )
