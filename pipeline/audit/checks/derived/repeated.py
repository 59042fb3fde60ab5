"""derived-repeated: the same quantity printed in two tables must print the same number.

Cells are keyed by the paths the mapping stage reads (``pipeline.mapping.paths.value_cells``): the row path
names the dataset (or task), the column path the model, its size and the setting. Two columns of different
tables are taken to report the same quantity only when their settings do not conflict (every token of one
column path is in the other's: "1-shot / PaLM 8B" within "PaLM 8B 1-Shot / Full Set Accuracy") AND most rows
they share print the very same number — a pairing no chance agreement produces. Then a shared row that
prints a different number is flagged; the pairing is inferred from the majority, so it is a warning. Columns
whose paths name different shots, splits or sizes never pair, so a different setting is never a conflict.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import dataclass

from pipeline.audit.checks.base import Issue
from pipeline.audit.checks.derived.arith import hull
from pipeline.audit.checks.derived.evidence import Operand, leading_number, relation_issue
from pipeline.audit.context import AuditInput
from pipeline.audit.tableview import TableView
from pipeline.audit.text import table_key
from pipeline.mapping.paths import value_cells
from pipeline.numbers import PrintedNumber

MIN_AGREE = 4
AGREE_SHARE = 0.6  # a clear majority: four or more equal three-digit numbers do not agree by chance
_SPLIT = re.compile(r"[\s/|,;:]+")


@dataclass
class Column:
    """A slice of a table: a column keyed by row labels, or (``across``) a row keyed by column leaves, which is
    how a transposed table prints the same numbers."""

    view: TableView
    col: int
    path: str
    tokens: frozenset[str]
    cells: dict[str, Operand]  # key (row label, or column leaf) -> printed operand
    across: bool = False


def check_repeated(inp: AuditInput) -> list[Issue]:
    """Each kind of column (one path printing the same numbers: a table printed again in a volume or a
    supplement is one kind) against every later kind of column and every kind of row, each column against
    the copy of the other kind printed nearest it: the cost and the findings grow with the tables, not with
    the square of the copies."""
    columns = _kinds(c for view in inp.views for c in _columns(inp, view))
    rows = _kinds(r for view in inp.views for r in _rows(inp, view))
    issues: list[Issue] = []
    for i, kind in enumerate(columns):
        for other in [*columns[i + 1 :], *rows]:
            if not _compatible(kind[0].tokens, other[0].tokens):
                continue
            for first in kind:
                second = _nearest_elsewhere(other, first)
                if second is not None:
                    issues.extend(_compare(first, second))
    return issues + _stated_pairs(inp)


_PAIRING = re.compile(
    r"\b(?:the\s+)?(?P<which>first|top|last|bottom)\s+row\b[^.;]{0,40}?\b(?:is|are|shows?|reports?|repeats?|"
    r"corresponds? to|gives?)\b[^.;]{0,60}?\bTable\s*(?P<key>S?\d+)\b",
    re.IGNORECASE,
)


def _stated_pairs(inp: AuditInput) -> list[Issue]:
    """A caption or a sentence citing a table that pairs one of its rows with another table ("the first row is the
    model of Table 1"): the row and the other table's row that prints the same numbers must agree on every
    column the two share, however few."""
    by_key = {table_key(v.table.label): v for v in inp.views if v.table.label}
    issues: list[Issue] = []
    for view in inp.views:
        for sentence in inp.statements_about(view.table):
            for match in _PAIRING.finditer(sentence):
                other = by_key.get(match.group("key").upper())
                if other is None or other is view or not view.body_rows:
                    continue
                row = view.body_rows[0] if match.group("which").lower() in ("first", "top") else view.body_rows[-1]
                issues.extend(_paired(view, row, other, match.group(0)))
    return issues


def _paired(view: TableView, row: int, other: TableView, words: str) -> list[Issue]:
    here = {_norm(view.leaf(c)): c for c in view.value_cols if (row, c) in view.numbers}
    best: tuple[int, int, list[str]] | None = None  # (agreeing, other row, shared keys)
    for candidate in other.body_rows:
        there = {_norm(other.leaf(c)): c for c in other.value_cols if (candidate, c) in other.numbers}
        shared = [k for k in here if k in there and k]
        agree = [k for k in shared if view.numbers[(row, here[k])].interval.overlaps(
            other.numbers[(candidate, there[k])].interval)]  # fmt: skip
        if agree and (best is None or len(agree) > best[0]):
            best = (len(agree), candidate, shared)
    if best is None:
        return []
    agreeing, candidate, shared = best
    there = {_norm(other.leaf(c)): c for c in other.value_cols}
    issues = []
    for key in shared:
        a = Operand("value", (row, here[key]), view.numbers[(row, here[key])])
        b = Operand("value elsewhere", (candidate, there[key]), other.numbers[(candidate, there[key])], other.table)
        if a.number.interval.overlaps(b.number.interval):
            continue
        issues.append(
            relation_issue(
                view,
                message=(
                    f"'{view.row_labels.get(row, '')}' prints {a.number.text} under '{view.leaf(here[key])}' in "
                    f"{view.table.label}, but {other.table.label} prints {b.number.text} for row "
                    f"'{other.row_labels.get(candidate, '')}', which the paper pairs with it: \"{words}\" "
                    f"({agreeing} of the {len(shared)} columns they share agree)"
                ),
                relation="a row the paper says is another table's prints that table's values",
                operands=[a, b],
                computed=hull([b.number.interval]),
                why=f'the paper pairs the rows: "{words}"; the other row is the one printing the same numbers',
                certainty="majority",
                subject=a,
                reason="the pairing is stated; which row of the other table it means is read from the numbers",
            )
        )
    return issues


def _kinds(slices: Iterable[Column]) -> list[list[Column]]:
    """Slices grouped by what they print (path and numbers), in order of first appearance, each in page order."""
    kinds: dict[tuple[object, ...], list[Column]] = {}
    for c in slices:
        printed = tuple(sorted((k, op.number.text) for k, op in c.cells.items()))
        kinds.setdefault((c.across, c.path, printed), []).append(c)
    return [sorted(k, key=lambda c: (c.view.table.page, c.view.table.index)) for k in kinds.values()]


def _nearest_elsewhere(kind: list[Column], first: Column) -> Column | None:
    """The slice of ``kind`` printed nearest ``first`` in another table; of two as near, the earlier."""
    page = first.view.table.page
    at = bisect.bisect_left(kind, page, key=lambda c: c.view.table.page)
    below = next((kind[i] for i in range(at - 1, -1, -1) if kind[i].view is not first.view), None)
    above = next((kind[i] for i in range(at, len(kind)) if kind[i].view is not first.view), None)
    found = [c for c in (below, above) if c is not None]
    return min(found, key=lambda c: abs(c.view.table.page - page), default=None)


def _columns(inp: AuditInput, view: TableView) -> list[Column]:
    by_col: dict[int, Column] = {}
    for cell in value_cells(view.table, inp.source_sha256):
        number = leading_number(cell.cell.text)
        if number is None or not cell.row_path or not cell.col_path or not _distinctive(number):
            continue
        key = _norm(" / ".join(cell.row_path))
        path = " / ".join(cell.col_path)
        column = by_col.setdefault(cell.cell.col, Column(view, cell.cell.col, path, _tokens(path), {}))
        if key in column.cells:
            column.cells[key] = Operand("", (-1, -1), number)  # a row key printed twice: ambiguous, dropped below
            continue
        column.cells[key] = Operand(" / ".join(cell.row_path), (cell.cell.row, cell.cell.col), number, view.table)
    for column in by_col.values():
        column.cells = {k: v for k, v in column.cells.items() if v.pos != (-1, -1)}
    return [c for c in by_col.values() if len(c.cells) >= MIN_AGREE]


def _rows(inp: AuditInput, view: TableView) -> list[Column]:
    """Rows keyed by their columns' leaf labels (a column leaf printed twice in the row is dropped)."""
    by_row: dict[int, Column] = {}
    for cell in value_cells(view.table, inp.source_sha256):
        number = leading_number(cell.cell.text)
        if number is None or not cell.row_path or not cell.col_path or not _distinctive(number):
            continue
        path = " / ".join(cell.row_path)
        row = by_row.setdefault(cell.cell.row, Column(view, cell.cell.row, path, _tokens(path), {}, across=True))
        key = _norm(cell.col_path[-1])
        if key in row.cells:
            row.cells[key] = Operand("", (-1, -1), number)
            continue
        row.cells[key] = Operand(cell.col_path[-1], (cell.cell.row, cell.cell.col), number, view.table)
    for row in by_row.values():
        row.cells = {k: v for k, v in row.cells.items() if v.pos != (-1, -1)}
    return [r for r in by_row.values() if len(r.cells) >= MIN_AGREE]


def _distinctive(number: PrintedNumber) -> bool:
    """Three significant digits or more ("56.0", "41.1", "0.925"): equal values of this kind rarely agree by chance."""
    return len(number.digits.lstrip("0")) >= 3


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"[*∗†‡§¶⋆]", "", text)).strip().lower()


def _tokens(path: str) -> frozenset[str]:
    return frozenset(t for t in _SPLIT.split(path.lower()) if t)


def _compatible(a: frozenset[str], b: frozenset[str]) -> bool:
    """Both column paths name something (a model, a setting: a word, not only "256"), and one says no more than
    the other: no shot, size, split or model of its own. A path of bare numbers leaves the setting to the
    caption ("with masking"), which is not compared, so such columns never pair."""
    named = all(any(ch.isalpha() for t in side for ch in t) for side in (a, b))
    return named and (a <= b or b <= a)


def _same(a: PrintedNumber, b: PrintedNumber) -> bool:
    return a.value == b.value and a.decimals == b.decimals and a.percent == b.percent


def _compare(first: Column, second: Column) -> list[Issue]:
    shared = [k for k in first.cells if k in second.cells]
    if len(shared) < MIN_AGREE + 1:
        return []
    agree = [k for k in shared if _same(first.cells[k].number, second.cells[k].number)]
    differ = [k for k in shared if k not in agree]
    if len(agree) < MIN_AGREE or len(agree) < AGREE_SHARE * len(shared) or not differ:
        return []
    if second.across and len({first.cells[k].number.text for k in agree}) < len(agree):
        return []  # a transposed pairing needs distinct agreeing values, not one value repeated
    return [_issue(first, second, key, len(agree), len(shared)) for key in differ]


def _issue(first: Column, second: Column, key: str, agree: int, shared: int) -> Issue:
    a, b = first.cells[key], second.cells[key]
    other = second.view.table.label or f"table {second.view.table.index + 1}"
    here = first.view.table.label or f"table {first.view.table.index + 1}"
    return relation_issue(
        first.view,
        message=(
            f"'{a.role}' under '{first.path}' prints {a.number.text} in {here} but {b.number.text} "
            f"{'in the row' if second.across else 'under'} '{second.path}' in {other}, where {agree} of the "
            f"{shared} keys the two share print the same number"
        ),
        relation="the same model x dataset x metric x setting printed twice prints one value",
        operands=[Operand("value", a.pos, a.number), Operand("value elsewhere", b.pos, b.number, second.view.table)],
        computed=hull([b.number.interval]),
        why=(
            f"the column paths '{first.path}' and '{second.path}' name no conflicting setting, and {agree} of "
            f"{shared} shared rows agree exactly"
        ),
        certainty="majority",
        subject=Operand("value", a.pos, a.number),
    )
