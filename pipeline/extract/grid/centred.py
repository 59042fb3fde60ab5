"""Rows set with no space between them, each row's short cells centred on its tallest cell (Word and InDesign
tables): a row runs from its first line as far below its centred cells as that line lies above them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise
from statistics import median

from pipeline.extract.grid.columns import Placed
from pipeline.extract.grid.rows import Row
from pipeline.extract.reading.graphics import Rule

JOINED = "cells centred on a taller cell's lines: the lines around them are one row"
SPANNED = "cells centred beside lines that are rows of their own (an item in each of two columns): they span them"
CENTRE_SLACK = 0.25  # of the line pitch: a cell's middle this close to its row's centre is centred on it
HALF_PITCH = (0.35, 0.65)  # a centred cell this far from every line beside it (in pitches) sits between two
_ITEM = re.compile(r"^(?:[A-Z0-9]|\S*\d\S*$)")  # a line that starts anew: a capital, a digit, an identifier
_IDENTIFIER = re.compile(r"\b(?=\w*\d)(?=\w*[^\W\d_])\w+\b")  # letters and digits in one word ('th1th2')
LINE_STEPS = 1.3  # steps within this factor of the shortest are a cell's line pitch
_SPARSE = 0.5  # a first column holding cells on fewer than this share of the lines may name groups of rows
LABEL_LINES = 1.35  # (of the size) lines of one label stand no further apart


@dataclass
class _Block:
    """Lines one row (its short cells centred on them), or, with ``items``, lines that are rows of their own
    beside the cells centred on the block (which span it)."""

    lines: list[int]
    items: bool = False


@dataclass
class CentredRows:
    placed: list[Placed]
    rows: list[Row]
    header_rows: int
    labels: list[tuple[Placed, float]] | None  # group labels out of the first column, at their lines' baselines;
    # None where only the header's lines were joined (the body's rows are left to the other rules)
    notes: list[str]  # why


def join_centred_rows(
    placed: list[Placed], rows: list[Row], header_rows: int, hrules: list[Rule]
) -> CentredRows | None:
    """The lines joined into the rows their centred cells make: the body's where it shows a cell set between two
    lines of another (a cell on the middle one of three lines could as well be a row of its own), the header's
    where its labels sit centred on a taller one; None where neither tiles into rows centred on one column's
    cells without a row crossing a rule (a rule parts rows), or a cell spans already."""
    if any(p.col_span > 1 or p.row_span > 1 for p in placed):
        return None
    body = _tile(placed, list(range(header_rows, len(rows))), hrules, body=True)
    head = _tile(placed, list(range(header_rows)), hrules, body=False) if header_rows > 1 else None
    if body is None and head is None:
        return None
    head_groups = head[0] if head is not None else [_Block([i]) for i in range(header_rows)]
    body_groups = body[0] if body is not None else [_Block([i]) for i in range(header_rows, len(rows))]
    labels = body[1] if body is not None else []
    joined = _rebuild(placed, rows, head_groups, body_groups, labels)
    if body is None:
        joined.labels = None
    return joined


def _tile(
    placed: list[Placed], lines: list[int], hrules: list[Rule], body: bool
) -> tuple[list[_Block], list[Placed]] | None:
    """The lines grouped into rows and (in the body, where the rows do not tile with them) the first column's group
    labels set apart; None where they do not tile. The body must show a cell set between two lines; the header,
    above its rule, need not."""
    cells = [p for p in placed if p.row in lines]
    if len(lines) < 2 or not cells:
        return None
    labels = _group_labels(cells, lines) if body else []
    for apart in ([], labels) if labels else ([],):
        kept = [p for p in cells if not any(p is q for q in apart)]
        pitch = _pitch(kept)
        if pitch is None:
            continue
        cols = sorted({p.col for p in kept}, key=lambda c: (sum(p.col == c for p in kept), c))
        for anchor in cols[:3]:
            groups = _rows_on(kept, anchor, pitch, hrules, body)
            if groups is not None and _name_blocks(apart, _row_extents(kept, groups), pitch):
                return groups, apart
    return None


def _group_labels(cells: list[Placed], lines: list[int]) -> list[Placed]:
    """First-column cells on few of the lines, beside other columns: perhaps labels of groups of rows, centred on
    their block, whose lines follow their own pitch."""
    first = [p for p in cells if p.col == 0]
    if not first or not any(p.col > 0 for p in cells) or len(first) >= _SPARSE * len(lines):
        return []
    return first


def _name_blocks(labels: list[Placed], rows: list[tuple[float, float]], pitch: float) -> bool:
    """Each label (its lines a line pitch apart joined) reaches into two rows or more (each row's lines and half a
    line around them): it names a block of rows, not one row, nor none (a group's row of its own)."""
    ys = sorted(_y(p) for p in labels)
    if not ys:
        return True
    size = _size(labels)
    paragraphs = [[ys[0]]]
    for a, b in pairwise(ys):
        if b - a <= LABEL_LINES * size:
            paragraphs[-1].append(b)
        else:
            paragraphs.append([b])
    reach = pitch / 2
    return all(sum(lines[0] <= b + reach and a - reach <= lines[-1] for a, b in rows) >= 2 for lines in paragraphs)


def _row_extents(cells: list[Placed], blocks: list[_Block]) -> list[tuple[float, float]]:
    """From first to last line, each row the blocks make: a block of items a row per line."""
    extents = []
    for block in blocks:
        for group in [[r] for r in block.lines] if block.items else [block.lines]:
            ys = [_y(p) for p in cells if p.row in group]
            extents.append((min(ys), max(ys)))
    return extents


def _pitch(cells: list[Placed]) -> float | None:
    """The line pitch: the step between the lines of one cell, the shortest steps between lines of one column
    (rows may stand further apart)."""
    steps = []
    for col in {p.col for p in cells}:
        ys = sorted(_y(p) for p in cells if p.col == col)
        steps += [b - a for a, b in pairwise(ys) if b - a > 0.5 * _size(cells)]
    if not steps:
        return None
    return median(s for s in steps if s <= LINE_STEPS * min(steps))


def _rows_on(cells: list[Placed], anchor: int, pitch: float, hrules: list[Rule], body: bool) -> list[_Block] | None:
    """Rows centred on the ``anchor`` column's cells: each from the first line not yet taken down to as far below
    its anchor cell as that line lies above it; None where a line is left over or a row's cells are not centred
    on it, and in the body where no cell sits between two lines, in the header where a cell's lines do not go on
    from one another (labels of their own: a caption's tail, a group's name)."""
    slack = CENTRE_SLACK * pitch
    by_line: dict[int, list[Placed]] = {}
    for p in cells:
        by_line.setdefault(p.row, []).append(p)
    order = sorted(by_line, key=lambda r: _line_y(by_line[r]))
    anchors = sorted(_y(p) for p in cells if p.col == anchor)
    groups: list[_Block] = []
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
        items = _rows_of_their_own(mine)
        if not _centred(mine, a, pitch) or _ruled_across(mine, hrules) or (items and not body):
            return None
        if not body and not _wrapped_labels(mine):
            return None
        between = between or _between_lines(mine, anchor, a, pitch)
        groups.append(_Block(group, items))
    if i < len(order) or not any(len(g.lines) > 1 for g in groups) or (body and not between):
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


def _wrapped_labels(cells: list[Placed]) -> bool:
    """Each column's later lines go on from the line above: a lower-case start, or a line above ending in a hyphen."""
    for col in {p.col for p in cells}:
        lines = [_text(p) for p in sorted((p for p in cells if p.col == col), key=_y)]
        if any(not (line[:1].islower() or above.endswith("-")) for above, line in pairwise(lines)):
            return False
    return True


def _ruled_across(cells: list[Placed], hrules: list[Rule]) -> bool:
    """A rule runs between the row's lines, under some of its cells."""
    top, bottom = min(_y(p) for p in cells), max(_y(p) for p in cells)
    x0, x1 = min(w.x0 for p in cells for w in p.words), max(w.x1 for p in cells for w in p.words)
    return any(top < r.y < bottom and r.x0 < x1 and x0 < r.x1 for r in hrules)


def _between_lines(cells: list[Placed], anchor: int, centre: float, pitch: float) -> bool:
    """The row's anchor cell sits half a line from every line of another column: set between two of them."""
    for col in {p.col for p in cells} - {anchor}:
        nearest = min(abs(_y(p) - centre) for p in cells if p.col == col) / pitch
        if HALF_PITCH[0] <= nearest <= HALF_PITCH[1]:
            return True
    return False


def _rows_of_their_own(cells: list[Placed]) -> bool:
    """Two or more columns holding several lines on the same baselines, each later line an item of its own (a
    capital, a digit, an identifier): rows beside a cell centred on their block, not one row's wrapped cells."""
    columns: dict[tuple[int, ...], list[bool]] = {}
    for col in {p.col for p in cells}:
        mine = sorted((p for p in cells if p.col == col), key=_y)
        if len(mine) >= 2:
            items = all(_ITEM.match(_text(p)) or _IDENTIFIER.search(_text(p)) for p in mine[1:])
            columns.setdefault(tuple(round(_y(p)) for p in mine), []).append(items)
    return any(len(flags) >= 2 and all(flags) for flags in columns.values())


def _rebuild(
    placed: list[Placed],
    rows: list[Row],
    head: list[_Block],
    body: list[_Block],
    labels: list[Placed],
) -> CentredRows:
    """One placed cell per row and column, its lines' words in reading order, and one Row per row: a block's lines
    joined, or (a block of items) each line a row and the block's other cells joined, spanning it."""
    taken = {id(p) for p in labels}
    new_placed: list[Placed] = []
    new_rows: list[Row] = []
    for block in [*head, *body]:
        mine = [p for p in placed if p.row in block.lines and id(p) not in taken]
        stacked = {c for c in {p.col for p in mine} if sum(p.col == c for p in mine) > 1} if block.items else set()
        first = len(new_rows)
        for group in [[r] for r in block.lines] if block.items else [block.lines]:
            line = [p for p in mine if p.row in group and (p.col in stacked or not block.items)]
            if not line:
                continue  # a line of centred cells only, set between two item lines
            _place(new_placed, line, len(new_rows), 1)
            new_rows.append(Row([w for p in line for w in p.words], [seg for r in group for seg in rows[r].segments]))
        if block.items:
            centred = [p for p in mine if p.col not in stacked]
            _place(new_placed, centred, first, len(new_rows) - first)
            new_rows[first].words.extend(w for p in centred for w in p.words)
    notes = []
    if any(len(b.lines) > 1 and not b.items for b in [*head, *body]):
        notes.append(JOINED)
    if any(b.items for b in body):
        notes.append(SPANNED)
    return CentredRows(new_placed, new_rows, len(head), [(p, _y(p)) for p in labels], notes)


def _place(out: list[Placed], cells: list[Placed], row: int, span: int) -> None:
    """The cells on ``row`` (spanning ``span`` rows), one per column, each column's lines in reading order."""
    for p in sorted(cells, key=lambda p: (p.col, _y(p))):
        if out and out[-1].row == row and out[-1].col == p.col:
            out[-1].words.extend(p.words)
        else:
            out.append(Placed(row, p.col, list(p.words), row_span=span))


def _y(p: Placed) -> float:
    return median(w.baseline for w in p.words)


def _line_y(cells: list[Placed]) -> float:
    return median(_y(p) for p in cells)


def _size(cells: list[Placed]) -> float:
    return median(w.size for p in cells for w in p.words)


def _text(p: Placed) -> str:
    return " ".join(w.text for w in sorted(p.words, key=lambda w: (round(w.baseline), w.x0)))
