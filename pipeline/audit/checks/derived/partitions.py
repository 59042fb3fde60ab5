"""derived-sum: parts that must add up to a size the paper states, counted exactly (counts are whole).

- A cell that splits its block into labelled counts ("Boys 14, girls 7"; "25/8" on "Sex (M/F)") against the
  block's N (an N row above it, the header's "n = 20"): parts beyond the N are a warning, parts short of it a note
  (cases may be unrecorded).
- A column of counts (a "Population size", "n", "No. of samples" column of whole numbers, no total row) against
  the size the caption ("Panel of 228", "n = 228") or a sentence of the paper states for the same rows ("228
  genotypes from 35 populations", 35 being the column's rows): a warning when they differ.
- A totals row under a grid of +/− marks ("N_i" under PepMV, TSWV, ...): each total counts the rows marked "+"
  in its column, each row weighted by a count column when the table has one. The weighting that most totals
  fit is the table's, once three totals fit it exactly, two of them of ten or more (no chance match); a total
  that misses it is a warning.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from pipeline.audit.checks.base import Issue
from pipeline.audit.checks.derived.arith import point
from pipeline.audit.checks.derived.evidence import Operand, relation_issue
from pipeline.audit.checks.derived.shares import StatedTotals, stated_totals, stub_label
from pipeline.audit.context import AuditInput
from pipeline.audit.labels import aggregate_kind
from pipeline.audit.tableview import Pos, TableView
from pipeline.numbers import PrintedNumber, fold_label, parse_number

# "Boys 14, girls 7", "M 12 / F 9", "male: 30; female: 25"
_LABELLED_PART = re.compile(r"(?P<label>[A-Za-z][A-Za-z .'-]{0,30}?)\s*:?\s*(?P<n>\d[\d,]*)")
_SEPARATOR = re.compile(r"\s*[,;/]\s*")
# a stub naming the two categories of a "25/8" cell, the whole label or its last part: "Sex (M/F)",
# "Male/female", "Gender, M/F" (not "Systolic/diastolic BP", a pair of measures)
_PAIR_LABEL = re.compile(r"(?:^|[(,]\s*)(?P<a>[A-Za-z]{1,10})\s*/\s*(?P<b>[A-Za-z]{1,10})\s*\)?\s*$")
_PAIR_CELL = re.compile(r"^\s*(?P<a>\d[\d,]*)\s*/\s*(?P<b>\d[\d,]*)\s*$")
_SIZE_HEADER = re.compile(
    r"(?<![\w.])(?:size|n|no\.?|number(?: of \w+)?|count|individuals|samples|accessions|genotypes|plants|"
    r"patients|participants|subjects|animals|isolates|strains|lines)(?![\w])",
    re.IGNORECASE,
)
_NOT_A_SIZE = re.compile(r"\b(?:mean|median|average|rate|ratio|%|percent|length|bp|kb|mb|gb)\b", re.IGNORECASE)
_UNITS = (r"individuals|samples|genotypes|accessions|plants|patients|participants|subjects|animals|isolates|"
          r"strains|lines|specimens|cases|children|mice|trees|seedlings|cultivars|varieties")  # fmt: skip
_CAPTION_SIZE = re.compile(
    rf"\b(?:panel|total|set|collection|cohort|sample|population) of (?P<a>\d[\d,]*)\b"
    rf"|\b[nN]\s*=\s*(?P<b>\d[\d,]*)\b|\b(?P<c>\d[\d,]*)\s+(?:\w+\s+)?(?:{_UNITS})\b",
    re.IGNORECASE,
)
# "228 genotypes from 35 populations" (a line number of a numbered preprint may sit between 35 and its noun)
_SIZE_OVER_ROWS = re.compile(
    r"\b(?P<n>\d[\d,]*)\s+(?P<unit>[A-Za-z]\w+)\s+(?:from|in|across|of|representing)\s+(?P<m>\d+)\s+(?:\d{1,4}\s+)?"
    r"(?P<group>[A-Za-z]\w+)"
)
MIN_ROWS = 5
NEAR = Fraction(1, 10)  # a caption's size this far from the column's sum may count the same units
_PLUS = frozenset({"+", "✓", "✔", "●", "yes", "y"})
_MINUS = frozenset({"-", "−", "–", "—", "✗", "✘", "○", "no", "n"})
MIN_TOTALS = 3
TELLING = 10  # an exact count this large does not fit by chance


def check_partitions(inp: AuditInput) -> list[Issue]:
    sentences = [s.text for s in inp.text.sentences] if inp.text is not None else []
    issues: list[Issue] = []
    for view in inp.views:
        issues.extend(_cell_partitions(view))
        issues.extend(_column_sizes(view, sentences))
        issues.extend(_mark_totals(view))
    return issues


# --- labelled counts in a cell -------------------------------------------------------------------------------


def _cell_partitions(view: TableView) -> list[Issue]:
    issues = []
    for col in range(view.table.stub_cols, view.table.n_cols):
        totals = stated_totals(view, col)
        for row in range(view.table.header_rows, view.table.n_rows):
            parts = _parts(view.text(row, col), stub_label(view, row))
            stated = totals.of(row)
            if parts is None or stated is None or row in totals.n_rows:
                continue
            total, source = stated
            summed = sum(n for _, n in parts)
            if any(n > total for _, n in parts):
                continue  # a part beyond the whole: measures ("CD4 350, CD8 600"), not counts of the block
            if summed <= total and summed * 2 < total:
                continue  # far short of the N: the parts are of a subgroup, not the block
            if summed == total:
                continue
            terms = " + ".join(f"{n} ({label})" for label, n in parts)
            beyond = summed > total
            message = (f"the counts in the cell add up to {terms} = {summed}, "
                       f"{'more than' if beyond else 'short of'} the block's N of {total}")  # fmt: skip
            n_pos = _n_pos(totals, row, col)
            operands = [Operand("parts", (row, col), _whole(summed))]
            if n_pos is not None:
                operands.append(Operand("N", n_pos, _whole(total)))
            issue = relation_issue(
                view,
                message=message,
                relation="sum of the labelled counts = N",
                operands=operands,
                computed=point(Fraction(summed)),
                why=f"{source}; the cell splits it into labelled counts ('{view.text(row, col)}')",
                certainty="majority" if beyond else "weak",
                subject=operands[0],
            )
            if not beyond:
                issue.reason = "the parts fall short of the N: some cases may be unrecorded"
            issues.append(issue)
    return issues


def _parts(text: str, stub: str) -> list[tuple[str, int]] | None:
    """The labelled counts of a cell ("Boys 14, girls 7"), or of "25/8" under a stub naming two categories."""
    pair = _PAIR_CELL.match(text)
    named = _PAIR_LABEL.search(stub)
    if pair and named:
        return [(named["a"], _int(pair["a"])), (named["b"], _int(pair["b"]))]
    pieces = _SEPARATOR.split(text.strip())
    if len(pieces) < 2:
        return None
    parts = []
    for piece in pieces:
        match = _LABELLED_PART.fullmatch(piece)
        if match is None:
            return None
        parts.append((match["label"].strip(), _int(match["n"])))
    return parts


def _n_pos(totals: StatedTotals, row: int, col: int) -> Pos | None:
    above = [r for r in totals.n_rows if r < row]
    if totals.fixed is None and totals.n_rows:
        return (max(above) if above else min(totals.n_rows), col)
    return None


# --- a count column against a stated size ----------------------------------------------------------------------


@dataclass(frozen=True)
class Size:
    value: int
    quote: str
    where: str  # "caption" | "text"


def _column_sizes(view: TableView, sentences: list[str]) -> list[Issue]:
    if any(aggregate_kind(stub_label(view, r)) for r in view.body_rows):
        return []  # a total row: aggregate-row adds the column up against it
    issues = []
    for col in view.value_cols:
        cells = _count_column(view, col)
        if cells is None:
            continue
        summed = sum(int(n.value) for _, n in cells)
        sizes = list(_stated_sizes(view, col, len(cells), sentences))
        if not sizes or any(s.value == summed for s in sizes):
            continue
        over_rows = [s for s in sizes if s.where == "text"]
        near = [s for s in sizes if s.where == "caption" and abs(s.value - summed) <= NEAR * s.value]
        if not over_rows and not near:
            continue  # a caption's size far from the sum counts something else
        stated = (over_rows or near)[0]
        agree = [s for s in sizes if s.value == stated.value]
        quotes = "; ".join(f"the {s.where} says '{s.quote}'" for s in agree)
        terms = " + ".join(n.text for _, n in cells[:6]) + (" + ..." if len(cells) > 6 else "")
        subject = Operand("column sum", cells[0][0], _whole(summed))
        issues.append(
            relation_issue(
                view,
                message=f"the column '{view.col_label(col)}' adds up to {terms} = {summed} over its {len(cells)} "
                f"rows, while {quotes} ({stated.value})",
                relation="sum of the column = the stated size",
                operands=[subject, *(Operand("count", p, n) for p, n in cells[1:])],
                computed=point(Fraction(stated.value)),
                why=f"{quotes}; the column counts the same units row by row",
                certainty="majority",
                subject=subject,
            )
        )
    return issues


def _count_column(view: TableView, col: int) -> list[tuple[Pos, PrintedNumber]] | None:
    """Whole non-negative numbers in every body row, under a header that names a size or a count."""
    label = fold_label(view.col_label(col))
    if not _SIZE_HEADER.search(label) or _NOT_A_SIZE.search(label):
        return None
    cells = []
    for row in view.body_rows:
        number = view.numbers.get((row, col))
        if number is None or number.decimals or number.value < 0 or number.plus_minus is not None or number.percent:
            return None
        cells.append(((row, col), number))
    return cells if len(cells) >= MIN_ROWS else None


def _stated_sizes(view: TableView, col: int, rows: int, sentences: list[str]) -> Iterator[Size]:
    for match in _CAPTION_SIZE.finditer(fold_label(view.table.caption)):
        value = match["a"] or match["b"] or match["c"]
        yield Size(_int(value), match.group(0), "caption")
    words = fold_label(" ".join([view.col_label(col), view.table.caption, *view.col_paths.get(0, [])])).lower()
    for sentence in sentences:
        for match in _SIZE_OVER_ROWS.finditer(fold_label(sentence)):
            group = match["group"].lower().rstrip("s")
            if int(match["m"]) == rows and len(group) >= 4 and group[:5] in words:
                yield Size(_int(match["n"]), match.group(0), "text")


# --- totals under a grid of +/- marks ----------------------------------------------------------------------------


def _mark_totals(view: TableView) -> list[Issue]:
    grid = _mark_grid(view)
    if grid is None:
        return []
    total_row, mark_cols, mark_rows = grid
    weightings = {"each row once": {r: 1 for r in mark_rows}}
    for col in view.value_cols:
        weights = {r: int(n.value) for r in mark_rows if (n := view.numbers.get((r, col))) is not None}
        if col not in mark_cols and len(weights) == len(mark_rows) and all(n >= 0 for n in weights.values()):
            weightings[f"each row by its '{view.col_label(col)}'"] = weights
    best: tuple[int, str, dict[int, int]] | None = None
    for name, weights in weightings.items():
        fits = sum(_marked(view, total_row, col, mark_rows, weights)[0] for col in mark_cols)
        if best is None or fits > best[0]:
            best = (fits, name, weights)
    assert best is not None
    fits, name, weights = best
    misses = [c for c in mark_cols if not _marked(view, total_row, c, mark_rows, weights)[0]]
    telling = sum(ok and counted >= TELLING for c in mark_cols for ok, counted, _ in [_marked(
        view, total_row, c, mark_rows, weights)])  # fmt: skip
    if fits < MIN_TOTALS or telling < 2 or not misses:
        return []  # an exact fit of 17 or 25 marks is no chance; one of 2 may be
    issues = []
    for col in misses:
        _, counted, plus_rows = _marked(view, total_row, col, mark_rows, weights)
        printed = view.numbers[(total_row, col)]
        terms = " + ".join(str(weights[r]) for r in plus_rows) or "0"
        issues.append(
            relation_issue(
                view,
                message=f"the total {printed.text} of '{view.col_label(col)}' is not the count of the rows marked "
                f"'+' in its column, {name}: {terms} = {counted}",
                relation="total = sum over the rows marked '+' of the row's weight",
                operands=[Operand("total", (total_row, col), printed),
                          *(Operand("marked", (r, col), _whole(weights[r])) for r in plus_rows)],
                computed=point(Fraction(counted)),
                why=f"{fits} of the {len(mark_cols)} totals of this row count the '+' marks above them, {name}",
                certainty="majority",
                subject=Operand("total", (total_row, col), printed),
            )
        )  # fmt: skip
    return issues


def _mark_grid(view: TableView) -> tuple[int, list[int], list[int]] | None:
    """(the totals row, the columns of marks, the rows of marks) of a +/- grid with a row of counts under it."""
    rows = range(view.table.header_rows, view.table.n_rows)
    cols = [c for c in range(view.table.n_cols) if sum(_mark(view.text(r, c)) is not None for r in rows) >= 3]
    if len(cols) < MIN_TOTALS:
        return None
    mark_rows = [r for r in rows if all(_mark(view.text(r, c)) is not None for c in cols)]
    candidates = [r for r in rows if all(view.numbers.get((r, c)) is not None for c in cols)]
    if len(mark_rows) < 3 or len(candidates) != 1:
        return None
    return candidates[0], cols, mark_rows


def _marked(
    view: TableView, total_row: int, col: int, rows: list[int], weights: dict[int, int]
) -> tuple[bool, int, list[int]]:
    plus_rows = [r for r in rows if _mark(view.text(r, col))]
    counted = sum(weights[r] for r in plus_rows)
    return view.numbers[(total_row, col)].value == counted, counted, plus_rows


def _mark(text: str) -> bool | None:
    """True for a "+" mark, False for a "−" mark, None for anything else."""
    folded = fold_label(text).lower()
    if folded in _PLUS:
        return True
    return False if folded in _MINUS else None


def _whole(value: int) -> PrintedNumber:
    number = parse_number(str(value))
    assert number is not None
    return number


def _int(text: str) -> int:
    return int(text.replace(",", ""))
