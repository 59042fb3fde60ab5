"""A table read from a text source (cells with exact spans and styles) turned into the model's Table, so that
map, emit and audit treat it as they treat a table found on a PDF page."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from pipeline.extract.grid.headers import row_paths
from pipeline.extract.regions.captions import caption_label
from pipeline.model import Cell, Locator, Table, panel_mark
from pipeline.numbers import is_numeric

SOURCE_CONFIDENCE = 1.0  # the authors' own structure: rows, columns and spans are read, not inferred


@dataclass
class TextCell:
    """One cell as a source writes it, at its top-left grid position."""

    row: int
    col: int
    text: str
    row_span: int = 1
    col_span: int = 1
    bold: bool = False
    italic: bool = False
    underline: bool = False
    header: bool = False  # the source marks it a header (<th>, a GFM header row)
    place: str = ""  # where it is written: "source.md:7:3"


@dataclass
class TextTable:
    """One table of a text source, before it becomes a model Table."""

    cells: list[TextCell]
    caption: str
    place: str  # where the table starts
    label: str | None = None  # None: read from the caption ("Table 3: ..." -> "Table 3")
    header_rows: int | None = None  # None: the leading rows of header cells, else one
    panel: str | None = None
    notes: list[str] = field(default_factory=list)
    context: str = ""  # the text of its section before the caption (a README's heading and paragraphs)


@dataclass
class Reading:
    """What a reader got from one artifact: its tables and its prose (for the text checks)."""

    tables: list[TextTable] = field(default_factory=list)
    prose: list[str] = field(default_factory=list)  # paragraphs of running text, in order


def _header_rows(found: TextTable, n_rows: int) -> int:
    """As the source says (a rule under the header), else its leading rows of header cells, else one."""
    if found.header_rows is not None:
        return min(found.header_rows, n_rows)
    rows = 0
    while rows < n_rows and {c.header for c in found.cells if c.row == rows} == {True}:
        rows += 1
    return rows or (1 if n_rows > 1 else 0)


def _counts_rows(texts: list[str]) -> bool:
    """Whether a column prints 1, 2, 3, ... down its rows: a rank or row number, a label and never a value."""
    return len(texts) > 1 and texts == [str(k) for k in range(1, len(texts) + 1)]


def _stub_cols(filled: list[list[str]], header_rows: int, n_cols: int) -> int:
    """Leading columns whose body cells are mostly words, or that number the rows: the row labels."""
    n = 0
    while n < n_cols - 1:
        texts = [row[n] for row in filled[header_rows:] if row[n]]
        words = sum(not is_numeric(t) for t in texts) * 2 >= len(texts)
        if not texts or not (words or _counts_rows([t.strip() for t in texts])):
            break
        n += 1
    return n


def _without_ranks(filled: list[list[str]], header_rows: int, stub_cols: int) -> list[list[str]]:
    """The grid with the rank column's numbers left out: "1", "2", ... name no row (the model beside them does)."""
    ranks = {c for c in range(stub_cols) if _counts_rows([row[c].strip() for row in filled[header_rows:] if row[c]])}
    return [[t if r < header_rows or c not in ranks else "" for c, t in enumerate(row)] for r, row in enumerate(filled)]


def _filled(cells: list[TextCell], n_rows: int, n_cols: int) -> list[list[str]]:
    grid = [[""] * n_cols for _ in range(n_rows)]
    for cell in cells:
        for r in range(cell.row, min(cell.row + cell.row_span, n_rows)):
            for c in range(cell.col, min(cell.col + cell.col_span, n_cols)):
                grid[r][c] = cell.text
    return grid


def _column_paths(cells: list[TextCell], header_rows: int, n_cols: int) -> list[list[str]]:
    paths: list[list[str]] = [[] for _ in range(n_cols)]
    for cell in sorted((c for c in cells if c.row < header_rows), key=lambda c: (c.row, c.col)):
        for c in range(cell.col, min(cell.col + cell.col_span, n_cols)):
            if cell.text and (not paths[c] or paths[c][-1] != cell.text):
                paths[c].append(cell.text)
    return paths


def _group_rows(cells: list[TextCell], header_rows: int, n_cols: int) -> set[int]:
    """Body rows that hold only a label in their first column: they name the group of rows below."""
    filled: dict[int, list[TextCell]] = {}
    for cell in cells:
        if cell.text.strip():
            filled.setdefault(cell.row, []).append(cell)
    return {
        r
        for r, row in filled.items()
        if r >= header_rows and n_cols > 2 and len(row) == 1 and row[0].col == 0 and not is_numeric(row[0].text)
    }


def to_table(found: TextTable, index: int, source_sha: str, artifact: str, engine: str) -> Table:
    """The model Table of a text-source table; cells point at the artifact and their place in it."""
    written = [replace(c, text=c.text.replace("\u2212", "-")) for c in found.cells]  # a minus as the PDF reads it
    n_rows = max((c.row + c.row_span for c in written), default=0)
    n_cols = max((c.col + c.col_span for c in written), default=0)
    label = found.label or caption_label(found.caption)
    headers = _header_rows(found, n_rows)
    filled = _filled(written, n_rows, n_cols)
    stubs = _stub_cols(filled, headers, n_cols)
    cpaths = _column_paths(written, headers, n_cols)
    group_rows = _group_rows(written, headers, n_cols)
    rpaths = row_paths(_without_ranks(filled, headers, stubs), headers, stubs, group_rows)
    cells = []
    for tc in sorted(written, key=lambda c: (c.row, c.col)):
        header = tc.row < headers
        row_path = [] if header else rpaths[tc.row]
        col_path = [] if header else cpaths[tc.col]
        locator = Locator.of_cell(
            source_sha,
            label,
            index,
            tc.row,
            tc.col,
            row_path,
            col_path,
            panel=panel_mark(found.panel),
            artifact=artifact,
            place=tc.place,
        )
        cells.append(
            Cell.printed(
                tc.row,
                tc.col,
                tc.text,
                kind="header" if header else ("stub" if tc.col < stubs else "body"),
                row_span=tc.row_span,
                col_span=tc.col_span,
                bold=tc.bold,
                italic=tc.italic,
                underline=tc.underline,
                row_path=row_path,
                col_path=col_path,
                locator=locator,
            )
        )
    return Table(
        index=index,
        page=0,
        label=label,
        caption=found.caption,
        bbox=(0.0, 0.0, 0.0, 0.0),
        n_rows=n_rows,
        n_cols=n_cols,
        header_rows=headers,
        stub_cols=stubs,
        cells=cells,
        engine=engine,
        confidence=SOURCE_CONFIDENCE,
        notes=list(found.notes),
        panel=found.panel,
        context=found.context,
        artifact=artifact,
        place=found.place,
    )
