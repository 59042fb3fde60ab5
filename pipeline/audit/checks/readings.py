"""Read twice, disagree: a cell the PDF prints one way and the authors' source (LaTeX, HTML) another.

The source is the authors' own text, so a disagreement is either a misread PDF cell or a PDF built from
another version of the source; both mean the record must not be trusted until someone looks. Only cells where
either reading prints a number are reported: words that differ (a bullet glyph read as "�" on one side and
"SM590000" on the other, on a real page) say nothing about the results.
"""

from __future__ import annotations

from pipeline.audit.checks.base import Issue
from pipeline.audit.context import AuditInput
from pipeline.numbers import parse_number


def check_readings(inp: AuditInput) -> list[Issue]:
    issues = []
    for table in inp.tables:
        for cell in table.cells:
            second = cell.second_reading
            if second is None or second.agrees or (cell.value is None and parse_number(second.text) is None):
                continue
            issues.append(
                Issue(
                    message=f"read twice, disagree: the PDF prints '{cell.text}' where {second.place} has "
                    f"'{second.text}'",
                    table=table,
                    cells=[(cell.row, cell.col)],
                    expected=second.text,
                    found=cell.text,
                    details={"second_reading": second.place},
                )
            )
    return issues
