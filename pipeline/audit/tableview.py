"""A table seen the way the checks need it: printed numbers, row and column labels, groups, bold cells."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise

from pipeline.model import Locator, Table
from pipeline.numbers import PrintedNumber, parse_number, says_counts

Pos = tuple[int, int]


@dataclass
class TableView:
    table: Table
    numbers: dict[Pos, PrintedNumber] = field(default_factory=dict)
    body_rows: list[int] = field(default_factory=list)  # rows below the header that print at least one number
    value_cols: list[int] = field(default_factory=list)  # columns right of the stub that print at least one number
    row_labels: dict[int, str] = field(default_factory=dict)
    col_paths: dict[int, list[str]] = field(default_factory=dict)
    col_groups: dict[int, Pos | None] = field(default_factory=dict)  # the spanning header cell above a column
    row_groups: dict[int, int] = field(default_factory=dict)  # row -> first row of its group
    blocks: dict[int, int] = field(default_factory=dict)  # body row -> first row of its block (see row_blocks)
    bold: set[Pos] = field(default_factory=set)

    def col_label(self, col: int) -> str:
        return " ".join(self.col_paths.get(col, []))

    def leaf(self, col: int) -> str:
        path = self.col_paths.get(col, [])
        return path[-1] if path else ""

    def row_numbers(self, row: int) -> dict[int, PrintedNumber]:
        return {c: n for (r, c), n in self.numbers.items() if r == row}

    def text(self, row: int, col: int) -> str:
        cell = self.table.cell_at(row, col)
        return cell.reading if cell is not None else ""

    def locator(self, row: int, col: int, source_sha256: str) -> Locator:
        cell = self.table.cell_at(row, col)
        if cell is not None and cell.locator is not None:
            return cell.locator
        return Locator(
            source_sha256=source_sha256,
            page=self.table.page,
            table_label=self.table.label,
            table_index=self.table.index,
            row=row,
            col=col,
            row_label=self.row_labels.get(row, "") if col >= self.table.stub_cols else "",
            col_label=self.col_label(col) if row >= self.table.header_rows else "",
        )


def view_table(table: Table) -> TableView:
    """Parse every body cell once; label rows and columns from the stub and the header."""
    view = TableView(table)
    for cell in table.cells:
        if cell.row >= table.header_rows and cell.col >= table.stub_cols and cell.text.strip():
            number = parse_number(cell.reading)
            if number is not None:
                view.numbers[(cell.row, cell.col)] = number
        if cell.bold and cell.text.strip():
            view.bold.add((cell.row, cell.col))
    view.body_rows = sorted({r for r, _ in view.numbers})
    view.value_cols = sorted({c for _, c in view.numbers})
    for col in range(table.n_cols):
        view.col_paths[col] = _header_path(table, col)
        view.col_groups[col] = _group_cell(table, col)
    view.row_groups = _row_groups(table, view)
    view.blocks = row_blocks(view)
    for row in range(table.header_rows, table.n_rows):
        view.row_labels[row] = _row_label(table, row)
        start = view.row_groups.get(row, row)
        if start != row and _is_label_row(table, start) and not _has_row_path(table, row):
            view.row_labels[row] = f"{_row_label(table, start)} / {view.row_labels[row]}".strip(" /")
    _read_counts(view)
    return view


def _read_counts(view: TableView) -> None:
    """ "15 (36)" under a label that says "n (%)" is a count and its share, not a value and its spread."""
    for (row, col), number in list(view.numbers.items()):
        labelled = says_counts(view.col_label(col)) or says_counts(view.row_labels.get(row, ""))
        if labelled and number.spread == "()" and not number.decimals and number.value >= 0:
            view.numbers[(row, col)] = parse_number(view.text(row, col), counts=True) or number


def _is_label_row(table: Table, row: int) -> bool:
    """A row group's label: text in the stub (or one cell across the table) and nothing in the value columns."""
    first = table.cell_at(row, 0)
    if first is None or not first.text.strip():
        return False
    if first.col_span > 1 and first.col_span >= table.n_cols - 1:  # a stub of one column spans nothing
        return True
    return all(
        (cell := table.cell_at(row, col)) is None or not cell.text.strip() or cell is first
        for col in range(table.stub_cols, table.n_cols)
    )


def _has_row_path(table: Table, row: int) -> bool:
    cell = table.cell_at(row, table.stub_cols) if table.stub_cols < table.n_cols else None
    return cell is not None and len(cell.row_path) > 1


def _header_path(table: Table, col: int) -> list[str]:
    path: list[str] = []
    for row in range(table.header_rows):
        cell = table.cell_at(row, col)
        text = cell.text.strip() if cell is not None else ""
        if text and (not path or path[-1] != text):
            path.append(text)
    return path


def _group_cell(table: Table, col: int) -> Pos | None:
    """The header cell spanning several columns above ``col`` (the column's group), if any."""
    for row in range(max(table.header_rows - 1, 0)):
        cell = table.cell_at(row, col)
        if cell is not None and cell.col_span > 1 and cell.text.strip():
            return (cell.row, cell.col)
    return None


def _row_label(table: Table, row: int) -> str:
    cell = table.cell_at(row, table.stub_cols) if table.stub_cols < table.n_cols else None
    if cell is not None and cell.row_path:
        return " / ".join(cell.row_path)
    parts = []
    for col in range(table.stub_cols):
        stub = table.cell_at(row, col)
        if stub is not None and stub.text.strip() and stub.text.strip() not in parts:
            parts.append(stub.text.strip())
    return " / ".join(parts)


def _row_groups(table: Table, view: TableView) -> dict[int, int]:
    """Rows grouped by label rows (a stub alone on its row) and by stub cells spanning several rows."""
    groups: dict[int, int] = {}
    start = table.header_rows
    for row in range(table.header_rows, table.n_rows):
        if row not in view.body_rows:
            start = row if _is_label_row(table, row) else start
            continue
        spanning = next(
            (
                table.cell_at(row, c)
                for c in range(table.stub_cols)
                if (cell := table.cell_at(row, c)) is not None and cell.row_span > 1
            ),
            None,
        )
        groups[row] = spanning.row if spanning is not None and table.stub_cols > 1 else start
    return groups


_RULE_GAP = 1.5  # a gap this many times the usual one between two rows is a rule (or a blank line)
_RULE_GAP_MIN = 1.0  # ... and at least this many points wider


def row_blocks(view: TableView) -> dict[int, int]:
    """Body row -> first row of its block: rows set apart by a row printing no value (a blank line, a label
    row), another row group, or a gap wider than the usual one between rows (a horizontal rule)."""
    blocks: dict[int, int] = {}
    wide = _wide_gaps(view)
    start = previous = -1
    for row in view.body_rows:
        gap = previous < 0 or any(_prints_nothing(view, r) for r in range(previous + 1, row)) or row in wide
        if gap or view.row_groups.get(row) != view.row_groups.get(previous):
            start = row
        blocks[row], previous = start, row
    return blocks


def _prints_nothing(view: TableView, row: int) -> bool:
    return all(not view.text(row, c).strip() for c in range(view.table.stub_cols, view.table.n_cols))


def _wide_gaps(view: TableView) -> set[int]:
    """Body rows whose gap to the row above is much wider than the usual gap (from the cells' boxes)."""
    spans: dict[int, tuple[float, float]] = {}
    for cell in view.table.cells:
        if cell.bbox is not None and cell.row_span == 1 and cell.row in view.body_rows:
            top, bottom = spans.get(cell.row, (cell.bbox[1], cell.bbox[3]))
            spans[cell.row] = (min(top, cell.bbox[1]), max(bottom, cell.bbox[3]))
    rows = sorted(spans)
    gaps = {b: spans[b][0] - spans[a][1] for a, b in pairwise(rows)}
    if len(gaps) < 2:
        return set()
    usual = sorted(gaps.values())[len(gaps) // 4]
    return {row for row, gap in gaps.items() if gap >= _RULE_GAP * max(usual, 0.5) and gap - usual >= _RULE_GAP_MIN}
