"""Tables that run over a page break: the parts are kept per page (each cell keeps its page and box) and
linked: the first part lists the pages it continues on, a later part takes its label and headers."""

from __future__ import annotations

from itertools import pairwise

from pipeline.model import Table


def link_continuations(tables: list[Table]) -> None:
    """Link each part that continues the table ending on the previous page: one with the same label, or an
    unlabelled one with as many columns and either no header or the same header printed again."""
    for prev, part in pairwise(tables):
        if part.page != prev.page + 1 or prev.label is None:
            continue
        same_label = part.label == prev.label
        repeated = part.header_rows == 0 or _header(part) == _header(prev)
        if not (same_label or (part.label is None and part.n_cols == prev.n_cols and repeated)):
            continue
        first = next(t for t in tables if t.label == prev.label)
        first.continued_pages.append(part.page)
        part.label = prev.label
        part.notes.append(f"continues {prev.label} from page {prev.page}")
        if part.header_rows == 0:
            _inherit_paths(part, prev)


def _header(table: Table) -> list[list[str | None]]:
    return table.grid()[: table.header_rows]


def _inherit_paths(part: Table, prev: Table) -> None:
    """A part printed without its header names its columns with the first part's headers."""
    paths = {c.col: c.col_path for c in prev.cells if c.col_path}
    for cell in part.cells:
        if not cell.col_path and cell.col in paths:
            cell.col_path = list(paths[cell.col])
