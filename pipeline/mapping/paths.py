"""The labels a value cell sits under: its row path (group, stub) and its column path (header rows).

The extractor fills ``Cell.row_path`` / ``Cell.col_path``; when a table comes without them (older files,
hand-made tables) they are read off the grid: header cells above, stub cells to the left, and the last
group row (a row with a stub label and nothing else) above. Columns of words between the stub and the
numbers ("dataset 0" beside a multirow task name) label their rows, and rows of words above the numbers
(datasets under a spanning task name) their columns, whatever stub width and header count the table has; a
blank stub cell left of a label continues the label above it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

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


def _is_label(text: str) -> bool:
    return any(ch.isalpha() for ch in text)


def label_columns(table: Table) -> list[int]:
    """Body columns left of every number that print only words: they label their rows like the stub does."""
    body = [c for c in table.cells if c.kind == "body"]
    first_value = min((c.col for c in body if c.value is not None), default=0)
    found = []
    for col in range(first_value):
        texts = [c.text for c in body if c.col == col and c.text.strip()]
        if texts and all(_is_label(t) for t in texts):
            found.append(col)
    return found


def label_rows(table: Table) -> list[int]:
    """Body rows above every number that print only words, over most value columns: a header row the table's
    header count left out (the datasets under a spanning task name)."""
    body = [c for c in table.cells if c.kind == "body"]
    value_cols = {c.col for c in body if c.value is not None}
    first_value = min((c.row for c in body if c.value is not None), default=0)
    found = []
    for row in range(first_value):
        texts = [c for c in body if c.row == row and c.text.strip()]
        over = {c.col for c in texts} & value_cols
        if all(_is_label(c.text) for c in texts) and len(over) >= 2 and 2 * len(over) >= len(value_cols):
            found.append(row)
    return found


def carried_labels(table: Table, label_cols: list[int]) -> dict[int, list[str]]:
    """Row -> labels carried down from the rows above: a blank stub cell left of a label continues the label
    above it ("Bulk RNA expression" over its "MSE" and "Spearman" rows), as a multirow cell would."""
    columns = [*range(table.stub_cols), *label_cols]
    carried: dict[int, list[str]] = {}
    last: dict[int, str] = {}
    for row in range(table.header_rows, table.n_rows):
        if _is_group_row(table, row):
            last = {}
            continue
        texts = [_text_at(table, row, col) for col in columns]
        deepest = max((i for i, text in enumerate(texts) if text), default=-1)
        for i, text in enumerate(texts[:deepest]):
            if text:
                last = {k: v for k, v in last.items() if k < i} | {i: text}
            elif i in last:
                carried.setdefault(row, []).append(last[i])
        if deepest >= 0:
            last = {k: v for k, v in last.items() if k < deepest} | {deepest: texts[deepest]}
    return carried


def _with_labels(path: tuple[str, ...], labels: list[str]) -> tuple[str, ...]:
    return path + tuple(t for t in labels if t and t not in path)


def locator_for(table: Table, cell: Cell, source_sha256: str, row_label: str, col_label: str) -> Locator:
    """The extractor's locator when it set one, else one built from the table's position."""
    if cell.locator is not None:
        return cell.locator
    return Locator(source_sha256, table.page, table.label, table.index, cell.row, cell.col, row_label, col_label)


def value_cells(table: Table, source_sha256: str) -> list[ValueCell]:
    """Every numeric body cell, in reading order, with its row and column paths."""
    row_paths = _row_paths(table)
    extra_cols, extra_rows = label_columns(table), label_rows(table)
    carried = carried_labels(table, extra_cols)
    words: dict[int, list[str]] = {}
    for cell in sorted(table.cells, key=lambda c: (c.row, c.col)):
        if cell.kind == "body" and cell.value is None and cell.text.strip() and cell.col not in extra_cols:
            words.setdefault(cell.row, []).append(cell.text.strip())
    found = []
    for cell in sorted(table.cells, key=lambda c: (c.row, c.col)):
        if cell.kind != "body" or cell.value is None:
            continue
        row_base = tuple(cell.row_path) or row_paths.get(cell.row, ())
        col_base = tuple(cell.col_path) or _column_path(table, cell.col)
        row_path = _with_labels(row_base, [_text_at(table, cell.row, col) for col in extra_cols])
        row_path = tuple(t for t in carried.get(cell.row, ()) if t not in row_path) + row_path
        col_path = _with_labels(col_base, [_text_at(table, row, cell.col) for row in extra_rows])
        locator = locator_for(table, cell, source_sha256, " / ".join(row_path), " ".join(col_path))
        if cell.locator is not None and (row_path, col_path) != (row_base, col_base):
            locator = replace(locator, row_label=" / ".join(row_path), col_label=" ".join(col_path))
        found.append(ValueCell(cell, row_path, col_path, locator, tuple(words.get(cell.row, ()))))
    return found
