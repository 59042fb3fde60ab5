"""Rows set with no space between them, each row's short cells centred on its tallest cell (Word and InDesign
tables): a row runs from its first line as far below its centred cells as that line lies above them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise
from statistics import median

from pipeline.extract.grid.columns import Placed
from pipeline.extract.grid.rows import Row

CENTRE_SLACK = 0.25  # of the line pitch: a cell's middle this close to its row's centre is centred on it
HALF_PITCH = (0.35, 0.65)  # a centred cell this far from every line beside it (in pitches) sits between two
_ITEM = re.compile(r"^(?:[A-Z0-9]|\S*\d\S*$)")  # a line that starts anew: a capital, a digit, an identifier
_SPARSE = 0.5  # a first column holding cells on fewer than this share of the lines names groups of rows


@dataclass
class CentredRows:
    placed: list[Placed]
    rows: list[Row]
    header_rows: int
    labels: list[tuple[Placed, float]]  # group labels taken out of the first column, at their lines' baselines


def join_centred_rows(placed: list[Placed], rows: list[Row], header_rows: int) -> CentredRows | None:
    """The lines joined into the rows their centred cells make, or None where the body shows no cell set between
    two lines of another (a cell on the middle one of three lines could as well be a row of its own) or the
    lines do not tile into rows centred on one column's cells."""
    if any(p.col_span > 1 or p.row_span > 1 for p in placed):
        return None
    body = _tile(placed, list(range(header_rows, len(rows))), body=True)
    if body is None:
        return None
    groups, labels = body
    head = _tile(placed, list(range(header_rows)), body=False) if header_rows > 1 else None
    head_groups = head[0] if head is not None else [[i] for i in range(header_rows)]
    return _rebuild(placed, rows, head_groups, groups, labels)


def _tile(placed: list[Placed], lines: list[int], body: bool) -> tuple[list[list[int]], list[Placed]] | None:
    """The lines grouped into rows and (in the body) the first column's group labels set apart; None where they
    do not tile. The body must show a cell set between two lines; the header, above its rule, need not."""
    cells = [p for p in placed if p.row in lines]
    if len(lines) < 2 or not cells:
        return None
    labels = _group_labels(cells, lines) if body else []
    kept = [p for p in cells if not any(p is q for q in labels)]
    pitch = _pitch(kept)
    if pitch is None:
        return None
    cols = sorted({p.col for p in kept}, key=lambda c: (sum(p.col == c for p in kept), c))
    for anchor in cols[:3]:
        groups = _rows_on(kept, anchor, pitch, require_between=body)
        if groups is not None:
            return groups, labels
    return None


def _group_labels(cells: list[Placed], lines: list[int]) -> list[Placed]:
    """First-column cells on few of the lines, beside other columns: labels of groups of rows, centred on their
    block, whose lines follow their own pitch."""
    first = [p for p in cells if p.col == 0]
    if not first or not any(p.col > 0 for p in cells) or len(first) >= _SPARSE * len(lines):
        return []
    return first


def _pitch(cells: list[Placed]) -> float | None:
    """The line pitch: the median step between the lines of one column."""
    steps = []
    for col in {p.col for p in cells}:
        ys = sorted(_y(p) for p in cells if p.col == col)
        steps += [b - a for a, b in pairwise(ys) if b - a > 0.5 * _size(cells)]
    return median(steps) if steps else None


def _rows_on(cells: list[Placed], anchor: int, pitch: float, require_between: bool) -> list[list[int]] | None:
    """Rows centred on the ``anchor`` column's cells: each from the first line not yet taken down to as far below
    its anchor cell as that line lies above it; None where a line is left over or a row's cells are not centred
    on it."""
    slack = CENTRE_SLACK * pitch
    by_line: dict[int, list[Placed]] = {}
    for p in cells:
        by_line.setdefault(p.row, []).append(p)
    order = sorted(by_line, key=lambda r: _line_y(by_line[r]))
    anchors = sorted(_y(p) for p in cells if p.col == anchor)
    groups: list[list[int]] = []
    i = 0
    between = False
    for a in anchors:
        if i >= len(order):
            return None
        start = _line_y(by_line[order[i]])
        if start > a + slack:
            return None
        end = 2 * a - start
        group = []
        while i < len(order) and _line_y(by_line[order[i]]) <= end + slack:
            group.append(order[i])
            i += 1
        mine = [p for r in group for p in by_line[r]]
        if not _centred(mine, a, pitch) or _rows_of_their_own(mine):
            return None
        between = between or _between_lines(mine, anchor, a, pitch)
        groups.append(group)
    if i < len(order) or not any(len(g) > 1 for g in groups) or (require_between and not between):
        return None
    return groups


def _centred(cells: list[Placed], centre: float, pitch: float) -> bool:
    """Each column's lines in the row follow one another at the line pitch, their middle on the row's centre."""
    for col in {p.col for p in cells}:
        ys = sorted(_y(p) for p in cells if p.col == col)
        if abs((ys[0] + ys[-1]) / 2 - centre) > CENTRE_SLACK * pitch:
            return False
        if any(abs(b - a - pitch) > CENTRE_SLACK * pitch for a, b in pairwise(ys)):
            return False
    return True


def _between_lines(cells: list[Placed], anchor: int, centre: float, pitch: float) -> bool:
    """The row's anchor cell sits half a line from every line of another column: set between two of them."""
    for col in {p.col for p in cells} - {anchor}:
        nearest = min(abs(_y(p) - centre) for p in cells if p.col == col) / pitch
        if HALF_PITCH[0] <= nearest <= HALF_PITCH[1]:
            return True
    return False


def _rows_of_their_own(cells: list[Placed]) -> bool:
    """Two or more columns holding several lines on the same baselines, each line an item of its own (a capital,
    a digit, an identifier): rows beside a cell centred on their block, not one row's wrapped cells."""
    stacked = []
    for col in {p.col for p in cells}:
        mine = sorted((p for p in cells if p.col == col), key=_y)
        if len(mine) >= 2 and all(_ITEM.match(_text(p)) for p in mine[1:]):
            stacked.append(tuple(round(_y(p)) for p in mine))
    return len(stacked) >= 2 and len(set(stacked)) < len(stacked)


def _rebuild(
    placed: list[Placed],
    rows: list[Row],
    head: list[list[int]],
    body: list[list[int]],
    labels: list[Placed],
) -> CentredRows:
    """One placed cell per row and column, its lines' words in reading order, and one Row per group of lines."""
    taken = {id(p) for p in labels}
    new_placed: list[Placed] = []
    new_rows: list[Row] = []
    for k, group in enumerate([*head, *body]):
        mine = sorted((p for p in placed if p.row in group and id(p) not in taken), key=lambda p: (p.col, _y(p)))
        for p in mine:
            if new_placed and new_placed[-1].row == k and new_placed[-1].col == p.col:
                new_placed[-1].words.extend(p.words)
            else:
                new_placed.append(Placed(k, p.col, list(p.words)))
        words = [w for p in mine for w in p.words]
        new_rows.append(Row(words, [seg for r in group for seg in rows[r].segments]))
    return CentredRows(new_placed, new_rows, len(head), [(p, _y(p)) for p in labels])


def _y(p: Placed) -> float:
    return median(w.baseline for w in p.words)


def _line_y(cells: list[Placed]) -> float:
    return median(_y(p) for p in cells)


def _size(cells: list[Placed]) -> float:
    return median(w.size for p in cells for w in p.words)


def _text(p: Placed) -> str:
    return " ".join(w.text for w in sorted(p.words, key=lambda w: (round(w.baseline), w.x0)))
