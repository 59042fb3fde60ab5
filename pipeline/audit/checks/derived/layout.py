"""Where a family of named quantities sits in a table: as row labels (one line per value column) or as column
labels (one line per body row), grouped into blocks where a role repeats or a label row intervenes."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pipeline.audit.checks.derived.evidence import Operand, leading_number
from pipeline.audit.tableview import TableView

_PARENTHETICAL = re.compile(r"\s*[(\[][^)\]]*[)\]]")


@dataclass
class Line:
    """The named quantities of one model (or one row) in one block: role -> printed operand."""

    operands: dict[str, Operand] = field(default_factory=dict)
    where: str = ""  # "column 'Maas model', rows 5-11", for messages


def leaf_label(label: str) -> str:
    """The quantity a label names, without its group path and parentheticals ("Accuracy (95% CI)" -> "accuracy")."""
    leaf = label.split(" / ")[-1]
    return re.sub(r"\s+", " ", _PARENTHETICAL.sub("", leaf)).strip().lower()


def named_lines(view: TableView, roles: dict[str, re.Pattern[str]]) -> list[Line]:
    """Lines of quantities named by ``roles`` (role -> pattern on the whole leaf label), in rows or in columns."""
    return _row_named(view, roles) + _col_named(view, roles)


def role_of(label: str, roles: dict[str, re.Pattern[str]]) -> str | None:
    leaf = leaf_label(label)
    hits = [role for role, pattern in roles.items() if pattern.fullmatch(leaf)]
    return hits[0] if len(hits) == 1 else None


_SECTION_TAIL = re.compile(r"^(?P<head>.+?)\s+(?P<tail>[A-Z][a-z]+(?:\s+[a-z]+)+)$")


def row_role(view: TableView, row: int, roles: dict[str, re.Pattern[str]]) -> tuple[str | None, bool]:
    """The role a row's label names, and whether the label of the next section was read into it ("NPV Former
    smokers": the NPV row, then the "Former smokers" section). The label is the stub's, or the words of a
    column left of the values that the extractor did not take as the stub."""
    first = min(view.value_cols, default=view.table.stub_cols)
    labels = [view.row_labels.get(row, "")] + [view.text(row, c) for c in range(view.table.stub_cols, first)]
    for label in labels:
        role = role_of(label, roles)
        if role is not None:
            return role, False
        glued = _SECTION_TAIL.match(label.split(" / ")[-1].strip())
        if glued and (role := role_of(glued.group("head"), roles)) is not None:
            return role, True
    return None, False


def _row_named(view: TableView, roles: dict[str, re.Pattern[str]]) -> list[Line]:
    blocks: list[dict[str, int]] = [{}]
    for row in range(view.table.header_rows, view.table.n_rows):
        if not _prints_numbers(view, row):
            blocks.append({})  # a label row ("Never smokers") starts another block
            continue
        role, section_follows = row_role(view, row, roles)
        if role is None:
            continue
        if role in blocks[-1]:
            blocks.append({})
        blocks[-1][role] = row
        if section_follows:
            blocks.append({})
    lines = []
    for block in (b for b in blocks if len(b) >= 2):
        rows = sorted(block.values())
        for col in range(view.table.stub_cols, view.table.n_cols):
            line = Line(where=f"column '{view.col_label(col)}', rows '{view.row_labels.get(rows[0], '')}' to "
                        f"'{view.row_labels.get(rows[-1], '')}'")  # fmt: skip
            for role, row in block.items():
                number = leading_number(view.text(row, col))
                if number is not None:
                    line.operands[role] = Operand(role, (row, col), number)
            lines.append(line)
    return lines


def _prints_numbers(view: TableView, row: int) -> bool:
    """The row starts a value cell with a number ("0.721 (0.693-0.747)" counts, unlike in ``view.body_rows``)."""
    cols = range(view.table.stub_cols, view.table.n_cols)
    return any(leading_number(view.text(row, c)) is not None for c in cols)


def _col_named(view: TableView, roles: dict[str, re.Pattern[str]]) -> list[Line]:
    blocks: list[dict[str, int]] = [{}]
    for col in view.value_cols:
        role = role_of(view.col_label(col), roles) or role_of(view.leaf(col), roles)
        if role is None:
            continue
        if role in blocks[-1]:
            blocks.append({})
        blocks[-1][role] = col
    lines = []
    for block in (b for b in blocks if len(b) >= 2):
        for row in view.body_rows:
            line = Line(where=f"row '{view.row_labels.get(row, '')}'")
            for role, col in block.items():
                number = leading_number(view.text(row, col))
                if number is not None:
                    line.operands[role] = Operand(role, (row, col), number)
            lines.append(line)
    return lines
