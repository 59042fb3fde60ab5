"""text-unit-scale: the text quotes a cell in the column's unit but without the power of ten its header prints
("89.2 s-1" for a cell under "kcat (10-3 s-1)", which is 0.0892 s-1).

A sentence quotes the cell when it prints the cell's number (within rounding) with the header's unit, and names
the cell's row or the column's quantity ("kcat", "dA:dTTP"). A number printed with the scale ("89.2 × 10-3 s-1")
or converted ("0.0892 s-1") is no slip. Which cell the sentence means is read from its words: a warning.
"""

from __future__ import annotations

import re

from pipeline.audit.checks.base import Issue
from pipeline.audit.context import AuditInput
from pipeline.audit.tableview import Pos, TableView
from pipeline.audit.text import Sentence, header_unit, quantities, unit_key
from pipeline.numbers import parse_number

_SCALE_BEFORE = re.compile(r"[x×]\s*10\s*\^?\s*[-−]?\d+\s*$")


def check_unit_scales(inp: AuditInput) -> list[Issue]:
    if inp.text is None:
        return []
    issues: list[Issue] = []
    for view in inp.views:
        scaled = {c: u for c in view.value_cols if (u := header_unit(view.col_label(c))) and u[0] != 0}
        if not scaled:
            continue
        for sentence in inp.text.sentences:
            quoted: dict[int, list[tuple[str, Pos]]] = {}  # column -> (number with unit, cell) quoted unscaled
            for quantity in quantities(sentence.text):
                if _SCALE_BEFORE.search(sentence.text[: quantity.start + len(quantity.number) + 12]):
                    continue
                for col, (_, unit) in scaled.items():
                    pos = _quoted_cell(view, sentence.text, quantity.number, col)
                    if unit_key(quantity.unit) == unit_key(unit) and pos is not None:
                        quoted.setdefault(col, []).append((f"{quantity.number} {quantity.unit}", pos))
            issues.extend(_issue(view, sentence, quotes, *scaled[col]) for col, quotes in quoted.items())
    return issues


def _quoted_cell(view: TableView, text: str, number: str, col: int) -> Pos | None:
    """The one cell of the column that prints this number, in a row (or column) the sentence names."""
    quoted = parse_number(number)
    if quoted is None:
        return None
    quantity = re.sub(r"\s*\([^)]*\)", "", view.leaf(col)).strip()
    names_column = _names(text, quantity)
    rows = [
        r
        for r in view.body_rows
        if (n := view.numbers.get((r, col))) is not None and n.interval.overlaps(quoted.interval)
        and (names_column or _names(text, view.row_labels.get(r, "").split(" / ")[-1]))
    ]  # fmt: skip
    return (rows[0], col) if len(rows) == 1 else None


def _names(text: str, label: str) -> bool:
    label = label.strip()
    if len(label) < 2:
        return False
    return re.search(rf"(?<![\w:]){re.escape(label)}(?![\w:])", text) is not None


def _issue(view: TableView, sentence: Sentence, quotes: list[tuple[str, Pos]], exponent: int, header: str) -> Issue:
    label = view.table.label or "the table"
    column = view.col_label(quotes[0][1][1])
    cells = "; ".join(f"{text} for row '{view.row_labels.get(pos[0], '')}' (printed {view.numbers[pos].text})"
                      for text, pos in quotes)  # fmt: skip
    return Issue(
        f"the text (p. {sentence.page}) quotes {cells} of {label} in {header}, while the column '{column}' is in "
        f"10^{exponent} {header}: the text drops the header's 10^{exponent} scale",
        table=view.table,
        cells=[pos for _, pos in quotes],
        subjects=[pos for _, pos in quotes],
        expected={"unit": f"10^{exponent} {header}", "applies because": "the header prints the column's unit"},
        found={"sentence": sentence.text[:300], "page": sentence.page, "quoted": [text for text, _ in quotes]},
        tolerance="printed precision of the text and the cell",
        certainty="likely",
        reason="which cell the sentence quotes is read from its words (the number, the unit and a named row or column)",
    )
