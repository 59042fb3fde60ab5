"""The p-values of a two-group comparison table (a "Table 1" of a trial), recomputed from what it prints.

Two columns whose headers give their group sizes ("TG (n=41)", "CG (n=40)") hold, per characteristic, counts
("27 (65.9)") or a mean and SD ("58.71±9.274"); the characteristic's p-value sits on its label row (or in a
"P" column), often with a mark naming its test ("0.689b"). Counts give the chi-squared p (Pearson, Yates)
or Fisher's; a mean and SD give Student's or Welch's t-test p, as an interval over the printed precision.
Rows are judged per kind and mark: a variant holds when every row of the group but one fits it, and that
one row is flagged (a warning: the variant is inferred); a test the paper's text never names is not tried.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from fractions import Fraction

from pipeline.audit.checks.base import scipy_stats
from pipeline.audit.checks.derived.evidence import Operand, leading_number
from pipeline.audit.tableview import Pos, TableView
from pipeline.numbers import Interval, normalise, parse_number

_GROUP_SIZE = re.compile(r"\(?\b[nN]\s*=\s*(?P<n>\d[\d,]*)\)?")
_COUNT = re.compile(r"^\s*(?P<n>\d[\d,]*)\s*\(\s*\d+(?:\.\d+)?\s*%?\s*\)\s*$")
_RATIO = re.compile(r"^\s*(?P<n>\d+)\s*/\s*(?P<of>\d+)\s*(?:\(\s*\d+(?:\.\d+)?\s*%?\s*\))?\s*$")
_MEAN_SD = re.compile(r"^\s*(?P<m>-?\d+(?:\.\d+)?)\s*(?:±|\+/-|\+-)\s*(?P<sd>\d+(?:\.\d+)?)\s*$")
_P_CELL = re.compile(r"^\s*(?P<rel>[<>≤=]?)\s*(?P<p>0?\.\d+|1(?:\.0+)?)\s*(?P<mark>[a-z*†‡§]?)\s*$")
_P_LEAF = re.compile(r"(?:^|\s)p(?:[- ]?value)?$", re.I)
NAMED = {
    "counts": re.compile(r"chi-?squared?|χ\s?2|χ²|fisher", re.I),
    "means": re.compile(r"t-?test|student", re.I),
}
MIN_OTHERS = 2


@dataclass
class Comparison:
    """One characteristic compared between the two groups, with its printed p-value."""

    kind: str  # "counts" | "means"
    p: Operand
    relation: str  # "=", "<", ">"
    mark: str
    cells: list[Operand] = field(default_factory=list)  # the group cells, first group first, row by row
    label: str = ""
    sizes: tuple[int, int] | None = None  # printed in the cells themselves ("63/112"): the row's own totals


def group_columns(view: TableView) -> list[tuple[int, int]]:
    """(column, group size) for the columns whose header states a group size."""
    found = []
    for col in range(view.table.stub_cols, view.table.n_cols):
        match = _GROUP_SIZE.search(view.col_label(col))
        if match:
            found.append((col, int(match.group("n").replace(",", ""))))
    return found


def ratio_columns(view: TableView) -> list[int]:
    """Columns printing "a/b (p%)" in most of their cells: each row states its own group sizes."""
    found = []
    for col in range(view.table.stub_cols, view.table.n_cols):
        texts = [view.text(r, col) for r in range(view.table.header_rows, view.table.n_rows) if view.text(r, col)]
        if len(texts) >= 3 and sum(bool(_RATIO.match(t)) for t in texts) * 2 > len(texts):
            found.append(col)
    return found


def comparisons(view: TableView) -> list[Comparison]:
    """Blocks of rows under a label row carrying the p-value, in a table of exactly two group columns."""
    groups = group_columns(view)
    ratios = ratio_columns(view)
    if len(groups) != 2 and len(ratios) == 2:
        return _ratio_comparisons(view, ratios)
    pairs = neighbour_pairs(view)
    if len(groups) != 2 and len(pairs) == 2:
        return _neighbour_comparisons(view, pairs)
    if len(groups) != 2:
        return []
    (c1, _), (c2, _) = groups
    p_cols = [c for c in range(view.table.stub_cols, view.table.n_cols) if _P_LEAF.search(view.leaf(c).strip())]
    found: list[Comparison] = []
    current: Comparison | None = None
    for row in range(view.table.header_rows, view.table.n_rows):
        texts = (view.text(row, c1), view.text(row, c2))
        kind = (
            "counts"
            if all(_COUNT.match(t) for t in texts)
            else "means"
            if all(_MEAN_SD.match(t) for t in texts)
            else None
        )
        p = _p_cell(view, row, [*p_cols, c2, c1] if kind is None else p_cols)
        if p is not None:
            current = Comparison("", p[0], p[1], p[2], label=view.row_labels.get(row, ""))
            found.append(current)
        if kind is None or current is None or (current.kind and current.kind != kind):
            if kind is None and p is None:
                current = None
            continue
        current.kind = kind
        current.cells += [_operand(view, (row, c1), kind), _operand(view, (row, c2), kind)]
    return [c for c in found if c.kind and c.cells]


def _ratio_comparisons(view: TableView, cols: list[int]) -> list[Comparison]:
    """One comparison per row of "a/b" cells, with its p-value in a "p" column of the same row."""
    p_cols = [c for c in range(view.table.stub_cols, view.table.n_cols) if _P_LEAF.search(view.leaf(c).strip())]
    found = []
    for row in range(view.table.header_rows, view.table.n_rows):
        matches = [_RATIO.match(view.text(row, c)) for c in cols]
        p = _p_cell(view, row, p_cols)
        if p is None or not all(matches):
            continue
        parts = [(int(m.group("n")), int(m.group("of"))) for m in matches if m]
        if any(n > of or of == 0 for n, of in parts):
            continue
        cells = [
            Operand("count", (row, c), parse_number(str(n)) or p[0].number)
            for c, (n, _) in zip(cols, parts, strict=True)
        ]
        found.append(
            Comparison("counts", p[0], p[1], p[2], cells, view.row_labels.get(row, ""), (parts[0][1], parts[1][1]))
        )
    return found


_TOTAL_LEAF = re.compile(r"n|total|total n|n total|tested|no\.? tested|sample size|denominator|all", re.I)


def neighbour_pairs(view: TableView) -> list[tuple[int, int]]:
    """(count column, total column): a column headed as a total ("N", "Total", "Tested") whose left neighbour
    prints whole counts no larger than it in every row: each row's two-by-two denominators sit beside its
    counts."""
    pairs = []
    for col in view.value_cols:
        if col - 1 not in view.value_cols or not _TOTAL_LEAF.fullmatch(view.leaf(col).strip()):
            continue
        rows = [r for r in view.body_rows if (r, col) in view.numbers and (r, col - 1) in view.numbers]
        counts = [(view.numbers[(r, col - 1)], view.numbers[(r, col)]) for r in rows]
        whole = all(not a.decimals and not b.decimals and not a.percent and 0 <= a.value <= b.value for a, b in counts)
        if len(rows) >= 3 and whole:
            pairs.append((col - 1, col))
    return pairs


def _neighbour_comparisons(view: TableView, pairs: list[tuple[int, int]]) -> list[Comparison]:
    """One comparison per row: its counts over the totals beside them, its p-value in a "p" column."""
    p_cols = [c for c in range(view.table.stub_cols, view.table.n_cols) if _P_LEAF.search(view.leaf(c).strip())]
    found = []
    for row in view.body_rows:
        p = _p_cell(view, row, p_cols)
        cells = [view.numbers.get((row, c)) for pair in pairs for c in pair]
        if p is None or any(n is None for n in cells):
            continue
        counts = [Operand("count", (row, c), view.numbers[(row, c)]) for c, _ in pairs]
        totals = tuple(int(view.numbers[(row, t)].value) for _, t in pairs)
        found.append(Comparison("counts", p[0], p[1], p[2], counts, view.row_labels.get(row, ""), totals))  # type: ignore[arg-type]
    return found


def _p_cell(view: TableView, row: int, cols: list[int]) -> tuple[Operand, str, str] | None:
    for col in cols:
        match = _P_CELL.match(normalise(view.text(row, col)))
        number = parse_number(match.group("p")) if match else None
        if match and number is not None:
            return Operand("p", (row, col), number), match.group("rel") or "=", match.group("mark")
    return None


def _operand(view: TableView, pos: Pos, kind: str) -> Operand:
    number = leading_number(view.text(*pos))
    assert number is not None  # the row matched _COUNT or _MEAN_SD
    return Operand("count" if kind == "counts" else "mean±SD", pos, number)


def count_table(view: TableView, comparison: Comparison, sizes: tuple[int, int]) -> list[list[int]] | None:
    """Groups x categories; a single printed category gets its complement, categories short of the size an
    "other" category."""
    sizes = comparison.sizes or sizes
    rows = [[int(op.number.value) for op in comparison.cells[i : i + 2]] for i in range(0, len(comparison.cells), 2)]
    columns = [[r[g] for r in rows] for g in (0, 1)]
    for g, size in enumerate(sizes):
        rest = size - sum(columns[g])
        if rest < 0:
            return None
        columns[g].append(rest)
    table = [list(col) for col in columns]
    keep = [k for k in range(len(table[0])) if table[0][k] + table[1][k] > 0]
    table = [[row[k] for k in keep] for row in table]
    return table if len(keep) >= 2 else None


def count_p(table: list[list[int]], variant: str) -> Interval | None:
    if variant == "fisher":
        if len(table[0]) != 2:
            return None
        value = float(scipy_stats().fisher_exact(table)[1])
    else:
        if variant == "yates" and len(table[0]) != 2:
            return None
        value = float(scipy_stats().chi2_contingency(table, correction=variant == "yates")[1])
    return _around(value)


def mean_p(comparison: Comparison, view: TableView, sizes: tuple[int, int], variant: str) -> Interval:
    """The t-test p over every mean and SD the printed digits allow: smallest at the widest gap and narrowest
    SDs, largest at the narrowest gap and widest SDs."""
    parts = [_MEAN_SD.match(view.text(*op.pos)) for op in comparison.cells[:2]]
    means = [parse_number(m.group("m")) for m in parts if m]
    sds = [parse_number(m.group("sd")) for m in parts if m]
    if len(means) != 2 or len(sds) != 2 or None in means or None in sds:
        return Interval(Fraction(0), Fraction(1))
    m1, m2 = (m.interval for m in means if m is not None)
    s1, s2 = (s.interval for s in sds if s is not None)
    wide = max(abs(m1.hi - m2.lo), abs(m2.hi - m1.lo))
    narrow = Fraction(0) if m1.overlaps(m2) else min(abs(m1.lo - m2.hi), abs(m2.lo - m1.hi))
    low = _t_p(float(wide), float(s1.lo), float(s2.lo), sizes, variant)
    high = _t_p(float(narrow), float(s1.hi), float(s2.hi), sizes, variant)
    return Interval(Fraction(min(low, high)) - Fraction(1, 10**9), Fraction(max(low, high)) + Fraction(1, 10**9))


def _t_p(gap: float, sd1: float, sd2: float, sizes: tuple[int, int], variant: str) -> float:
    n1, n2 = sizes
    sd1, sd2 = max(sd1, 1e-12), max(sd2, 1e-12)
    if variant == "student":
        pooled = ((n1 - 1) * sd1**2 + (n2 - 1) * sd2**2) / (n1 + n2 - 2)
        se, df = math.sqrt(pooled * (1 / n1 + 1 / n2)), n1 + n2 - 2
    else:
        v1, v2 = sd1**2 / n1, sd2**2 / n2
        se, df = math.sqrt(v1 + v2), (v1 + v2) ** 2 / (v1**2 / (n1 - 1) + v2**2 / (n2 - 1))
    return float(2 * scipy_stats().t.sf(gap / se, df))


def _around(value: float) -> Interval:
    return Interval(Fraction(value) - Fraction(1, 10**9), Fraction(value) + Fraction(1, 10**9))


VARIANTS = {"counts": ("pearson", "yates", "fisher"), "means": ("student", "welch")}


def p_interval(view: TableView, comparison: Comparison, sizes: tuple[int, int], variant: str) -> Interval | None:
    if comparison.kind == "means":
        return mean_p(comparison, view, sizes, variant)
    table = count_table(view, comparison, sizes)
    return count_p(table, variant) if table is not None else None


def p_agrees(computed: Interval, printed: Interval, relation: str) -> bool:
    """A recomputed p-value against the printed one: '<'/'≤' bound it above, '>' below, '=' must overlap."""
    if relation in "<≤":
        return computed.lo <= printed.hi
    if relation == ">":
        return computed.hi >= printed.lo
    return computed.overlaps(printed)


def fits(view: TableView, comparison: Comparison, sizes: tuple[int, int], variant: str) -> bool | None:
    computed = p_interval(view, comparison, sizes, variant)
    if computed is None:
        return None
    return p_agrees(computed, comparison.p.number.interval, comparison.relation)
