"""What every derived-* finding carries: the relation, its printed inputs, the computed interval, and why it applies.

Severity follows from how sure the relation is, never from how far off the value is: an exact relation is
``proved`` (an error, once ``settle`` in base.py has seen that the extractor trusts the table); a relation
inferred from a majority of rows (a gain mode, a denominator, a column pairing) is ``likely`` (a warning);
anything weaker is info. A table the extractor doubts turns any of them into needs-check (``settle``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.audit.checks.base import Issue
from pipeline.audit.tableview import Pos, TableView
from pipeline.model import Table
from pipeline.numbers import Interval, PrintedNumber, normalise, parse_number

# certainty of the relation -> (severity asked for, certainty in the audit's terms, reason when less than proved)
CERTAINTIES = {
    "exact": ("error", "proved", ""),
    "majority": ("warning", "likely", "the relation is inferred from the other lines of the table, not stated"),
    "weak": ("info", "likely", "a convention (truncation, not rounding) rather than an error"),
}

_LEADING = re.compile(r"^\s*([-+]?\d[\d,]*(?:\.\d+)?|[-+]?\.\d+)\s*(%?)")


@dataclass(frozen=True)
class Operand:
    """One printed input of a relation: what it stands for, where it sits, what it prints."""

    role: str
    pos: Pos
    number: PrintedNumber
    table: Table | None = None  # set when the cell sits in another table than the finding's


def leading_number(text: str) -> PrintedNumber | None:
    """The first number a cell prints ("0.721 (0.693–0.747)" -> 0.721), when the cell starts with one."""
    whole = parse_number(text)
    if whole is not None and whole.plus_minus is None:
        return whole
    match = _LEADING.match(normalise(text))
    return parse_number(match.group(1) + match.group(2)) if match else None


def has_token(label: str, pattern: re.Pattern[str]) -> bool:
    """A header names the quantity as a whole token, not inside another word ("F1" but not "f1(m)")."""
    return any(pattern.fullmatch(token) for token in tokens(label))


def tokens(label: str) -> list[str]:
    return [t for t in re.split(r"[\s/|,;:()\[\]]+", label.strip()) if t]


def relation_issue(
    view: TableView,
    *,
    message: str,
    relation: str,
    operands: list[Operand],
    computed: Interval,
    why: str,
    certainty: str,
    subject: Operand,
    reason: str | None = None,
) -> Issue:
    """An Issue whose first cell is the one the relation contradicts; the rest of the operands are evidence.
    ``reason`` replaces the certainty's usual reason when the check knows better why the relation is not proved."""
    severity, settled, usual = CERTAINTIES[certainty]
    reason = usual if reason is None else reason
    here = [o for o in operands if o.table is None or o.table is view.table]
    elsewhere = [o for o in operands if o not in here]
    here.sort(key=lambda o: o != subject)
    return Issue(
        message,
        table=view.table,
        cells=list(dict.fromkeys(o.pos for o in here)),
        elsewhere=[(o.table, o.pos) for o in elsewhere if o.table is not None],
        expected={"relation": relation, "interval": computed.describe(), "applies because": why},
        found={"printed": subject.number.text, "interval": subject.number.interval.describe()},
        tolerance="printed precision: every input stands for the interval of half a unit of its last digit",
        severity=severity,
        certainty=settled,
        reason=reason,
        details={
            "relation": relation,
            "inputs": [
                {"role": o.role, "printed": o.number.text, "cell": list(o.pos), "table": (o.table or view.table).label}
                for o in operands
            ],
            "computed": computed.describe(),
            "why": why,
            "relation_certainty": certainty,
        },
    )
