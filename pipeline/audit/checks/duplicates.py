"""duplicate-values: two rows or two columns printing the same values throughout (a copy-paste slip).

Only positions where both lines print a number are compared, and the pair must agree on at least three
of them (or every value column, in narrow tables) that no other line shares and that carry evidence: a
non-integer with two significant digits or more. Counts constant within a block of rows (sample sizes),
settings (batch size 32, learning rate 1e-4) and constant lines do not make two lines duplicates. Two
lines with the same label (one configuration shown under two headers) are noted, not flagged.
"""

from __future__ import annotations

from itertools import combinations

from pipeline.audit.checks.base import Issue
from pipeline.audit.context import AuditInput
from pipeline.audit.tableview import Pos, TableView


def check_duplicates(inp: AuditInput) -> list[Issue]:
    issues: list[Issue] = []
    for view in inp.views:
        issues.extend(_pairs(view, axis="row"))
        issues.extend(_pairs(view, axis="col"))
    return issues


def _line(view: TableView, axis: str, index: int) -> dict[int, Pos]:
    """Positions of a row's (or column's) numbers, keyed by the other coordinate."""
    return {(p[1] if axis == "row" else p[0]): p for p in view.numbers if p[0 if axis == "row" else 1] == index}


def _pairs(view: TableView, axis: str) -> list[Issue]:
    indices = view.body_rows if axis == "row" else view.value_cols
    lines = {i: _line(view, axis, i) for i in indices}
    width = len(view.value_cols if axis == "row" else view.body_rows)
    needed = max(2, min(3, width))
    issues = []
    for a, b in combinations(indices, 2):
        shared = sorted(set(lines[a]) & set(lines[b]))
        if len(shared) < needed or set(lines[a]) != set(lines[b]):
            continue
        if any(_key(view, lines[a][k]) != _key(view, lines[b][k]) for k in shared):
            continue
        if len({_key(view, lines[a][k]) for k in shared}) == 1:
            continue  # a constant line (a setting repeated) says nothing
        distinctive = [
            k for k in shared if view.numbers[lines[a][k]].informative and _distinctive(view, lines, k, a, b)
        ]
        if len(distinctive) < needed:
            continue
        issues.append(_issue(view, axis, a, b, [lines[a][k] for k in shared], [lines[b][k] for k in shared]))
    return issues


def _key(view: TableView, pos: Pos) -> tuple[object, ...]:
    number = view.numbers[pos]
    return (number.value, number.half_unit, number.plus_minus, number.percent)


def _distinctive(view: TableView, lines: dict[int, dict[int, Pos]], k: int, a: int, b: int) -> bool:
    value = _key(view, lines[a][k])
    return not any(i not in (a, b) and k in line and _key(view, line[k]) == value for i, line in lines.items())


def _label(view: TableView, axis: str, index: int) -> str:
    return view.row_labels.get(index, "") if axis == "row" else view.col_label(index)


def _issue(view: TableView, axis: str, a: int, b: int, cells_a: list[Pos], cells_b: list[Pos]) -> Issue:
    noun = "rows" if axis == "row" else "columns"
    label_a, label_b = _label(view, axis, a) or str(a), _label(view, axis, b) or str(b)
    same_name = _leaf(view, axis, a) == _leaf(view, axis, b) and _leaf(view, axis, a) != ""
    values = ", ".join(view.numbers[p].text for p in cells_a)
    message = f"{noun} '{label_a}' and '{label_b}' print identical values in all {len(cells_a)} positions ({values})"
    if same_name:
        message += "; both carry the same name, so this is probably one result shown twice"
    return Issue(
        message,
        table=view.table,
        cells=[*cells_a, *cells_b],
        scope="cells",
        subjects=[*cells_a, *cells_b],
        expected="different values for different lines",
        found={"values": [view.numbers[p].text for p in cells_a]},
        tolerance="exact: the printed values are compared as printed",
        severity="info" if same_name else None,
        details={"axis": axis, "lines": [label_a, label_b]},
    )


def _leaf(view: TableView, axis: str, index: int) -> str:
    return view.row_labels.get(index, "").split(" / ")[-1] if axis == "row" else view.leaf(index)
