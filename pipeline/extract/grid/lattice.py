"""Fully ruled tables: cells are the boxes the ruling lines draw; a missing line between two boxes joins
them into one spanning cell. Wrapped text inside a box stays one cell."""

from __future__ import annotations

import re
from itertools import pairwise

from pipeline.extract.grid.columns import Placed
from pipeline.extract.grid.structure import Grid
from pipeline.extract.grid.style import is_bold, is_italic
from pipeline.extract.page.words import Line, Word, join_words
from pipeline.extract.reading.graphics import Rule
from pipeline.numbers import looks_numeric


def is_lattice(rules: list[Rule], lines: list[Line], box: tuple[float, float, float, float]) -> bool:
    """Ruled between most rows and most columns: at least three column lines running through the table, and
    about one row line per text line, or a frame of full-height rules at both edges around cells of wrapped
    text (a ruled band of lines that each fill every column holds unruled rows, not one cell)."""
    x0, top, x1, bottom = box
    height = bottom - top
    xs = _cluster([r.x for r in rules if not r.horizontal and r.length >= 0.3 * height])
    ys = _cluster([r.y for r in rules if r.horizontal and r.length >= 0.3 * (x1 - x0)])
    if len(xs) < 3 or len(ys) < 3:
        return False
    if len(ys) - 1 >= 0.6 * max(len(lines), 1):
        return True
    full = [r.x for r in rules if not r.horizontal and r.length >= 0.9 * height]
    framed = any(abs(x - x0) <= 3 for x in full) and any(abs(x - x1) <= 3 for x in full)
    across = [r.y for r in rules if r.horizontal and r.x0 <= x0 + 3 and r.x1 >= x1 - 3]
    open_sided = (  # column rules inside, none at the edges (PLOS): the full-width top and bottom rules close it
        len(full) >= 2 and any(abs(y - top) <= 3 for y in across) and any(abs(y - bottom) <= 3 for y in across)
    )
    return (framed or open_sided) and not _unruled_rows(lines, xs, ys)


def _unruled_rows(lines: list[Line], xs: list[float], ys: list[float]) -> bool:
    """The bands between two row rules that hold several text lines hold rows of their own: most of their
    lines have words in every column, or a column has a number on two lines of one band (wrapped cell
    text leaves columns empty, and numbers do not wrap)."""
    bands = [[ln for ln in lines if a < (ln.top + ln.bottom) / 2 < b] for a, b in pairwise(ys)]
    stacked = [band for band in bands if len(band) > 1]
    cells = list(pairwise(xs))
    texts = [[_cell_texts(ln, cells) for ln in band] for band in stacked]
    full = sum(all(line) for band in texts for line in band)
    if full >= 0.6 * sum(len(band) for band in texts):
        return bool(texts)
    numbers = [[[bool(t) and looks_numeric(t) for t in line] for line in band] for band in texts]
    return any(sum(line[c] for line in band) >= 2 for band in numbers for c in range(len(cells)))


def _cluster(values: list[float], tolerance: float = 2.5) -> list[float]:
    out: list[list[float]] = []
    for v in sorted(values):
        if out and v - out[-1][-1] <= tolerance:
            out[-1].append(v)
        else:
            out.append([v])
    return [sum(group) / len(group) for group in out]


def _covered(rules: list[Rule], horizontal: bool, at: float, lo: float, hi: float) -> bool:
    """Whether ruling at ``at`` (a y for horizontal, an x for vertical) covers most of [lo, hi]."""
    need = 0.6 * (hi - lo)
    got = 0.0
    for r in rules:
        if r.horizontal != horizontal or abs((r.y if horizontal else r.x) - at) > 2.5:
            continue
        a, b = (r.x0, r.x1) if horizontal else (r.top, r.bottom)
        got += max(0.0, min(b, hi) - max(a, lo))
    return got >= need


def _cell_texts(line: Line, cells: list[tuple[float, float]]) -> list[str]:
    return [join_words([w for w in line.words if a < w.center_x < b]) for a, b in cells]


def lattice_grid(words: list[Word], rules: list[Rule], box: tuple[float, float, float, float]) -> Grid | None:
    x0, top, x1, bottom = box
    xs = _cluster([r.x for r in rules if not r.horizontal] + [x0, x1])
    ys = _cluster([r.y for r in rules if r.horizontal] + [top, bottom])
    xs = [a for a, b in pairwise([*xs, float("inf")]) if b - a >= 3]
    ys = [a for a, b in pairwise([*ys, float("inf")]) if b - a >= 3]
    if len(xs) < 2 or len(ys) < 2:
        return None
    n_rows, n_cols = len(ys) - 1, len(xs) - 1
    parent = {(i, j): (i, j) for i in range(n_rows) for j in range(n_cols)}

    def find(k: tuple[int, int]) -> tuple[int, int]:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for i in range(n_rows):
        for j in range(n_cols):
            if j + 1 < n_cols and not _covered(rules, False, xs[j + 1], ys[i], ys[i + 1]):
                parent[find((i, j + 1))] = find((i, j))
            if i + 1 < n_rows and not _covered(rules, True, ys[i + 1], xs[j], xs[j + 1]):
                parent[find((i + 1, j))] = find((i, j))
    boxes: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for key in parent:
        boxes.setdefault(find(key), []).append(key)
    placed = []
    for members in boxes.values():
        r0, r1 = min(m[0] for m in members), max(m[0] for m in members)
        c0, c1 = min(m[1] for m in members), max(m[1] for m in members)
        inside = [w for w in words if xs[c0] <= w.center_x <= xs[c1 + 1] and ys[r0] <= w.middle <= ys[r1 + 1]]
        if inside:
            placed.append(Placed(r0, c0, inside, col_span=c1 - c0 + 1, row_span=r1 - r0 + 1))
    return _compact(placed)


def _is_value(text: str) -> bool:
    """A number, with units or an exponent at most: '1-shot 5-way' is a label."""
    return looks_numeric(text) and not re.search(r"[^\W\d_]{2,}", text)


def _compact(placed: list[Placed]) -> Grid | None:
    """Drop grid rows and columns that hold no cell of their own (double rules, borders), renumber."""
    if not placed:
        return None
    rows = sorted({p.row for p in placed})
    cols = sorted({p.col for p in placed})
    row_of = {r: i for i, r in enumerate(rows)}
    col_of = {c: i for i, c in enumerate(cols)}
    for p in placed:
        end_row = sum(1 for r in rows if r < p.row + p.row_span)
        end_col = sum(1 for c in cols if c < p.col + p.col_span)
        p.row, p.col = row_of[p.row], col_of[p.col]
        p.row_span, p.col_span = max(1, end_row - p.row), max(1, end_col - p.col)
    n_rows, n_cols = len(rows), len(cols)
    header = 0
    for r in range(n_rows):
        texts = [join_words(p.words) for p in placed if p.row == r]
        if len(texts) >= 2 and sum(_is_value(t) for t in texts) * 2 >= len(texts):
            break
        header += 1
    header = 1 if header >= n_rows else _in_header_type(placed, min(header, 4))  # no values: the first row
    return Grid(placed, n_rows, n_cols, header)


def _in_header_type(placed: list[Placed], header: int) -> int:
    """In a full grid every row is ruled, so where the labels end shows in their type: a first row set in a type
    of its own (bold) ends the header at the first row set in the type of the rows under it (a text row of data
    does not read as header for lack of numbers)."""
    styles = [_row_style(placed, r) for r in range(header + 1)]
    return next((r for r in range(1, header) if styles[r] != styles[0] and styles[r] == styles[header]), header)


def _row_style(placed: list[Placed], r: int) -> tuple[bool, bool]:
    cells = [p.words for p in placed if p.row == r]
    bold = sum(is_bold(words) for words in cells)
    italic = sum(is_italic(words) for words in cells)
    return 2 * bold > len(cells), 2 * italic > len(cells)
