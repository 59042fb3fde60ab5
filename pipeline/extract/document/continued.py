"""Tables that run over a page break come out as one table: the rows of each later part are appended to the
first part (a repeated header dropped), and every cell keeps the page and box it was printed on."""

from __future__ import annotations

import dataclasses
import re

from pipeline.model import BBox, Cell, Table
from pipeline.numbers import is_numeric

_MARKER = re.compile(  # "Continued", "(continued)", "Cont'd.", "Continued from previous page"
    r"^\(?(?:continued|cont(?:'d|\.|d\.?)?)(?:\s+from\s+(?:the\s+)?previous\s+page)?[.:]?\)?$", re.IGNORECASE
)


def merge_continuations(tables: list[Table]) -> list[Table]:
    """The tables with each continuation merged into the table it continues: a part on the next page with the
    same label, or an unlabelled one with as many columns and either no header or the same header again."""
    merged: list[Table] = []
    last: Table | None = None  # the table the previous part belongs to
    last_page = 0
    for part in tables:
        if last is not None and _ends_under_caption(last, last_page, part):
            last.label, last.caption, last.caption_position = part.label, part.caption, "below"
            last.notes.append(f"its caption is printed below its last part, on page {part.page}")
        if last is not None and _continues(last, last_page, part):
            _append(last, part)
            last_page = part.page
            continue
        merged.append(part)
        last, last_page = part, part.page
    return merged


def _continues(first: Table, page: int, part: Table) -> bool:
    """A part on the next page with the first part's label; or one with none and as many columns that opens
    with a "Continued" line, with the first part's header again, or with no header."""
    if part.page != page + 1 or first.label is None or part.panel or first.panel:
        return False
    if part.label is not None or part.n_cols != first.n_cols:
        return part.label == first.label
    return bool(_marker_rows(part)) or part.header_rows == 0 or _header(part) == _header(first)


def _marker_rows(part: Table) -> int:
    """Rows at the head of a part that only say it goes on from the page before ("Continued", "(continued)"):
    a line of the page's typesetting, neither its header nor its body."""
    rows = part.grid()
    n = 0
    while n < min(2, len(rows)) and _MARKER.match(" ".join(t for t in rows[n] if t).strip()):
        n += 1
    return n


def _ends_under_caption(first: Table, page: int, part: Table) -> bool:
    """An uncaptioned table at the end of a page, run on to a part whose caption is printed below it (a
    manuscript sets the caption under the whole table): one table under that caption."""
    return (
        first.label is None
        and part.label is not None
        and part.caption_position == "below"
        and part.page == page + 1
        and part.n_cols == first.n_cols
        and not (part.panel or first.panel)
    )


def _header(table: Table) -> list[list[str | None]]:
    return table.grid()[: table.header_rows]


def _append(first: Table, part: Table) -> None:
    """Body rows of ``part`` under those of ``first``; columns printed without their header take the first
    part's column paths. A part whose "header" holds values and differs from the first part's header
    is a part with no header at all: its first rows are body rows."""
    marker = _marker_rows(part)
    skip = marker + _printed_header(first, part, marker)
    offset = first.n_rows - skip
    paths = {c.col: c.col_path for c in first.cells if c.col_path}
    shift = _column_shift(first, part)
    if shift:
        part.notes.append(f"its columns line up with the first part's from column {shift}")
    for cell in part.cells:
        if cell.row < skip:
            continue
        cell.col += shift
        if cell.kind == "header":
            cell.kind = "stub" if cell.col < first.stub_cols else "body"
        cell.row += offset
        if cell.kind == "stub" or (cell.kind == "body" and cell.col < first.stub_cols):
            cell.kind = "stub" if cell.col < first.stub_cols else "body"  # the first part's stub width holds
        if not cell.col_path and cell.col in paths:
            cell.col_path = list(paths[cell.col])
        if cell.locator is not None:
            cell.locator = dataclasses.replace(cell.locator, row=cell.row, page=part.page)
        first.cells.append(cell)
    if shift:
        first.notes.append(f"the part on page {part.page} starts at column {shift} (its first columns are empty)")
    first.n_rows += part.n_rows - skip
    first.n_cols = max(first.n_cols, part.n_cols)
    first.continued_pages.append(part.page)
    first.notes.append(f"continued on page {part.page}")
    if skip == marker and first.header_rows:
        first.headless_pages.append(part.page)
        first.notes.append(f"page {part.page} prints no header: its columns take the header of page {first.page}")


def _printed_header(first: Table, part: Table, marker: int) -> int:
    """How many rows under its ``marker`` rows a part prints as its header: the first part's header repeated
    (whether or not the part's grid read it as header), or its own header rows. A "header" that holds values
    and differs from the first part's header is no header at all: the part's first rows are body rows."""
    header = _header(first)
    if header and part.grid()[marker : marker + len(header)] == header:
        return len(header)
    own = max(part.header_rows - marker, 0)
    values = any(is_numeric(c.text) for c in part.cells if marker <= c.row < marker + own)
    return 0 if own and values else own


def _column_shift(first: Table, part: Table) -> int:
    """How many columns right a part with fewer columns than the first part sits (its leading columns empty
    on its page): where its columns' centres best meet the first part's, the pages sharing one layout."""
    if part.n_cols >= first.n_cols:
        return 0
    ours, theirs = _column_centres(first), _column_centres(part)
    if not ours or not theirs:
        return 0
    shifts = range(first.n_cols - part.n_cols + 1)
    cost = {k: sum(abs(x - ours[c + k]) for c, x in theirs.items() if c + k in ours) for k in shifts}
    return min(shifts, key=lambda k: (cost[k], k))


def _column_centres(table: Table) -> dict[int, float]:
    """Each single column's mean centre across the page, along the axis the columns run (x upright, y on a
    table read turned)."""
    boxes = [(c.row, c.col, c.bbox) for c in table.cells if c.bbox is not None and c.col_span == 1]
    if not boxes:
        return {}
    rows = [r for r, _, _ in boxes]
    widest = max(set(rows), key=rows.count)  # along one row the cells move the way the columns run
    xs = [(b[0] + b[2]) / 2 for r, _, b in boxes if r == widest]
    ys = [(b[1] + b[3]) / 2 for r, _, b in boxes if r == widest]
    axis = 0 if max(xs) - min(xs) >= max(ys) - min(ys) else 1
    sums: dict[int, list[float]] = {}
    for _, col, b in boxes:
        sums.setdefault(col, []).append((b[axis] + b[axis + 2]) / 2)
    return {col: sum(v) / len(v) for col, v in sums.items()}


def page_parts(table: Table) -> list[Table]:
    """A continued table as the portions printed on each page, the header repeated on each page that prints it
    (as gold files record them); a table on one page as it is."""
    if not table.continued_pages:
        return [table]
    header = [c for c in table.cells if c.row < table.header_rows]
    parts = []
    for page in [table.page, *table.continued_pages]:
        body = [c for c in table.cells if c.row >= table.header_rows and _page(c, table) == page]
        rows = sorted({c.row for c in body})
        if not rows:
            continue
        top = [] if page in table.headless_pages else header
        header_rows = table.header_rows if top else 0
        renumbered = {r: header_rows + i for i, r in enumerate(rows)}
        cells = [*top, *(dataclasses.replace(c, row=renumbered[c.row]) for c in body)]
        bbox = table.bbox if page == table.page else _bounds([c.bbox for c in body if c.bbox]) or table.bbox
        parts.append(
            dataclasses.replace(
                table,
                page=page,
                bbox=bbox,
                n_rows=header_rows + len(rows),
                header_rows=header_rows,
                cells=cells,
                continued_pages=[],
                headless_pages=[],
            )
        )
    return parts


def _page(cell: Cell, table: Table) -> int:
    return cell.locator.page if cell.locator is not None else table.page


def _bounds(boxes: list[BBox]) -> BBox | None:
    """The box around a page part's own cells (its printed extent on that page)."""
    if not boxes:
        return None
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
