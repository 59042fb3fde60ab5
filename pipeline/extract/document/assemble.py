"""A placed grid turned into the model's Table: cell text, values, style, paths and locators."""

from __future__ import annotations

from pipeline.extract.confidence.score import confidence
from pipeline.extract.grid.headers import column_paths, row_paths
from pipeline.extract.grid.structure import Grid
from pipeline.extract.grid.style import is_bold, is_italic, is_underlined
from pipeline.extract.page.words import join_words, raised_tail
from pipeline.extract.reading.graphics import Rule
from pipeline.extract.regions.grow import Region
from pipeline.model import Cell, Locator, Table, panel_mark
from pipeline.numbers import is_numeric, mark_raised_tail, parse_number


def stub_columns(grid: Grid) -> int:
    """Leading columns of row labels: the first when its body cells are mostly words, and each next one
    that is mostly words and set flush left like a label (data columns are centred or right-aligned)."""
    texts = grid.text_grid()[grid.header_rows :]
    n = 0
    while n < grid.n_cols - 1 and _mostly_words([row[n] for row in texts]) and (n == 0 or _flush_left(grid, n)):
        n += 1
    return n


def _flush_left(grid: Grid, col: int) -> bool:
    cells = [p for p in grid.placed if p.col == col and p.col_span == 1 and p.row >= grid.header_rows]
    if len(cells) < 2:
        return False
    lefts = [min(w.x0 for w in p.words) for p in cells]
    rights = [max(w.x1 for w in p.words) for p in cells]
    return max(lefts) - min(lefts) <= 1.5 < max(rights) - min(rights) - 2


def _mostly_words(texts: list[str]) -> bool:
    filled = [t for t in texts if t]
    return bool(filled) and sum(_names_a_row(t) for t in filled) * 2 >= len(filled)


def _names_a_row(text: str) -> bool:
    """Words, or a size with a magnitude suffix: "350M" and "1.5B" name the models a row reports on."""
    number = parse_number(text)
    return bool(number.suffix) if number is not None else not is_numeric(text)


def to_table(
    grid: Grid, region: Region, page: int, index: int, source_sha: str, hrules: list[Rule], engine: str
) -> Table:
    label = region.caption.label if region.caption else None
    stubs = stub_columns(grid)
    cpaths = column_paths(grid.placed, grid.header_rows, grid.n_cols)
    rpaths = row_paths(grid.filled_grid(), grid.header_rows, stubs, grid.group_rows)
    cells = []
    for p in sorted(grid.placed, key=lambda p: (p.row, p.col)):
        text = join_words(p.words)
        header = p.row < grid.header_rows
        kind = "header" if header else ("stub" if p.col < stubs else "body")
        row_path = rpaths[p.row] if not header else []
        col_path = cpaths[p.col] if not header else []
        locator = Locator.of_cell(
            source_sha, label, index, p.row, p.col, row_path, col_path, page=page, panel=panel_mark(region.panel)
        )
        cells.append(
            Cell.printed(
                p.row,
                p.col,
                text,
                kind,
                reads=mark_raised_tail(text, raised_tail(p.words)),
                row_span=p.row_span,
                col_span=p.col_span,
                bbox=(
                    round(min(w.x0 for w in p.words), 2),
                    round(min(w.top for w in p.words), 2),
                    round(max(w.x1 for w in p.words), 2),
                    round(max(w.bottom for w in p.words), 2),
                ),
                bold=is_bold(p.words),
                italic=is_italic(p.words),
                underline=is_underlined(p.words, hrules),
                row_path=row_path,
                col_path=col_path,
                locator=locator,
            )
        )
    return Table(
        index=index,
        page=page,
        label=label,
        caption=region.caption.text if region.caption else "",
        bbox=tuple(round(v, 2) for v in region.bbox),  # type: ignore[arg-type]
        n_rows=grid.n_rows,
        n_cols=grid.n_cols,
        header_rows=grid.header_rows,
        stub_cols=stubs,
        cells=cells,
        engine=engine,
        confidence=confidence(grid),
        caption_position=region.caption_position,
        panel=region.panel,
        notes=[*region.notes, *grid.notes],
    )
