"""duplicate-values: two rows or two columns printing the same values throughout (a copy-paste slip).

Only positions where both lines print a number are compared ("28.0" and "28.0%" in a percent column are
one number), and the pair must agree on at least three of them (or every value column, in narrow tables)
that no other line shares and that carry evidence: a non-integer with two significant digits or more.
Counts constant within a block of rows (sample sizes), settings (batch size 32, learning rate 1e-4) and
constant lines do not make two lines duplicates. When every column of one column group repeats the
same-named column of another ("CodeGen-2B" and "CodeGen-6B", each over k=1, k=10, k=100), the full header
paths differ and the two groups are reported once, as a copied block.

How unlikely a coincidence is decides the severity. It is noted, not flagged, when both lines carry the
same name (one result, "Ours", shown under two groups); when one line's label extends the other's ("Adam+L-BFGS" and
"Adam+L-BFGS+GD": the addition may change nothing, as the text may say); when a third line sits within one
printed unit of them everywhere (a sweep saturating at the printed precision); and shares that add up to
100% in every position (votes split 1/3 : 2/3) count one position less, since the rest follows.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

from pipeline.audit.checks.base import Issue
from pipeline.audit.context import AuditInput
from pipeline.audit.tableview import Pos, TableView

Pair = tuple[int, int]


def check_duplicates(inp: AuditInput) -> list[Issue]:
    issues: list[Issue] = []
    for view in inp.views:
        issues.extend(_issue(view, "row", a, b) for a, b in _pairs(view, axis="row"))
        columns = _pairs(view, axis="col")
        groups = _group_pairs(view, columns)
        grouped = {pair for _, _, pairs in groups for pair in pairs}
        issues.extend(_group_issue(view, *group) for group in groups)
        issues.extend(_issue(view, "col", a, b) for a, b in columns if (a, b) not in grouped)
    return issues


def _line(view: TableView, axis: str, index: int) -> dict[int, Pos]:
    """Positions of a row's (or column's) numbers, keyed by the other coordinate."""
    return {(p[1] if axis == "row" else p[0]): p for p in view.numbers if p[0 if axis == "row" else 1] == index}


def _pairs(view: TableView, axis: str) -> list[Pair]:
    indices = view.body_rows if axis == "row" else view.value_cols
    lines = {i: _line(view, axis, i) for i in indices}
    width = len(view.value_cols if axis == "row" else view.body_rows)
    needed = max(2, min(3, width))
    pairs = []
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
        if len(distinctive) - _shares(view, axis, [lines[a][k] for k in shared]) >= needed:
            pairs.append((a, b))
    return pairs


def _key(view: TableView, pos: Pos) -> tuple[object, ...]:
    number = view.numbers[pos]
    return (number.value, number.half_unit, number.plus_minus)


def _distinctive(view: TableView, lines: dict[int, dict[int, Pos]], k: int, a: int, b: int) -> bool:
    value = _key(view, lines[a][k])
    return not any(i not in (a, b) and k in line and _key(view, line[k]) == value for i, line in lines.items())


def _shares(view: TableView, axis: str, cells: list[Pos]) -> int:
    """1 when the line's values are shares adding up to 100% (or 1) within rounding: the last follows."""
    numbers = [view.numbers[p] for p in cells]
    total = sum((n.value for n in numbers), Fraction(0))
    slack = sum((n.half_unit for n in numbers), Fraction(0))
    whole = Fraction(100) if any(n.percent for n in numbers) or total > 2 else Fraction(1)
    return int(len(numbers) >= 2 and abs(total - whole) <= slack)


def _group_pairs(view: TableView, columns: list[Pair]) -> list[tuple[Pos, Pos, list[Pair]]]:
    """Column groups (spanning header cells) whose every column repeats the same-named column of another group."""
    found = []
    members: dict[Pos, list[int]] = {}
    for col in view.value_cols:
        group = view.col_groups.get(col)
        if group is not None:
            members.setdefault(group, []).append(col)
    for g, h in combinations(members, 2):
        cols_g, cols_h = members[g], members[h]
        pairs = [(a, b) for a, b in zip(cols_g, cols_h, strict=False) if view.leaf(a) == view.leaf(b)]
        if len(cols_g) == len(cols_h) == len(pairs) >= 2 and all(p in columns for p in pairs):
            found.append((g, h, pairs))
    return found


def _label(view: TableView, axis: str, index: int) -> str:
    return view.row_labels.get(index, "") if axis == "row" else view.col_label(index)


def _leaf(view: TableView, axis: str, index: int) -> str:
    return view.row_labels.get(index, "").split(" / ")[-1] if axis == "row" else view.leaf(index)


def _coincidence(view: TableView, axis: str, a: int, b: int) -> str:
    """Why the repeat may well be no slip, or "" when a coincidence is unlikely."""
    leaf_a, leaf_b = _leaf(view, axis, a).strip(), _leaf(view, axis, b).strip()
    if leaf_a and leaf_a == leaf_b:
        return "both carry the same name, so this is probably one result shown twice"
    shorter, longer = sorted((leaf_a, leaf_b), key=len)
    if shorter and longer != shorter and longer.startswith(shorter) and not longer[len(shorter)].isalnum():
        return f"'{longer}' extends '{shorter}': what it adds may change nothing (the text may say so)"
    if _neighbour_within_a_unit(view, axis, a, b):
        return "another line lies within one printed unit of both everywhere: a sweep saturating at the printed digits"
    return ""


def _neighbour_within_a_unit(view: TableView, axis: str, a: int, b: int) -> bool:
    line_a = _line(view, axis, a)
    indices = view.body_rows if axis == "row" else view.value_cols
    for other in (i for i in indices if i not in (a, b)):
        line = _line(view, axis, other)
        if set(line) != set(line_a):
            continue
        if all(abs(view.numbers[line[k]].value - view.numbers[p].value) <= 2 * view.numbers[p].half_unit
               for k, p in line_a.items()):  # fmt: skip
            return True
    return False


def _issue(view: TableView, axis: str, a: int, b: int) -> Issue:
    line_a, line_b = _line(view, axis, a), _line(view, axis, b)
    cells_a, cells_b = [line_a[k] for k in sorted(line_a)], [line_b[k] for k in sorted(line_b)]
    noun = "rows" if axis == "row" else "columns"
    label_a, label_b = _label(view, axis, a) or str(a), _label(view, axis, b) or str(b)
    values = ", ".join(view.numbers[p].text for p in cells_a)
    message = f"{noun} '{label_a}' and '{label_b}' print identical values in all {len(cells_a)} positions ({values})"
    why = _coincidence(view, axis, a, b)
    if why:
        message += f"; {why}"
    return Issue(
        message,
        table=view.table,
        cells=[*cells_a, *cells_b],
        scope="cells",
        subjects=[*cells_a, *cells_b],
        expected="different values for different lines",
        found={"values": [view.numbers[p].text for p in cells_a]},
        tolerance="exact: the printed values are compared as printed",
        severity="info" if why else None,
        certainty="declined" if why else "likely",
        reason=why or "identical printed values; that they should differ is a reading of the labels",
        details={"axis": axis, "lines": [label_a, label_b]},
    )


def _group_issue(view: TableView, g: Pos, h: Pos, pairs: list[Pair]) -> Issue:
    cells_a = [p for a, _ in pairs for p in sorted(_line(view, "col", a).values())]
    cells_b = [p for _, b in pairs for p in sorted(_line(view, "col", b).values())]
    name_g, name_h = view.text(*g), view.text(*h)
    leaves = ", ".join(view.leaf(a) for a, _ in pairs)
    return Issue(
        f"column groups '{name_g}' and '{name_h}' print identical values in all {len(pairs)} columns ({leaves}), "
        f"{len(cells_a)} positions",
        table=view.table,
        cells=[*cells_a, *cells_b],
        scope="cells",
        subjects=[*cells_a, *cells_b],
        expected="different values for different column groups",
        found={"values": [view.numbers[p].text for p in cells_a]},
        tolerance="exact: the printed values are compared as printed ('28.0' and '28.0%' alike)",
        certainty="likely",
        reason="identical printed values; that they should differ is a reading of the labels",
        details={"axis": "col", "lines": [name_g, name_h]},
    )
