"""derived-ratio: a column the paper defines as a ratio of two others ("CV = SD/mean", "estimated as the ratio of
the standard deviation to the mean", "fold change = treated/control", "relative gain = (A - B)/B").

The relation is read from the caption (its footnotes included), the table's caption block in the text and the
sentences citing the table; the finding quotes the sentence. Each name of the statement is resolved to a column
(or a row) by its header, footnote marks left out, or by the usual names of the quantity ("standard deviation"
for "SD"). A percentage column ("CV (%)") is the ratio times 100; without a "%", the scale that most rows fit.

Every row is computed on printed-precision intervals. When most rows follow the stated relation, the others are
proved wrong (errors). When most do not, the authors' inputs were not the printed ones (unrounded values,
per-group means): only a row off by more than a quarter of its computed value is flagged, as a warning.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from pipeline.audit.checks.base import Issue
from pipeline.audit.checks.derived.arith import div, sub
from pipeline.audit.checks.derived.evidence import relation_issue
from pipeline.audit.checks.derived.layout import Line, named_lines
from pipeline.audit.context import AuditInput
from pipeline.audit.tableview import TableView
from pipeline.numbers import Interval

# the usual names of quantities a ratio is stated in; a header naming one is known by all of them
SYNONYMS: tuple[tuple[str, ...], ...] = (
    ("cv", "c.v.", "cov", "coefficient of variation", "coefficients of variation"),
    ("sd", "s.d.", "std", "std.", "std. dev.", "standard deviation", "standard deviations"),
    ("mean", "average", "avg", "avg.", "means", "mean value"),
    ("se", "sem", "s.e.", "s.e.m.", "standard error", "standard error of the mean"),
    ("fc", "fold change", "fold-change"),
)
_NAME = r"[A-Za-zΔ∆][\w.\-]*(?:\s+[a-z][\w.\-]*){0,4}"
_RATIO_WORDS = (
    rf"\b(?:estimated|calculated|computed|defined|expressed|obtained|given|determined)\s+as\s+(?:the\s+)?"
    rf"(?:ratio|quotient)\s+(?:of|between)\s+(?:the\s+)?(?P<a>{_NAME}?)\s+(?:to|over|and|divided by)\s+(?:the\s+)?"
    rf"(?P<b>{_NAME})"
)
_SLASH = rf"(?:=|:|\bis\b|\bas\b)\s*(?P<a>{_NAME}?)\s*/\s*(?P<b>{_NAME})"
_RELATIVE = rf"(?:=|:|\bis\b|\bas\b)\s*\(\s*(?P<a>{_NAME}?)\s*[-−–]\s*(?P<b>{_NAME}?)\s*\)\s*/\s*(?P<c>{_NAME})"
_MARK = r"[a-f*†‡§¶]?"  # a footnote mark read into the header ("SDa")
WINDOW = 90  # characters before a statement's operands where the defined quantity is named
LOOSE = Fraction(1, 4)  # off by more than this share of the computed value: flagged even when few rows fit


@dataclass(frozen=True)
class Statement:
    """A ratio the paper states: out = a / b (kind "ratio") or out = (a - b) / b (kind "relative")."""

    out: str
    a: str
    b: str
    kind: str
    sentence: str  # the words that state it, quoted on the finding
    percent: bool


def check_ratios(inp: AuditInput) -> list[Issue]:
    issues: list[Issue] = []
    for view in inp.views:
        for statement in stated_ratios(view, _statements(inp, view)):
            issues.extend(_judge(view, statement))
    return issues


def _statements(inp: AuditInput, view: TableView) -> list[str]:
    """What the paper says about the table (its footnotes included), and the lines of words without a number that
    the extractor kept in the grid (a footnote read as a row)."""
    table = view.table
    lines = [" ".join(view.text(row, c) for c in range(table.n_cols)).strip() for row in range(table.header_rows,
             table.n_rows) if row not in view.body_rows]  # fmt: skip
    return inp.statements_about(table, pages=True) + [words for words in lines if len(words.split()) >= 3]


def names_of(label: str) -> set[str]:
    """What a header may be called: itself (parentheticals and a footnote mark left out) and its synonyms."""
    leaf = re.sub(r"\s*[(\[][^)\]]*[)\]]", "", label.split(" / ")[-1]).strip().lower()
    names = {leaf}
    if re.fullmatch(r"[a-z]{2,5}[a-f]", leaf) and label.split(" / ")[-1][:2].isupper():
        names.add(leaf[:-1])  # "SDa" -> "sd"
    for group in SYNONYMS:
        if names & set(group):
            names |= set(group)
    return {n for n in names if n}


def stated_ratios(view: TableView, sentences: list[str]) -> list[Statement]:
    """The ratio relations the sentences state between this table's columns (or rows), names resolved."""
    labels = _labels(view)
    found: list[Statement] = []
    for sentence in sentences:
        for kind, pattern in (("ratio", _RATIO_WORDS), ("ratio", _SLASH), ("relative", _RELATIVE)):
            for match in re.finditer(pattern, sentence, re.IGNORECASE):
                a, b = _resolve(match.group("a"), labels), _resolve(match.group("b"), labels)
                if kind == "relative" and _resolve(match.group("c"), labels) != b:
                    continue
                begin = max(0, match.start() - WINDOW)
                out, at = _named_before(sentence[begin : match.start()], labels)
                if a and b and out and len({a, b, out}) == 3:
                    end = re.search(r"[,;]|\.\s|\s+and|$", sentence[match.start("b") :])
                    quoted = sentence[begin + at : match.start("b") + (end.start() if end else 0)]
                    percent = "%" in out or bool(re.search(r"%|percent", quoted))
                    found.append(Statement(out, a, b, kind, quoted, percent))
    return list(dict.fromkeys(found))


def _labels(view: TableView) -> dict[str, set[str]]:
    """Each column and row label of the table -> its names."""
    labels = {view.leaf(c): names_of(view.leaf(c)) for c in view.value_cols}
    labels.update({view.row_labels.get(r, ""): names_of(view.row_labels.get(r, "")) for r in view.body_rows})
    return {label: names for label, names in labels.items() if label}


def _resolve(phrase: str | None, labels: dict[str, set[str]]) -> str | None:
    """The one label whose name the phrase starts with (its longest name decides)."""
    if not phrase:
        return None
    phrase = phrase.strip().lower()
    hits = {}
    for label, names in labels.items():
        size = max((len(n) for n in names if re.match(rf"{re.escape(n)}{_MARK}(?![\w])", phrase)), default=0)
        if size:
            hits[label] = size
    best = max(hits.values(), default=0)
    chosen = [label for label, size in hits.items() if size == best]
    return chosen[0] if len(chosen) == 1 else None


def _named_before(window: str, labels: dict[str, set[str]]) -> tuple[str | None, int]:
    """The label named last in the window (the quantity the statement defines), and where its name starts."""
    lowered = window.lower()
    last: dict[str, tuple[int, int]] = {}
    for label, names in labels.items():
        for name in names:
            for match in re.finditer(rf"(?<![\w]){_MARK}{re.escape(name)}{_MARK}(?![\w])", lowered):
                last[label] = max(last.get(label, (-1, 0)), (match.end(), match.start()))
    if not last:
        return None, 0
    best = max(end for end, _ in last.values())
    chosen = [(label, start) for label, (end, start) in last.items() if end == best]
    return chosen[0] if len(chosen) == 1 else (None, 0)


def _lines(view: TableView, statement: Statement) -> list[Line]:
    """The lines (rows, or columns when the quantities are rows) printing all three quantities."""
    labels = (("out", statement.out), ("a", statement.a), ("b", statement.b))
    roles = {role: re.compile(re.escape(_bare(label)), re.IGNORECASE) for role, label in labels}
    return [line for line in named_lines(view, roles) if {"out", "a", "b"} <= set(line.operands)]


def _bare(label: str) -> str:
    """The label as layout.leaf_label reads it (lower case, parentheticals left out)."""
    return re.sub(r"\s+", " ", re.sub(r"\s*[(\[][^)\]]*[)\]]", "", label.split(" / ")[-1])).strip().lower()


def _computed(statement: Statement, line: Line, scale: Fraction) -> Interval | None:
    a, b = (line.operands[r].number.interval for r in ("a", "b"))
    quotient = div(sub(a, b) if statement.kind == "relative" else a, b)
    return quotient.scaled(scale) if quotient is not None else None


def _judge(view: TableView, statement: Statement) -> list[Issue]:
    lines = _lines(view, statement)
    if len(lines) < 2:
        return []
    scales = [Fraction(100)] if statement.percent else [Fraction(1), Fraction(100)]
    fitting = {s: [ln for ln in lines if _fits(statement, ln, s)] for s in scales}
    scale = max(scales, key=lambda s: len(fitting[s]))
    fits = fitting[scale]
    proved = len(fits) >= 2 and 2 * len(fits) >= len(lines)
    issues = []
    for line in lines:
        computed = _computed(statement, line, scale)
        printed = line.operands["out"].number.interval
        if computed is None or computed.overlaps(printed):
            continue
        mid = (computed.lo + computed.hi) / 2
        if not proved and abs(printed.lo + printed.hi - 2 * mid) <= 2 * LOOSE * abs(mid):
            continue
        issues.append(_issue(view, statement, line, computed, scale, proved, len(fits), len(lines)))
    return issues


def _where(view: TableView, line: Line) -> str:
    """The line's place; a row of a table without a stub is named by its first words ("row 'CBD Quantity'")."""
    if not line.where.startswith("row ''"):
        return line.where
    row = line.operands["out"].pos[0]
    words = [t for c in range(view.table.n_cols) if re.search(r"[A-Za-z]{3}", t := view.text(row, c).strip())]
    return f"row '{words[0]}'" if words else line.where


def _fits(statement: Statement, line: Line, scale: Fraction) -> bool:
    computed = _computed(statement, line, scale)
    return computed is not None and computed.overlaps(line.operands["out"].number.interval)


def _issue(
    view: TableView, statement: Statement, line: Line, computed: Interval, scale: Fraction, proved: bool, fits: int,
    total: int,
) -> Issue:  # fmt: skip
    ops = line.operands
    formula = f"({statement.a} - {statement.b}) / {statement.b}" if statement.kind == "relative" else (
        f"{statement.a} / {statement.b}")  # fmt: skip
    shown = f"{formula} x 100" if scale == 100 else formula
    quoted = statement.sentence
    reason = "" if proved else (
        f"only {fits} of {total} lines follow the stated relation within printed precision, so the authors' inputs "
        "were not exactly the printed ones; this line is off by more than a quarter of its computed value")  # fmt: skip
    return relation_issue(
        view,
        message=(
            f"{statement.out} {ops['out'].number.text} ({_where(view, line)}) is not {shown} = "
            f"{computed.describe(4)} from {statement.a} {ops['a'].number.text} and {statement.b} "
            f'{ops["b"].number.text}, the relation the paper states: "{quoted}"'
        ),
        relation=f"{statement.out} = {shown}",
        operands=[ops["out"], ops["a"], ops["b"]],
        computed=computed,
        why=f'stated: "{quoted}"; {fits} of {total} lines of the table follow it within printed precision',
        certainty="exact" if proved else "majority",
        subject=ops["out"],
        reason=None if proved else reason,
    )
