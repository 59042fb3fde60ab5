"""identifier-truncated: an accession a table prints ("GEO: GSE7424") that the text gives with more digits
("data were obtained from GSE74246") and never as printed: the table's identifier lost its last digits.

An accession is a run of two to six capitals and four or more digits (GSE, SRP, PRJNA, ENSG, PDB-style ids are
not: they mix letters and digits). A prefix is no slip when the table's identifier itself appears in the text,
or when the longer one appears in a table too (two data sets). Read from the identifiers alone: a warning.
"""

from __future__ import annotations

import re

from pipeline.audit.checks.base import Issue
from pipeline.audit.context import AuditInput
from pipeline.audit.tableview import Pos, TableView

_ACCESSION = re.compile(r"(?<![\w.])(?P<prefix>[A-Z]{2,6})(?P<digits>\d{4,})(?![\w])")


def check_identifiers(inp: AuditInput) -> list[Issue]:
    if inp.text is None:
        return []
    in_text: dict[str, int] = {}  # identifier -> page of a sentence printing it
    for sentence in inp.text.sentences:
        for match in _ACCESSION.finditer(sentence.text):
            in_text.setdefault(match.group(0), sentence.page)
    in_tables = {m.group(0) for view in inp.views for _, text in _cells(view) for m in _ACCESSION.finditer(text)}
    issues: list[Issue] = []
    for view in inp.views:
        for pos, text in _cells(view):
            for match in _ACCESSION.finditer(text):
                printed = match.group(0)
                if printed in in_text:
                    continue
                longer = sorted(
                    ident for ident in in_text if ident.startswith(printed) and ident[len(printed) :].isdigit()
                )
                longer = [ident for ident in longer if ident not in in_tables]
                if len(longer) == 1:
                    issues.append(_issue(view, pos, printed, longer[0], in_text[longer[0]]))
    return issues


def _cells(view: TableView) -> list[tuple[Pos, str]]:
    return [((cell.row, cell.col), cell.reading) for cell in view.table.cells if cell.row >= view.table.header_rows]


def _issue(view: TableView, pos: Pos, printed: str, longer: str, page: int) -> Issue:
    label = view.table.label or f"the table on p. {view.table.page}"
    return Issue(
        f"{label} prints the accession {printed}, which the text never gives, while the text (p. {page}) gives "
        f"{longer}, the same identifier with more digits: the table's accession looks truncated",
        table=view.table,
        cells=[pos],
        expected={"identifier": longer, "applies because": "the text names the longer accession and never this one"},
        found={"printed": printed},
        certainty="likely",
        reason="that the two identifiers name the same data is read from their digits, not stated",
    )
