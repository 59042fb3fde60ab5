"""What a check is (an id, a severity, a function) and what it returns (issues pointing at cells).

Evidence discipline, the rule every check follows and :func:`settle` enforces on every issue:

- Each issue states its ``certainty``:
  ``proved``   the problem follows by arithmetic on printed-precision intervals from cells the extractor read
               with high confidence, with nothing guessed about what the cells mean: it may be an error;
  ``likely``   it rests on a reading the check cannot prove (which metric a column holds, what bold compares,
               what a caption means): a warning at most;
  ``unsure``   the cells themselves may be misread: ``needs-check`` (shown to a reviewer, never an error);
  ``declined`` the check could not judge (a part unread, no direction): info, and ``reason`` says why.
- ``reason`` says, in one line, why an issue is less than proved (empty for a proof).
- The table's extraction confidence travels with every finding. Below ``needs_check_below`` (AuditSettings) any error or
  warning becomes ``needs-check``; below ``proof_confidence`` an error becomes a warning. The reason says so.
- A check states its usual doubt (``Check.doubt``), the reason its findings carry when the issue gives none.
A new check family needs nothing more than to set ``certainty`` and ``reason`` on the issues it returns (and a
``doubt`` on its Check).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from pipeline.audit.context import AuditInput
from pipeline.audit.settings import AuditSettings
from pipeline.audit.tableview import Pos
from pipeline.model import Table

EXTRAS = {"scipy": "stats"}  # a check's module needs -> the pip extra that installs it


def installed(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def scipy_stats() -> ModuleType:
    """scipy.stats, imported when a check that needs it runs (the ``stats`` extra; without it the check is
    skipped and the report says what to install)."""
    return importlib.import_module("scipy.stats")


SEVERITIES = ("error", "warning", "needs-check", "info")
CERTAINTIES = ("proved", "likely", "unsure", "declined")
PROBLEMS = ("error", "warning")  # the severities that ask a reviewer to act; needs-check asks them to look
_DEFAULT_CERTAINTY = {"error": "proved", "warning": "likely", "needs-check": "unsure", "info": "likely"}

# Which records a finding concerns: the cells it points at, their whole rows or columns, the whole table
# or every record of the paper.
SCOPES = ("cells", "rows", "columns", "table", "paper")


@dataclass
class Issue:
    """One problem a check found, before it gets an id and locators."""

    message: str
    table: Table | None = None
    cells: list[Pos] = field(default_factory=list)  # evidence, first the cell the problem is about
    scope: str = "cells"
    subjects: list[Pos] | None = None  # cells whose records carry the finding (default: the first cell)
    elsewhere: list[tuple[Table, Pos]] = field(default_factory=list)  # evidence in other tables
    expected: Any = None
    found: Any = None
    tolerance: Any = None
    severity: str | None = None  # overrides the check's default (e.g. "info" for a consistent aggregate)
    details: dict[str, Any] = field(default_factory=dict)
    certainty: str | None = None  # see the module docstring; None: what the severity implies
    reason: str = ""  # why the issue is less than proved, or why the check declined


DEFAULT_BAR = AuditSettings()


@dataclass(frozen=True)
class Settled:
    severity: str
    certainty: str
    reason: str


def settle(
    severity: str, certainty: str | None, reason: str, confidence: float | None, bar: AuditSettings = DEFAULT_BAR
) -> Settled:
    """The severity an issue may carry given its certainty and the extraction confidence of its table."""
    certainty = certainty or _DEFAULT_CERTAINTY.get(severity, "likely")
    reasons = [reason] if reason else []
    if certainty == "declined":
        return Settled("info", certainty, reason)
    if certainty == "unsure" and severity in PROBLEMS:
        severity = "needs-check"
    if confidence is not None and severity in PROBLEMS and confidence < bar.needs_check_below:
        reasons.append(f"the extractor's confidence in this table is {confidence:.2f} (< {bar.needs_check_below:g}): "
                       "its cells may be misread, so check the page first")  # fmt: skip
        severity, certainty = "needs-check", "unsure"
    if severity == "error" and certainty != "proved":
        severity = "warning"
    if severity == "error" and confidence is not None and confidence < bar.proof_confidence:
        reasons.append(f"the extractor's confidence in this table is {confidence:.2f} (< {bar.proof_confidence:g} "
                       "needed for an error)")  # fmt: skip
        severity, certainty = "warning", "likely"
    return Settled(severity, certainty, "; ".join(reasons))


@dataclass(frozen=True)
class Check:
    id: str
    severity: str
    summary: str
    run: Callable[[AuditInput], list[Issue]]
    needs: tuple[str, ...] = ()  # inputs without which the check is skipped: "text", "catalogue", "records"
    doubt: str = ""  # why a finding of this check is likely rather than proved, when the issue does not say

    def reason_for(self, issue: Issue, severity: str) -> str:
        """The issue's own reason, else the check's doubt for a finding that is not a proof."""
        certainty = issue.certainty or _DEFAULT_CERTAINTY.get(severity, "likely")
        return issue.reason or (self.doubt if certainty not in ("proved",) else "")

    def missing(self, inp: AuditInput) -> list[str]:
        return [need for need in self.needs if not (installed(need) if need in EXTRAS else inp.has(need))]
