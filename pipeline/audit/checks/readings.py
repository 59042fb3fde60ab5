"""Read twice, disagree: a cell the PDF prints one way and the authors' source (LaTeX, HTML) another.

The source is the authors' own text, so a disagreement is either a misread PDF cell or a PDF built from
another version of the source; both mean the record must not be trusted until someone looks.
"""

from __future__ import annotations

from pipeline.audit.checks.base import Issue
from pipeline.audit.context import AuditInput


def check_readings(inp: AuditInput) -> list[Issue]:
    issues = []
    for table in inp.tables:
        for cell in table.cells:
            second = cell.second_reading
            if second is None or second.agrees:
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
