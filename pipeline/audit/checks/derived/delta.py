"""derived-delta: a printed gain, difference, improvement or speed-up against the scores it is computed from.

A delta is found only by a whole header token (Δ, Diff., Gain, Improvement, Speed-up, Decrease, ...) or as an
explicitly signed parenthesis after a score ("92.38 (+2.98)"). Its operands are laid out, never searched for:
the two columns of its header group (or the two just left of it), a baseline row or column the labels or the
caption name. A relation mode (difference either way, ratio, relative change) holds only when every line but
one fits it; that one line is flagged, as a warning, since the mode is inferred. Lines whose operand is not
printed are skipped.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from pipeline.audit.checks.base import Issue
from pipeline.audit.checks.derived.arith import div, sub
from pipeline.audit.checks.derived.evidence import Operand, has_token, leading_number, relation_issue
from pipeline.audit.context import AuditInput
from pipeline.audit.metrics import DELTA_WORDS
from pipeline.audit.tableview import Pos, TableView
from pipeline.numbers import Interval, PrintedNumber, normalise, parse_number

DELTA_TOKEN = re.compile(rf"(?:Δ|∆|δ)\S*|{DELTA_WORDS}", re.IGNORECASE)  # a whole header token
BASELINE_TOKEN = re.compile(r"baseline|base|reference|ref\.?|\(ref\.?\)|\(reference\)", re.IGNORECASE)
_INLINE = re.compile(
    r"^\s*(?P<score>[-+]?\d[\d,]*(?:\.\d+)?)\s*%?\s*\(\s*(?P<delta>[+\-]\s?\d+(?:\.\d+)?)\s*(?P<pct>%?)\s*\)\s*$"
)


def _inline(text: str) -> re.Match[str] | None:
    """A cell printing a score with its change beside it: "71.2 (+1.3)", "0.84 (−0.02%)"."""
    return _INLINE.match(normalise(text))


MIN_FITS = 3


@dataclass(frozen=True)
class Line:
    """One printed delta with its two operands (``score`` minus ``base`` under the difference mode)."""

    delta: Operand
    score: Operand
    base: Operand


Mode = Callable[[Interval, Interval], Interval | None]
_HUNDRED = Fraction(100)
MODES: dict[str, Mode] = {
    "score - base": lambda s, b: sub(s, b),
    "base - score": lambda s, b: sub(b, s),
    "score / base": lambda s, b: div(s, b),
    "base / score": lambda s, b: div(b, s),
    "(score - base) / base x 100": lambda s, b: _scaled(div(sub(s, b), b), _HUNDRED),
    "(base - score) / base x 100": lambda s, b: _scaled(div(sub(b, s), b), _HUNDRED),
    "(score - base) / base": lambda s, b: div(sub(s, b), b),
}


def _scaled(value: Interval | None, factor: Fraction) -> Interval | None:
    return value.scaled(factor) if value is not None else None


def check_deltas(inp: AuditInput) -> list[Issue]:
    issues: list[Issue] = []
    for view in inp.views:
        inline = _inline_lines(view)
        if inline:
            why = "a signed parenthesis after a score is a gain over the baseline row"
            issues.extend(_judge(view, inline, why, "inline gains"))
        statements = inp.statements_about(view.table, pages=True)
        for col in _delta_columns(view):
            lines, why = _column_lines(view, col)
            stated = _reference_row(view, statements)
            if not lines and stated is not None:
                issues.extend(_judge_stated(view, col, *stated))
                continue
            issues.extend(_judge(view, lines, why))
        for row in _delta_rows(view):
            lines, why = _row_lines(view, row)
            issues.extend(_judge(view, lines, why))
    return issues


def _judge(view: TableView, lines: list[Line], why: str, kind: str = "deltas") -> list[Issue]:
    """The mode every line but one fits; the one line that does not is flagged."""
    if len(lines) < MIN_FITS + 1:
        return []
    best: tuple[str, list[Line]] | None = None
    for name, mode in MODES.items():
        misfits = [line for line in lines if not _fits(mode, line)]
        if len(misfits) <= 1 and (best is None or len(misfits) < len(best[1])):
            best = (name, misfits)
    if best is None or not best[1]:
        return []
    name, (line,) = best[0], best[1]
    computed = MODES[name](line.score.number.interval, line.base.number.interval)
    if computed is None:
        return []
    return [
        relation_issue(
            view,
            message=(
                f"{line.delta.number.text} is printed for {line.score.number.text} against "
                f"{line.base.number.text}, which gives {computed.describe(4)} as {name}; the other "
                f"{len(lines) - 1} {kind} of this table fit {name}"
            ),
            relation=f"delta = {name}",
            operands=[line.delta, line.score, line.base],
            computed=computed,
            why=f"{why}; mode '{name}' holds in {len(lines) - 1} of {len(lines)} lines",
            certainty="majority",
            subject=line.delta,
        )
    ]


_REFERENCE = re.compile(
    r"\b(?P<word>minus|subtracted from|relative to|compared (?:to|with)|over|versus|vs\.?|from)\s+(?:that|those|the "
    r"(?:score|value|result)s?)?\s*(?:of\s+)?(?:the\s+)?(?P<name>[^,;.()]{2,60})",
    re.IGNORECASE,
)


def _reference_row(view: TableView, statements: list[str]) -> tuple[int, str, bool] | None:
    """The row a sentence names as the delta's reference ("minus that of the full model"): (row, the words,
    whether "minus" fixes the order). Only a sentence naming a delta and exactly one row label counts."""
    for sentence in statements:
        if not DELTA_TOKEN.search(sentence):
            continue
        for match in _REFERENCE.finditer(sentence):
            named = match.group("name").lower()
            rows = [
                r for r in view.body_rows
                if (label := view.row_labels.get(r, "").split(" / ")[-1].strip().lower()) and len(label) >= 3
                and re.match(rf"{re.escape(label)}\b", named)
            ]  # fmt: skip
            if len(rows) == 1:
                return rows[0], match.group(0), match.group("word").lower() in ("minus", "subtracted from")
    return None


def _judge_stated(view: TableView, col: int, reference: int, words: str, exact: bool) -> list[Issue]:
    """Deltas against the reference row the paper names, on the score column just left of the delta column."""
    left = [c for c in view.value_cols if c < col and not has_token(view.leaf(c), DELTA_TOKEN)]
    if not left:
        return []
    score_col = left[-1]
    rows = [r for r in view.body_rows if r != reference]
    lines = _lines(view, [((r, col), (r, score_col), (reference, score_col)) for r in rows])
    why = f"the paper states the delta's reference: '{words}' (row '{view.row_labels.get(reference, '')}')"
    if not exact:
        return _judge(view, lines, why)
    name, issues = "score - base", []
    for line in (ln for ln in lines if not _fits(MODES[name], ln)):
        computed = MODES[name](line.score.number.interval, line.base.number.interval)
        if computed is None:
            continue
        issues.append(
            relation_issue(
                view,
                message=(
                    f"{line.delta.number.text} is printed for {line.score.number.text} against the reference "
                    f"{line.base.number.text}, which gives {computed.describe(4)} as {name}, the relation the paper "
                    f'states: "{words}"'
                ),
                relation=f"delta = {name}",
                operands=[line.delta, line.score, line.base],
                computed=computed,
                why=why,
                certainty="exact",
                subject=line.delta,
            )
        )
    return issues


def _fits(mode: Mode, line: Line) -> bool:
    computed = mode(line.score.number.interval, line.base.number.interval)
    return computed is not None and computed.overlaps(line.delta.number.interval)


def _inline_lines(view: TableView) -> list[Line]:
    """Cells printing "score (+gain)", against the baseline row of their group (or the baseline column of their row)."""
    lines = []
    for (row, col), gain, score in _inline_cells(view):
        base = _baseline_row(view, row, col) or _baseline_col(view, row, col) or _plain_in_row(view, row, col)
        if base is None:
            continue
        number = leading_number(view.text(*base))
        if number is None or _inline(view.text(*base)):
            continue
        lines.append(
            Line(
                Operand("gain", (row, col), gain),
                Operand("score", (row, col), score),
                Operand("baseline", base, number),
            )
        )
    return lines


def _inline_cells(view: TableView) -> list[tuple[Pos, PrintedNumber, PrintedNumber]]:
    found = []
    for cell in view.table.cells:
        if cell.row < view.table.header_rows or cell.col < view.table.stub_cols:
            continue
        match = _inline(cell.text)
        if not match:
            continue
        score, gain = (
            parse_number(match.group("score")),
            parse_number(match.group("delta").replace(" ", "") + match.group("pct")),
        )
        if score is not None and gain is not None:
            found.append(((cell.row, cell.col), gain, score))
    return found


def _baseline_row(view: TableView, row: int, col: int) -> Pos | None:
    """The baseline row of the cell's block: the nearest one above it in its group (else the only one below)."""
    group = view.row_groups.get(row)
    named = [
        r
        for r in view.body_rows
        if r != row and view.row_groups.get(r) == group and _names_baseline(view, view.row_labels.get(r, ""))
    ]
    above = [r for r in named if r < row]
    if above:
        return (above[-1], col)
    return (named[0], col) if len(named) == 1 else None


def _baseline_col(view: TableView, row: int, col: int) -> Pos | None:
    named = [c for c in view.value_cols if c != col and _names_baseline(view, view.col_label(c))]
    return (row, named[0]) if len(named) == 1 else None


def _plain_in_row(view: TableView, row: int, col: int) -> Pos | None:
    """A row of inline gains with one plain score (the reference printed without a gain, "NoAdapt"): that one."""
    cols = range(view.table.stub_cols, view.table.n_cols)
    plain = [c for c in cols if c != col and leading_number(view.text(row, c)) and not _inline(view.text(row, c))]
    gains = [c for c in cols if _inline(view.text(row, c))]
    return (row, plain[0]) if len(plain) == 1 and len(gains) >= 2 else None


def _names_baseline(view: TableView, label: str) -> bool:
    """A label with a baseline token, or the one the caption names ("gains over SC", "relative to X")."""
    if has_token(label, BASELINE_TOKEN):
        return True
    last = label.split(" / ")[-1].strip()
    if len(last) < 2:
        return False
    said = re.search(
        rf"(?:over|relative to|compared (?:to|with)|against|vs\.?)\s+(?:the\s+)?{re.escape(last)}\b",
        view.table.caption,
        re.I,
    )
    return said is not None


def _delta_columns(view: TableView) -> list[int]:
    return [c for c in view.value_cols if has_token(view.leaf(c), DELTA_TOKEN)]


def _delta_rows(view: TableView) -> list[int]:
    return [r for r in view.body_rows if has_token(view.row_labels.get(r, "").split(" / ")[-1], DELTA_TOKEN)]


def _column_lines(view: TableView, col: int) -> tuple[list[Line], str]:
    """Operands: the two other columns of the delta's header group, else the two columns just left of it."""
    group = view.col_groups.get(col)
    if group is not None:
        siblings = [c for c in view.value_cols if c != col and view.col_groups.get(c) == group]
        where = f"the other columns of the header group '{view.text(*group)}'"
    else:
        left = [c for c in view.value_cols if c < col][-2:]
        siblings = left if len(left) == 2 and left[-1] == col - 1 else []
        where = "the two columns just left of it"
    if len(siblings) != 2 or any(has_token(view.leaf(c), DELTA_TOKEN) for c in siblings):
        return [], ""
    base_col, score_col = _order(view, siblings, view.col_label)
    lines = _lines(view, [((row, col), (row, score_col), (row, base_col)) for row in view.body_rows])
    why = f"column '{view.col_label(col)}' is a delta by its header token; its operands are {where}"
    return lines, why


def _row_lines(view: TableView, row: int) -> tuple[list[Line], str]:
    """Operands: the two rows just above the delta row, in its group."""
    group = view.row_groups.get(row)
    above = [r for r in view.body_rows if r < row and view.row_groups.get(r) == group][-2:]
    if len(above) != 2 or any(has_token(view.row_labels.get(r, "").split(" / ")[-1], DELTA_TOKEN) for r in above):
        return [], ""
    base_row, score_row = _order(view, above, lambda r: view.row_labels.get(r, ""))
    lines = _lines(view, [((row, col), (score_row, col), (base_row, col)) for col in view.value_cols])
    why = f"row '{view.row_labels.get(row, '')}' is a delta by its label token; its operands are the two rows above it"
    return lines, why


def _lines(view: TableView, triples: list[tuple[Pos, Pos, Pos]]) -> list[Line]:
    """A line per (delta, score, base) triple of cells that all hold a printed number."""
    lines = []
    for triple in triples:
        d, s, b = (_number(view, pos) for pos in triple)
        if d is not None and s is not None and b is not None:
            lines.append(
                Line(Operand("delta", triple[0], d), Operand("score", triple[1], s), Operand("base", triple[2], b))
            )
    return lines


def _order(view: TableView, pair: list[int], label: Callable[[int], str]) -> tuple[int, int]:
    """(base, score): the one a label names as baseline first, else the layout order (first printed is the base)."""
    named = [i for i in pair if _names_baseline(view, label(i))]
    if len(named) == 1:
        other = next(i for i in pair if i != named[0])
        return named[0], other
    return pair[0], pair[1]


def _number(view: TableView, pos: Pos) -> PrintedNumber | None:
    number = view.numbers.get(pos)
    return number if number is not None and number.plus_minus is None else leading_number(view.text(*pos))
