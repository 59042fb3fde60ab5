"""Cells that span rows: a label set between two lines (System over a two-line header), a stub centred
beside the rows it names (multirow), a rotated label beside a row group."""

from __future__ import annotations

from itertools import pairwise
from statistics import median

from pipeline.extract.grid.columns import HANGING_INDENT, Column, Placed, indent_from_edge, left_edges, place_segment
from pipeline.extract.grid.rows import Row
from pipeline.extract.page.words import Line, Word, join_words
from pipeline.extract.reading.graphics import Rule
from pipeline.numbers import is_numeric, looks_numeric


def row_baselines(rows: list[Row]) -> list[float]:
    return [median(w.baseline for w in r.words if w.size >= 0.85 * r.size) for r in rows]


def between_rows(rows: list[Row], placed: list[Placed], header_rows: int) -> set[int]:
    """Rows set half-way between their neighbours: both gaps well below the usual row pitch, or, in the
    header, below it where the row's cells stand where both neighbours are empty (a label centred over
    two header lines)."""
    base = row_baselines(rows)
    steps = [b - a for a, b in pairwise(base)]
    if len(steps) < 2:
        return set()
    pitch = max(median(steps), 1.15 * median(r.size for r in rows))  # a short table's steps are few
    found = set()
    for i in range(1, len(rows) - 1):
        numbers = sum(is_numeric(s.text) for s in rows[i].segments)
        if i >= header_rows and numbers and (numbers >= 2 or len(rows[i].segments) > numbers):
            continue  # a body row of values between the two lines of a wrapped multirow label is a row; a lone
            # value is the one of the label wrapped around it ("Conditioning based on / busulfan (n)", "9 (45%)")
        up, down = base[i] - base[i - 1], base[i + 1] - base[i]
        if abs(up - down) >= 0.35 * pitch or max(up, down) >= 0.9 * pitch:
            continue
        if max(up, down) < 0.7 * pitch or (i < header_rows and _free_around(placed, i)):
            found.add(i)
    return found


def _free_around(placed: list[Placed], row: int) -> bool:
    own = [p for p in placed if p.row == row]
    near = [p for p in placed if p.row in (row - 1, row + 1)]
    return bool(own) and not any(p.col < q.col + q.col_span and q.col < p.col + p.col_span for p in own for q in near)


def settle_row_spans(
    placed: list[Placed],
    rows: list[Row],
    header_rows: int,
    rotated: list[Word],
    columns: list[Column],
    hrules: list[Rule],
    notes: list[str],
    labels: list[tuple[Placed, float]] | None = None,
) -> tuple[list[Placed], list[Row], int]:
    """Move labels of between-rows, rotated labels, stubs wrapped over their ruled block and centred stubs onto
    the block of rows they name; a horizontal rule across the label's column bounds the block. ``labels`` (with
    their baselines), where the body's rows are already whole (centred rows): the labels to land, and no body row
    between rows.

    Returns the new cells, the rows that remain, and the new number of header rows; why, in ``notes``.
    """
    floating_rows = between_rows(rows, placed, header_rows)
    if labels is not None:
        floating_rows = {i for i in floating_rows if i < header_rows}
    base = row_baselines(rows)
    floating = _join_wrapped([*(labels or []), *((p, base[p.row]) for p in placed if p.row in floating_rows)])
    for word in rotated:
        for col, span, words in place_segment(Line([word]), columns):
            floating.append((Placed(-1, col, words, col_span=span), word.middle))
    kept_rows = [i for i in range(len(rows)) if i not in floating_rows]
    index = {old: new for new, old in enumerate(kept_rows)}
    new_header = sum(1 for i in kept_rows if i < header_rows)
    cells = [p for p in placed if p.row not in floating_rows]
    for p in cells:
        p.row = index[p.row]
    kept_base = [base[i] for i in kept_rows]
    fences = [[r.y for r in hrules if r.x0 <= c.x0 + 1 and r.x1 >= c.x1 - 1] for c in columns]  # across it
    wrapped = _wrapped_block_labels(cells, kept_base, new_header, fences[0])
    if wrapped:
        notes.append("a stub label wrapped over the lines of its ruled block names the block's rows")
    floating += wrapped
    cells += _centred_stubs(cells, kept_base, new_header, fences[0])
    for p, y in floating:
        _land(p, y, cells, kept_base, new_header, fences[p.col])
        cells.append(p)
    return cells, [rows[i] for i in kept_rows], new_header


def _join_wrapped(floating: list[tuple[Placed, float]]) -> list[tuple[Placed, float]]:
    """Consecutive floating lines in the same column, a line apart, are one label wrapped onto two lines
    (\\multirow with a width): their words joined, set at their middle."""
    joined: list[tuple[Placed, float, float]] = []  # label, first line's y, last line's y
    for p, y in sorted(floating, key=lambda item: (item[0].col, item[1])):
        size = max(w.size for w in p.words)
        if (
            joined
            and joined[-1][0].col == p.col
            and joined[-1][0].col_span == p.col_span
            and 0 < y - joined[-1][2] <= 1.35 * size
        ):
            label, first, _ = joined[-1]
            label.words.extend(p.words)
            joined[-1] = (label, first, y)
        else:
            joined.append((p, y, y))
    return [(p, (first + last) / 2) for p, first, last in joined]


def _wrapped_block_labels(
    cells: list[Placed], base: list[float], header_rows: int, fences: list[float]
) -> list[tuple[Placed, float]]:
    """A stub label wrapped over the lines of its ruled block ('European' / 'ancestry' / '(ADGC)' beside three
    rows): the block's every stub line, the first opening a label and each other continuing it (lower-case or a
    bracket), with a rule across the stub right above and below, and values beside every line, in a column that
    names blocks (another block of rows has one stub line). Taken out of the cells as one label set at the
    lines' middle, to land on the block it names."""
    stubs = sorted(
        (p for p in cells if p.col == 0 and p.row >= header_rows and p.row_span == 1 and p.col_span == 1),
        key=lambda p: p.row,
    )
    cuts = sorted(fences)
    blocks = _blocks(stubs, base, cuts)
    if not _names_blocks(blocks, base, cuts, header_rows):
        return []
    found = []
    for block in blocks:
        texts = [join_words(p.words) for p in block]
        rows = [p.row for p in block]
        if len(block) < 2 or rows != list(range(rows[0], rows[-1] + 1)) or not texts[0][:1].isupper():
            continue
        if not all(t[:1].islower() or t[:1] in "([" for t in texts[1:]):
            continue
        above = max((f for f in cuts if f < base[rows[0]]), default=None)
        below = min((f for f in cuts if f > base[rows[-1]]), default=None)
        inner = [i for i in range(len(base)) if above is not None and below is not None and above < base[i] < below]
        if inner != rows:
            continue  # the label does not fill its block: its lines may be rows of their own
        if not all(any(q.row == r and q.col > 0 for q in cells) for r in rows):
            continue  # lines with nothing beside them continue the row above (a cell wrapped beside its values)
        label = block[0]
        for p in block[1:]:
            label.words.extend(p.words)
            cells.remove(p)
        cells.remove(label)
        found.append((label, (base[rows[0]] + base[rows[-1]]) / 2))
    return found


def _names_blocks(blocks: list[list[Placed]], base: list[float], cuts: list[float], header_rows: int) -> bool:
    """The stub column names ruled blocks, not rows: some block of several rows has a single stub line."""
    rows_in = {}
    for i in range(header_rows, len(base)):
        k = sum(c < base[i] for c in cuts)
        rows_in[k] = rows_in.get(k, 0) + 1
    return any(len(block) == 1 and rows_in.get(sum(c < base[block[0].row] for c in cuts), 0) >= 2 for block in blocks)


def _blocks(stubs: list[Placed], base: list[float], cuts: list[float]) -> list[list[Placed]]:
    """The stub cells grouped by the ruled block (between two cuts) their line lies in."""
    blocks: dict[int, list[Placed]] = {}
    for p in stubs:
        blocks.setdefault(sum(c < base[p.row] for c in cuts), []).append(p)
    return list(blocks.values())


def _occupied(cells: list[Placed], col: int) -> set[int]:
    return {r for p in cells if p.col <= col < p.col + p.col_span for r in range(p.row, p.row + p.row_span)}


def _land(p: Placed, y: float, cells: list[Placed], base: list[float], header_rows: int, fences: list[float]) -> None:
    """Give a floating label the block of rows empty in its column around ``y``, between the rules
    (``fences``) above and below it: all of it where rules close the block on both sides, nothing else
    stands in the label's column there and the label is not set on its first or last line; else as far
    as the label sits centred on it."""
    nearest = min(range(len(base)), key=lambda i: abs(base[i] - y))
    busy = _occupied(cells, p.col)
    in_header = nearest < header_rows
    lo_limit, hi_limit = (0, header_rows - 1) if in_header else (header_rows, len(base) - 1)
    top = max((f for f in fences if f < y), default=float("-inf"))
    bottom = min((f for f in fences if f > y), default=float("inf"))
    inside = [i for i in range(lo_limit, hi_limit + 1) if top < base[i] < bottom]
    if inside:
        lo_limit, hi_limit = inside[0], inside[-1]
    above = max((i for i in range(len(base)) if base[i] <= y), default=nearest)
    below = min((i for i in range(len(base)) if base[i] >= y), default=nearest)
    lo, hi = above, below
    if lo in busy or hi in busy:
        p.row, p.row_span = nearest, 1
        return
    if p.col > 0:  # a value centred on a wrapped label spans the label's lines, not the next label's
        busy |= _label_lines(cells, header_rows)
    while lo - 1 >= lo_limit and lo - 1 not in busy:
        lo -= 1
    while hi + 1 <= hi_limit and hi + 1 not in busy:
        hi += 1
    fenced = inside and (lo, hi) == (inside[0], inside[-1]) and top > float("-inf") and bottom < float("inf")
    on_edge_row = min(abs(y - base[lo]), abs(y - base[hi])) < 0.5 * abs(base[hi] - base[lo]) / max(hi - lo, 1) / 2
    if not fenced or on_edge_row:  # a label set on the block's first or last line names that line
        lo, hi = _centre_block(lo, hi, y, base)
    p.row, p.row_span = lo, hi - lo + 1


def _label_lines(cells: list[Placed], header_rows: int) -> set[int]:
    """Body lines holding words in the stub alone: lines of wrapped labels (each beside its own value or going on
    from the line above), never rows for a value beside another label to span."""
    beside = {r for q in cells if q.col > 0 for r in range(q.row, q.row + q.row_span)}
    return {q.row for q in cells if q.col == 0 and q.row >= header_rows and q.row_span == 1 and q.row not in beside}


def _centre_block(lo: int, hi: int, y: float, base: list[float]) -> tuple[int, int]:
    """Shrink [lo, hi] from the far side until its middle is at ``y`` (within a third of a row)."""
    while lo < hi:
        mid = (base[lo] + base[hi]) / 2
        if abs(mid - y) <= 0.3 * (base[hi] - base[lo]) / (hi - lo):
            break
        if mid < y:
            lo += 1
        else:
            hi -= 1
    return lo, hi


def _top_aligned(cells: list[Placed], busy: set[int], header_rows: int, n_rows: int) -> bool:
    """The stub column sets its block labels on the block's first line: a label right under another stub
    has empty stubs under it, which a label centred on its block never has."""
    return any(
        p.col == 0
        and p.row_span == 1
        and header_rows < p.row < n_rows - 1
        and p.row - 1 in busy
        and p.row + 1 not in busy
        for p in cells
    )


def _goes_on_hanging(cells: list[Placed], header_rows: int) -> set[int]:
    """Rows whose cell beside the stub, words set at its left-aligned column's edge, goes on onto the next line
    with a hanging indent: the stub stands on its row's first line (the lines under it are that row's), not
    centred on a block. Numbers are left out: set right, they start where their width puts them."""
    edges = left_edges(cells, header_rows)
    by_pos = {
        (p.row, p.col): p
        for p in cells
        if p.row >= header_rows and p.col > 0 and p.col_span == 1 and not looks_numeric(join_words(p.words))
    }
    lo, hi = HANGING_INDENT
    found = set()
    for (r, c), p in by_pos.items():
        here, below = (
            indent_from_edge(p, edges),
            (indent_from_edge(by_pos[r + 1, c], edges) if (r + 1, c) in by_pos else None),
        )
        if here is not None and below is not None and abs(here) < lo and lo <= below <= hi:
            found.add(r)
    return found


def _centred_stubs(cells: list[Placed], base: list[float], header_rows: int, fences: list[float]) -> list[Placed]:
    """Stub labels with empty stubs right above and below them, landed on the block they sit centred on;
    not where the column sets its labels on their block's first line, nor where the next column is as
    empty around its cell (key columns printed once, on their block's first line)."""
    busy = _occupied(cells, 0)
    if _top_aligned(cells, busy, header_rows, len(base)):
        return []
    beside = {p.row for p in cells if p.col == 1 and p.row_span == 1}
    busy_beside = _occupied(cells, 1)
    goes_on = _goes_on_hanging(cells, header_rows)
    lifted = [
        p
        for p in cells
        if p.col == 0
        and p.row_span == 1
        and header_rows <= p.row - 1
        and p.row + 1 < len(base)
        and p.row - 1 not in busy
        and p.row + 1 not in busy
        and not (p.row in beside and p.row - 1 not in busy_beside and p.row + 1 not in busy_beside)
        and p.row not in goes_on
    ]
    for p in lifted:
        cells.remove(p)
    for p in lifted:
        _land(p, base[p.row], cells, base, header_rows, fences)
    return lifted
