"""text-claim-mismatch: a number the text quotes from a table that no cell of that table supports.

A sentence quotes a table when it cites it: all its numbers when the table is what the sentence is about
("Table 3 shows ..."), only the number just before a citation in parentheses ("85.6% (Table 10)").
Its numbers with a decimal point and two significant digits or more are the candidates; numbers that
set something or bound it ("γ = 1.5", "p < 0.05", "less than 1.0"), spreads after "±", sizes and times
("7.5B", "2.3x", "12.5 hours"), version-like tokens ("GPT-3.5") and runs of bare numbers (a table or a
figure's axis that leaked into the text) are not. A number is supported when, within rounding
of both the text and the cell (interval arithmetic), it is a cell of the table or the mean of a row or
column, on the fraction or the percent scale ("65.2%" for a printed 0.652), or the difference of two cells
of one row or column (in their units, or relative in percent for a number printed with "%").

A sentence that cites nothing but follows a citation in the same block (after a run-in heading such as
"Calibration." or in a list) is checked only for claims over every cell of a line it names ("below 0.05 on
all datasets", see ``quantified``).

Only two kinds of quotes can be flagged. One pins the cell down: the sentence names a row and a column of
the table (those named nearest the number) and quotes a number within half the
cell's magnitude that is not that cell (nor, in a sentence speaking of an average, the mean of its row or
column; quoting a neighbour's value for it is a misquote too). The other
quotes a cited table elsewhere (another of its numbers is supported) and adds a number on the scale of the
table's values that nothing above supports. Which cell a
sentence means is read from its words, so a mismatch is likely, never proved.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from pipeline.audit.checks.base import Issue
from pipeline.audit.checks.quantified import quantified_claims
from pipeline.audit.context import AuditInput
from pipeline.audit.tableview import Pos, TableView
from pipeline.audit.text import Sentence
from pipeline.catalogue import compact_label, without_count
from pipeline.numbers import Interval, PrintedNumber, parse_number

_NUMBER = re.compile(r"(?<![\w.\-−±/])(?P<num>\d+\.\d+)(?P<pct>\s?%)?(?!\w|\.\d|\s?(?:[x×]|[KMBT]\b))")
_SETTING_BEFORE = re.compile(
    r"(?:[=<>≤≥≈~±]|\+/-|\bp\s*|\b(?:lr|learning rate|dropout|decay|temperature|threshold|of size|top-?p|"
    r"(?:less|more|greater|fewer|lower|higher|better|worse)\s+than|at\s+(?:least|most)|up\s+to|above|below|under|"
    r"version|v|sec(?:tion)?\.?|fig(?:ure)?\.?|eq\.?|table|appendix|§))\s*$",
    re.IGNORECASE,
)
_UNIT_AFTER = re.compile(
    r"^\s*(?:[KMBT]\b|billion|million|thousand|hours?|h\b|days?|min(?:utes)?|s\b|sec(?:onds)?|ms\b|epochs?|steps?|"
    r"[GMK]B\b|GPU|TPU|tokens?|params?|parameters?|times|fold|°|kb|bp|mb)",
    re.IGNORECASE,
)
_ABBREVIATED = re.compile(r"[^\W\d_]{3,}\.")  # "mod.", "methyl.": a word cut short
_MIN_LABEL = 3  # characters a lower-case row or column label needs before a sentence can be said to name it
_AVERAGE = re.compile(r"\b(?:average|averaged|mean|overall|on avg\.?)\b", re.IGNORECASE)
_MIN_DIGITS = 2  # significant digits a quoted number needs ("0.86", "84.0"; not "0.5")
_MAX_PAIRS = 4000  # cell pairs tried for differences, per table
_CITATION = re.compile(r"\s*(?:\[[^\]]*\]|\([^)]*(?:\d{4}|et al)[^)]*\))")
# numbers in a row: a table or an axis in the text ("9.93−4": a power of ten whose superscript was flattened)
_RUN = re.compile(r"(?:[-−]?\d[\d.,]*(?:[-−]\d+)?%?\s+){2,}[-−]?\d[\d.,]*%?")
# control characters where a glyph had no Unicode value: in tables, almost always a minus sign
_NO_UNICODE = str.maketrans({chr(code): "−" for code in range(32) if chr(code) not in "\t\n\r"})


@dataclass(frozen=True)
class _Quote:
    number: PrintedNumber
    start: int


def check_text_claims(inp: AuditInput) -> list[Issue]:
    if inp.text is None:
        return []
    # a text source's tables (a README's) often have no label to cite: its prose names their rows and columns
    unlabelled = [v for v in inp.views if v.table.label is None and v.table.artifact]
    issues: list[Issue] = []
    for sentence in inp.text.sentences:
        quotes = _quotes(sentence.text)
        if quotes and unlabelled:
            issues += _unlabelled_mismatches(unlabelled, sentence, quotes)
        by_key = inp.cited(sentence)  # a table continued on the next page is one table
        keys = sorted(by_key)
        if not keys:
            continue
        if not quotes:
            issues.extend(i for k in keys for i in quantified_claims(by_key[k][0], sentence, _named_at))
            continue
        every = [v for k in keys for v in by_key[k]]
        supported = [q for q in quotes if any(_supported(inp, v, q.number) for v in every)]
        for key in keys:
            view = by_key[key][0]
            issues.extend(quantified_claims(view, sentence, _named_at))
            for quote, pin in _mismatches(view, sentence.text, _bound(sentence.text, key, quotes), supported):
                issues.append(_issue(view, sentence, quote, pin, supported))
    for sentence, keys in inp.text.in_scope():  # after a citation: only claims over every cell of a named line
        named = inp.named(keys, sentence.page)
        issues.extend(i for run in named.values() for i in quantified_claims(run[0], sentence, _named_at))
    return _one_per_misquote(issues)


def _one_per_misquote(issues: list[Issue]) -> list[Issue]:
    """One finding per misquoted cell: sentences repeating the same wrong number for it (a key finding and a
    heading) are named beside the first."""
    kept: dict[tuple[int, tuple[object, ...], str], Issue] = {}
    out = []
    for issue in issues:
        quoted = issue.found.get("quoted") if isinstance(issue.found, dict) else None
        if quoted is None or not issue.cells:
            out.append(issue)
            continue
        key = (id(issue.table), tuple(issue.cells), str(quoted))
        if key in kept:
            kept[key].details.setdefault("also_said", []).append(issue.found["sentence"])
            continue
        kept[key] = issue
        out.append(issue)
    return out


def _unlabelled_mismatches(views: list[TableView], sentence: Sentence, quotes: list[_Quote]) -> list[Issue]:
    """Quotes from a text source's unlabelled tables: each number is held against the one table whose row and
    column the sentence names nearest to it (two tables may print the same row), so it is found once. A mean
    answers for a number only when its own clause speaks of an average ("ranks 4th overall, ..." does not)."""
    pins: dict[int, tuple[TableView, Pos]] = {}
    for quote in quotes:
        found = [(d, k, pos) for k, view in enumerate(views) for d, pos in [_pin(view, sentence.text, quote)] if pos]
        if found:
            _, k, pos = min(found)
            pins[id(quote)] = (views[k], pos)
    issues = []
    for quote in quotes:
        if id(quote) not in pins:
            continue
        view, pos = pins[id(quote)]
        averaged = _AVERAGE.search(_clause(sentence.text, quote.start)) is not None
        # another number quoting the same cell right: this one speaks of something else (a gap, a rank)
        right = any(
            q is not quote and pins.get(id(q)) == (view, pos) and _supported_at(view, pos, q.number, averaged)
            for q in quotes
        )
        misquoted = not _supported_at(view, pos, quote.number, averaged)
        if misquoted and not right and _near(view.numbers[pos], quote.number):
            issues.append(_issue(view, sentence, quote, pos, []))
    return issues


def _clause(text: str, at: int) -> str:
    """The words around a position between clause marks (commas, semicolons, colons, dashes)."""
    marks = (",", ";", ":", "—", " - ")
    start = max(text.rfind(m, 0, at) for m in marks) + 1
    ends = [i for m in marks if (i := text.find(m, at)) >= 0]
    return text[start : min(ends, default=len(text))]


def _mismatches(
    view: TableView, text: str, bound: list[_Quote], supported: list[_Quote]
) -> list[tuple[_Quote, Pos | None]]:
    """The quotes of one cited table that it does not support, each with the cell it pins (if any)."""
    pins = {id(q): _pinned_cell(view, text, q) for q in bound}
    averaged = _AVERAGE.search(text) is not None
    quoted_right = any(_supported_at(view, p, q.number, averaged) for q in bound if (p := pins[id(q)]))
    anchored = any(q in supported for q in bound)
    wrong = []
    for quote in bound:
        # a named cell printing a number of another kind (an ECE beside an accuracy) pins nothing, nor does one
        # when the sentence quotes a named cell right (its other numbers are then about something else)
        pinned = pins[id(quote)]
        pin = pinned if pinned and not quoted_right and _near(view.numbers[pinned], quote.number) else None
        if pin is not None and not _supported_at(view, pin, quote.number, averaged):
            wrong.append((quote, pin))
        elif pin is None and anchored and quote not in supported and _on_scale(view, quote.number):
            wrong.append((quote, None))
    return wrong


def _bound(text: str, key: str, quotes: list[_Quote]) -> list[_Quote]:
    """The quotes a citation of table ``key`` covers: all of them when the sentence is about the table ("Table 3
    shows ..."), else (a parenthesis, "85.6% (Table 10) and 83.8% (Table 11)") the nearest number before it."""
    bound: list[_Quote] = []
    for match in re.finditer(rf"\bTab(?:les?|s?\.)\s*{re.escape(key)}\b", text, re.IGNORECASE):
        opening = text.rfind("(", 0, match.start())
        if opening < 0 or text.count(")", opening, match.start()):
            return quotes  # not inside parentheses
        before = [q for q in quotes if q.start < opening]
        if before:
            bound.append(before[-1])
    return bound


def _quotes(text: str) -> list[_Quote]:
    quotes = []
    text = text.translate(_NO_UNICODE)  # one character for one: the positions stay those of the sentence
    runs = [m.span() for m in _RUN.finditer(text)]
    for match in _NUMBER.finditer(text):
        if any(a <= match.start() < b for a, b in runs):
            continue
        before, after = text[max(0, match.start() - 20) : match.start()], text[match.end() :]
        if _SETTING_BEFORE.search(before) or _UNIT_AFTER.match(after):
            continue
        number = parse_number(match.group("num") + (match.group("pct") or "").strip())
        if number is not None and _significant(match.group("num")) >= _MIN_DIGITS:
            quotes.append(_Quote(number, match.start()))
    return quotes


def _significant(digits: str) -> int:
    return len(digits.replace(".", "").lstrip("0"))


def _scaled(number: PrintedNumber) -> list[Interval]:
    """The number on the fraction and the percent scale."""
    interval = number.interval
    return [interval, interval.scaled(Fraction(1, 100)), interval.scaled(Fraction(100))]


def _supported_at(view: TableView, pos: Pos, number: PrintedNumber, averaged: bool) -> bool:
    """A quote of a named cell: that cell on any scale, or the mean of its row or column when the sentence
    speaks of an average."""
    lines = [[n for p, n in view.numbers.items() if p[axis] == pos[axis]] for axis in (0, 1)]
    candidates = [view.numbers[pos].interval] + [_mean(line) for line in lines if averaged and len(line) >= 2]
    return any(c.overlaps(t) for c in candidates for t in _scaled(number))


def _mean(numbers: list[PrintedNumber]) -> Interval:
    low, high = (sum((getattr(n.interval, end) for n in numbers), Fraction(0)) for end in ("lo", "hi"))
    return Interval(low / len(numbers), high / len(numbers))


def _supported(inp: AuditInput, view: TableView, number: PrintedNumber) -> bool:
    """A cell or a line's mean on any scale; a difference of two cells in their own units; a relative
    difference only for a number printed with "%"."""
    targets = _scaled(number)
    key = ("claims-derived", id(view))
    if key not in inp.cache:
        inp.cache[key] = _derived(view)
    cells, means, differences, relative = inp.cache[key]
    if any(c.overlaps(t) for c in cells + means for t in targets):
        return True
    if any(d.overlaps(number.interval) for d in differences):
        return True
    return number.percent and any(r.overlaps(number.interval) for r in relative)


def _derived(view: TableView) -> tuple[list[Interval], list[Interval], list[Interval], list[Interval]]:
    """The cells, each line's mean, and the differences (absolute; relative, in percent) of two cells of a line."""
    lines: dict[tuple[str, int], list[PrintedNumber]] = {}
    for (row, col), number in view.numbers.items():
        lines.setdefault(("row", row), []).append(number)
        lines.setdefault(("col", col), []).append(number)
    means: list[Interval] = []
    differences: list[Interval] = []
    relative: list[Interval] = []
    pairs = 0
    for numbers in lines.values():
        if len(numbers) >= 2:
            means.append(_mean(numbers))
        for a, b in combinations(numbers, 2):
            pairs += 1
            if pairs > _MAX_PAIRS:
                break
            differences.append(_difference(a.interval, b.interval))
            relative.extend(_relative(a.interval, b.interval))
    return [n.interval for n in view.numbers.values()], means, differences, relative


def _difference(a: Interval, b: Interval) -> Interval:
    lo, hi = a.lo - b.hi, a.hi - b.lo
    return Interval(lo, hi) if lo >= 0 else Interval(max(-hi, Fraction(0)) if hi < 0 else Fraction(0), max(-lo, hi))


def _relative(a: Interval, b: Interval) -> list[Interval]:
    """|a - b| / b and / a, in percent, where the divisor is safely positive."""
    out = []
    diff = _difference(a, b)
    for base in (a, b):
        if base.lo > 0:
            out.append(Interval(diff.lo / base.hi * 100, diff.hi / base.lo * 100))
    return out


def _on_scale(view: TableView, number: PrintedNumber) -> bool:
    """Within the range of the table's values, on the fraction or the percent scale."""
    values = [n.value for n in view.numbers.values()]
    if len(values) < 2:
        return False
    lo, hi = min(values), max(values)
    return any(lo <= t.lo and t.hi <= hi for t in _scaled(number))


def _near(cell: PrintedNumber, number: PrintedNumber) -> bool:
    """Within half the cell's magnitude, on some scale: a misquote, not a number of another kind."""
    return any(abs(t.lo - cell.value) * 2 <= abs(cell.value) for t in _scaled(number))


def _pinned_cell(view: TableView, text: str, quote: _Quote) -> Pos | None:
    """The cell at the row and the column the sentence names nearest to the number (each nearest by itself)."""
    return _pin(view, text, quote)[1]


def _pin(view: TableView, text: str, quote: _Quote) -> tuple[int, Pos | None]:
    """The pinned cell and how far from the number its row or column is named (the farther of the two); a number
    in parentheses ("on splice sites (0.652)") speaks of what is named before it."""
    before = text[: quote.start].rstrip().endswith("(")
    rows = {r: _named_at(text, view.row_labels.get(r, "").split(" / ")[-1]) for r in view.body_rows}
    cols = {c: _named_at(text, view.leaf(c)) for c in view.value_cols}
    if before:
        rows = {r: [p for p in places if p < quote.start] for r, places in rows.items()}
        cols = {c: [p for p in places if p < quote.start] for c, places in cols.items()}
    row, col = _nearest(rows, quote), _nearest(cols, quote)
    if row is None or col is None or (row[1], col[1]) not in view.numbers:
        return 0, None
    return max(row[0], col[0]), (row[1], col[1])


def _nearest(spots: dict[int, list[int]], quote: _Quote) -> tuple[int, int] | None:
    """(distance, index) of the label named nearest to the number; None when two are named as near."""
    distances = sorted((min(abs(p - quote.start) for p in places), index) for index, places in spots.items() if places)
    if not distances or (len(distances) > 1 and distances[0][0] == distances[1][0]):
        return None
    return distances[0]


def _named_at(text: str, label: str) -> list[int]:
    """Where the text names the label as a whole word; short labels ("NT", "H4") only in their own capitals; a
    count after the label ("Promoters (22)") is not part of it, and an abbreviated word ("Histone mod.") names
    any word it begins ("histone modification")."""
    label = _CITATION.sub("", label).strip()  # "ConvS2S [9]", "KGI (Glass et al., 2021)"
    label = without_count(label)
    size = len(compact_label(label))
    if size < 2 or re.fullmatch(r"[\d.,%\s]+", label) or (size < _MIN_LABEL and label.lower() == label):
        return []
    flags = re.IGNORECASE if size >= _MIN_LABEL else 0
    pattern = r"\s+".join(
        re.escape(word[:-1]) + r"\w*\.?" if _ABBREVIATED.fullmatch(word) else re.escape(word) for word in label.split()
    )
    return [m.start() for m in re.finditer(rf"(?<![\w-]){pattern}(?![\w-])", text, flags)]


def _issue(view: TableView, sentence: Sentence, quote: _Quote, pinned: Pos | None, supported: list[_Quote]) -> Issue:
    label = view.table.label or "the table"
    where = f"p. {sentence.page}" if sentence.page else view.table.artifact
    if pinned is not None:
        cell = view.numbers[pinned]
        name = f"row '{view.row_labels.get(pinned[0], '')}', column '{view.col_label(pinned[1])}'"
        message = (f"the text quotes {quote.number.text} for {name} of {label}, which prints {cell.text}; no cell "
                   f"of {label} (nor a difference or mean of its cells) gives {quote.number.text}")  # fmt: skip
        cells = [pinned]
        reason = "the cell is the one whose row and column the sentence names"
    else:
        anchors = ", ".join(q.number.text for q in supported)
        message = (f"the text quotes {quote.number.text} beside {anchors} from {label}, but no cell of {label} "
                   f"(nor a difference or mean of its cells) gives {quote.number.text}")  # fmt: skip
        cells = []
        reason = f"the sentence cites {label} and quotes its cells ({anchors}) beside this number"
    return Issue(
        message,
        table=view.table,
        cells=cells,
        scope="cells" if cells else "table",
        subjects=cells or [],
        expected={"a cell of": label, "within rounding of": quote.number.interval.describe()},
        found={"sentence": sentence.text[:300], "page": sentence.page, "quoted": quote.number.text},
        tolerance="printed precision of the text and the cells; fraction and percent scales; |a-b|, relative "
        "differences and line means",
        certainty="likely",
        reason=reason,
        details={"where": where},
    )
