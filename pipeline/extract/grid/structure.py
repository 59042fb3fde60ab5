"""A table region's words arranged into a grid of placed cells (rows, columns, header, spans)."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise

from pipeline.extract.grid.bands import join_ruled_bands
from pipeline.extract.grid.centred import join_centred_rows
from pipeline.extract.grid.columns import (
    Column,
    Placed,
    centred_span,
    find_columns,
    header_columns,
    orphan_columns,
    place_segment,
)
from pipeline.extract.grid.headers import span_lone_headers, spread_rows, widen_spanning_headers
from pipeline.extract.grid.rows import Row, build_rows, count_header_rows, segment_is_numeric
from pipeline.extract.grid.spans import settle_row_spans
from pipeline.extract.grid.stacked import panel_blocks
from pipeline.extract.grid.straddle import straddling_segments
from pipeline.extract.grid.wrapping import (
    close_open_labels,
    fold_wrapped_lines,
    join_bottom_set_labels,
    join_header_lines,
    join_open_brackets,
    merge_body_lines,
    numeric_columns,
)
from pipeline.extract.page.words import Word, join_words
from pipeline.extract.reading.graphics import Rule
from pipeline.extract.settings import ExtractionSettings


@dataclass
class Grid:
    placed: list[Placed]
    n_rows: int
    n_cols: int
    header_rows: int
    group_rows: set[int] = field(default_factory=set)  # rows that name a group of the rows below
    notes: list[str] = field(default_factory=list)  # why the grid was read the way it was

    def text_grid(self) -> list[list[str]]:
        """Each cell's text at its top-left position ('' elsewhere)."""
        grid = [[""] * self.n_cols for _ in range(self.n_rows)]
        for p in self.placed:
            grid[p.row][p.col] = join_words(p.words)
        return grid

    def filled_grid(self) -> list[list[str]]:
        """Each position's text, a spanning cell's text repeated over every position it covers."""
        grid = [[""] * self.n_cols for _ in range(self.n_rows)]
        for p in self.placed:
            text = join_words(p.words)
            for r in range(p.row, min(p.row + p.row_span, self.n_rows)):
                for c in range(p.col, min(p.col + p.col_span, self.n_cols)):
                    grid[r][c] = text
        return grid


def build_grid(
    words: list[Word],
    rules: list[Rule],
    box: tuple[float, float, float, float],
    settings: ExtractionSettings,
    captioned: bool = True,
) -> Grid | None:
    """The grid of a region; ``captioned`` False for a region found without a caption, whose extent is a
    guess (its rules may belong to two tables): its ruled bands are not joined into rows."""
    rows = build_rows(words, settings.cell_gap)
    if len(rows) < 2:
        return None
    blocks = panel_blocks(rows)
    if blocks:
        stacked = _stacked_grid(blocks, words, rules, box, settings, captioned)
        if stacked is not None:
            return stacked
    x0, _, x1, _ = box
    header_rows = count_header_rows(rows, rules, x0, x1)
    body = rows[header_rows:] or rows
    size = sorted(r.size for r in body)[len(body) // 2]
    vrules = [r for r in rules if not r.horizontal and _crosses_body(r, body)]
    rotated = [w for w in words if not w.upright]
    straddling = straddling_segments(body)
    columns = find_columns(body, vrules, settings.column_gap * size, [(w.x0, w.x1) for w in rotated], straddling)
    if not columns:
        return None
    columns = orphan_columns(columns, rows, straddling)
    placed = _merge_collisions(
        [p for i, row in enumerate(rows) for p in _place_row(i, row, i < header_rows, columns, straddling)]
    )
    hrules = [r for r in rules if r.horizontal]
    notes: list[str] = []
    centred = join_centred_rows(placed, rows, header_rows, hrules)
    labels = None
    if centred is not None:
        placed, rows, header_rows, labels = centred.placed, centred.rows, centred.header_rows, centred.labels
        notes += centred.notes
    placed, rows, header_rows = settle_row_spans(placed, rows, header_rows, rotated, columns, hrules, notes, labels)
    header_rows, rows = join_header_lines(placed, rows, header_rows)
    header_rows, rows = join_open_brackets(placed, rows, header_rows)
    header_rows, rows = join_bottom_set_labels(placed, rows, header_rows, hrules)
    close_open_labels(placed, header_rows)
    group_rows: set[int] = set()
    if labels is None:  # rows made whole by their centred cells hold no wrapped lines to fold or join
        group_rows, rows = merge_body_lines(placed, rows, header_rows, len(columns), hrules)
        joined = False
        if captioned:
            placed, joined, band_notes = join_ruled_bands(placed, header_rows, hrules, box)
            notes += band_notes
        if joined:
            group_rows = set()
        elif not numeric_columns(placed, header_rows, len(columns)):
            rows = fold_wrapped_lines(placed, rows, header_rows)  # a table of words: its wrapped lines are no rows
    numeric = numeric_columns(placed, header_rows, len(columns))
    stubs = next((c for c in range(len(columns)) if c in numeric), 0)
    widen_spanning_headers(placed, header_rows, columns, rules, size, stubs, [r.x for r in vrules])
    placed = _merge_collisions(placed)
    if span_lone_headers(placed, header_rows, rules):
        notes.append("a header label beside the short rule between header rows spans them")
    header_rows = spread_rows(placed, header_rows)
    n_rows = 1 + max(p.row + p.row_span - 1 for p in placed)
    return Grid(placed, n_rows, len(columns), header_rows, group_rows, notes)


def _stacked_grid(
    blocks: list[list[Row]],
    words: list[Word],
    rules: list[Rule],
    box: tuple[float, float, float, float],
    settings: ExtractionSettings,
    captioned: bool,
) -> Grid | None:
    """Stacked panels whose columns differ, each read as a table of its own and stacked: a panel's title spans
    the table and names the rows under it; each panel carries its own header line inside the body."""
    x0, top, x1, bottom = box
    cuts = [top - 1, *((a[-1].bottom + b[0].top) / 2 for a, b in pairwise(blocks)), bottom + 1]
    grids = []
    for block, (upper, lower) in zip(blocks, pairwise(cuts), strict=True):
        mine = {id(w) for row in block for w in row.words}
        block_words = [w for w in words if id(w) in mine or (not w.upright and upper <= w.middle < lower)]
        block_rules = [r for r in rules if r.bottom >= upper and r.top < lower]
        grid = build_grid(block_words, block_rules, (x0, upper, x1, lower), settings, captioned)
        if grid is None:
            return None
        grids.append(grid)
    n_cols = max(g.n_cols for g in grids)
    placed: list[Placed] = []
    groups: set[int] = set()
    notes: list[str] = []
    offset = 0
    for grid in grids:
        title = [p for p in grid.placed if p.row == 0]
        if len(title) == 1:
            title[0].col, title[0].col_span = 0, n_cols
            groups.add(offset)
        for p in grid.placed:
            p.row += offset
        placed += grid.placed
        notes += [n for n in grid.notes if n not in notes]
        offset += grid.n_rows
    notes.append(
        f"{len(grids)} stacked panels with columns of their own, each under its title and header line: "
        "each panel read on its own columns and filled from the left"
    )
    return Grid(placed, offset, n_cols, 0, groups, notes)


def _place_row(i: int, row: Row, header: bool, columns: list[Column], straddling: set[int]) -> list[Placed]:
    """A header segment stays whole, spanning the columns its extent covers (a word hanging over a gap
    is no evidence of a column); so does a body line of one stretch of words (a group label or a
    wrapped line), and a body segment that straddles columns (it spans them, as far as it is centred
    on them); other body segments split at column edges."""
    if header:
        out = []
        for s in row.segments:
            pieces = place_segment(s, columns)
            if _labels_over_columns(pieces, columns):
                out += [Placed(i, col, words) for col, _, words in pieces]
                continue
            first, last = header_columns(s.x0, s.x1, columns)
            out.append(Placed(i, first, list(s.words), col_span=last - first + 1))
        return out
    out: list[Placed] = []
    spanning: list[Placed] = []
    whole = len(row.segments) == 1 and not segment_is_numeric(row.segments[0])
    for segment in row.segments:
        pieces = place_segment(segment, columns)
        spans = id(segment) in straddling
        if (whole or spans) and len(pieces) > 1:
            first = min(p[0] for p in pieces)
            last = max(p[0] + p[1] - 1 for p in pieces)
            pieces = [(first, (last - first + 1) if spans else 1, list(segment.words))]
        placed = [Placed(i, col, seg_words, col_span=span) for col, span, seg_words in pieces]
        out += placed
        spanning += [p for p in placed if spans or p.col_span > 1]
    for p in spanning:
        taken = {c for q in out if q is not p for c in range(q.col, q.col + q.col_span)}
        p.col, p.col_span = centred_span(p, columns, taken)
    return out


def _labels_over_columns(pieces: list[tuple[int, int, list[Word]]], columns: list[Column]) -> bool:
    """A header run of one-word labels of one shape set closely, each centred over a column of its own
    ('bio12 bio14 bio15' over narrow columns): one label per column, not one label spanning them."""
    if len(pieces) < 2 or any(span != 1 or len(words) != 1 for _, span, words in pieces):
        return False
    if len({_shape(words[0].text) for _, _, words in pieces}) > 1:
        return False  # labels of one kind ('bio12', 'bio14'), not the words of one label
    return all(
        abs(words[0].center_x - columns[col].center) <= 0.25 * (columns[col].x1 - columns[col].x0) + 1
        for col, _, words in pieces
    )


def _shape(text: str) -> str:
    return "".join("0" if ch.isdigit() else "a" if ch.isalpha() else ch for ch in text)


def _crosses_body(rule: Rule, body: list[Row]) -> bool:
    top, bottom = body[0].top, body[-1].bottom
    return rule.top <= top + 0.5 * (bottom - top) and rule.bottom >= top + 0.5 * (bottom - top)


def _merge_collisions(placed: list[Placed]) -> list[Placed]:
    """Two pieces that landed in the same grid position are one cell."""
    by_pos: dict[tuple[int, int], Placed] = {}
    covered: dict[tuple[int, int], Placed] = {}
    out: list[Placed] = []
    for p in sorted(placed, key=lambda p: (p.row, p.col, -p.col_span)):
        key = (p.row, p.col)
        host = by_pos.get(key) or covered.get(key)
        if host is not None:
            host.words.extend(p.words)
            end = max(host.col + host.col_span, p.col + p.col_span)
            host.col_span = end - host.col
            for c in range(host.col, end):
                covered[(p.row, c)] = host
            continue
        by_pos[key] = p
        for c in range(p.col, p.col + p.col_span):
            covered[(p.row, c)] = p
        out.append(p)
    return out
