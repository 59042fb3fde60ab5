"""The labels a value cell sits under: its row path (group, stub) and its column path (header rows).

The extractor fills ``Cell.row_path`` / ``Cell.col_path``; when a table comes without them (older files,
hand-made tables) they are read off the grid: header cells above, stub cells to the left, and the last
group row (a row with a stub label and nothing else) above.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.model import Cell, Locator, Table


@dataclass(frozen=True)
class ValueCell:
    """A body cell holding a number, with the labels it sits under and its locator."""

    cell: Cell
    row_path: tuple[str, ...]
    col_path: tuple[str, ...]
    locator: Locator
    row_texts: tuple[str, ...] = ()  # words printed elsewhere in the row ("Top-1" in a "Metric" column)


def _text_at(table: Table, row: int, col: int) -> str:
    cell = table.cell_at(row, col)
    return cell.text.strip() if cell is not None else ""


def _column_path(table: Table, col: int) -> tuple[str, ...]:
    texts = [_text_at(table, r, col) for r in range(table.header_rows)]
    return tuple(t for i, t in enumerate(texts) if t and (i == 0 or t != texts[i - 1]))


def _is_group_row(table: Table, row: int) -> bool:
    """A label alone in the stub (or spanning the row) heads the rows below it."""
    first = table.cell_at(row, 0)
    if first is None or first.row != row or not first.text.strip():
        return False
    return not any(c.row == row and c.col >= max(table.stub_cols, 1) and c.text.strip() for c in table.cells)


def _row_paths(table: Table) -> dict[int, tuple[str, ...]]:
    paths: dict[int, tuple[str, ...]] = {}
    group: tuple[str, ...] = ()
    for row in range(table.header_rows, table.n_rows):
        stub = tuple(t for t in dict.fromkeys(_text_at(table, row, c) for c in range(table.stub_cols)) if t)
        if _is_group_row(table, row):
            group = stub
            continue
        paths[row] = group + stub
    return paths


def locator_for(table: Table, cell: Cell, source_sha256: str, row_label: str, col_label: str) -> Locator:
    """The extractor's locator when it set one, else one built from the table's position."""
    if cell.locator is not None:
        return cell.locator
    return Locator(source_sha256, table.page, table.label, table.index, cell.row, cell.col, row_label, col_label)


def value_cells(table: Table, source_sha256: str) -> list[ValueCell]:
    """Every numeric body cell, in reading order, with its row and column paths."""
    row_paths = _row_paths(table)
    words: dict[int, list[str]] = {}
    for cell in sorted(table.cells, key=lambda c: (c.row, c.col)):
        if cell.kind == "body" and cell.value is None and cell.text.strip():
            words.setdefault(cell.row, []).append(cell.text.strip())
    found = []
    for cell in sorted(table.cells, key=lambda c: (c.row, c.col)):
        if cell.kind != "body" or cell.value is None:
            continue
        row_path = tuple(cell.row_path) or row_paths.get(cell.row, ())
        col_path = tuple(cell.col_path) or _column_path(table, cell.col)
        locator = locator_for(table, cell, source_sha256, " / ".join(row_path), " ".join(col_path))
        found.append(ValueCell(cell, row_path, col_path, locator, tuple(words.get(cell.row, ()))))
    return found
