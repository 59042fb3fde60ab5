"""Header cells fitted to the body's columns (spans from cmidrules or centring), and the paths that
name each cell: col_path from the header rows above it, row_path from its row group and stub."""

from __future__ import annotations

import re

from pipeline.extract.grid.columns import Column, Placed
from pipeline.extract.page.words import join_words
from pipeline.extract.reading.graphics import Rule

BARE_SPREAD = re.compile(r"^[±∓]\s*(?:\d[\d.,]*\s*[^\s\d]{0,3}|SD|SE|SEM|CI)$")  # '±2%', '±0.04 ns', '± SD'


def spread_rows(placed: list[Placed], header_rows: int) -> int:
    """A row under the column labels printing only bare spreads ('±2%', '± SD': the precision of every value
    under them, no value of its own) with an empty stub qualifies the columns: it closes the header. Returns
    the number of header rows with such rows taken in."""
    if not header_rows:
        return header_rows
    while True:
        cells = [p for p in placed if p.row == header_rows]
        if not cells or any(p.col == 0 or not BARE_SPREAD.match(join_words(p.words)) for p in cells):
            return header_rows
        header_rows += 1


def widen_spanning_headers(
    placed: list[Placed],
    header_rows: int,
    columns: list[Column],
    rules: list[Rule],
    size: float,
    stubs: int,
    dividers: list[float],
) -> None:
    """A header in an upper header row covers the columns its cmidrule covers, or else the columns
    around it that are nearer to it than to its neighbours, as far as it stays centred over them (or,
    set flush left, over those with sub-labels); it names data columns, so it reaches over the ``stubs``
    (row-label columns) only where it is printed, and not over a vertical rule that divides the body
    (x in ``dividers``) unless printed across it."""
    block = [sum(x < c.center for x in dividers) for c in columns]
    for r in range(header_rows - 1):
        cells = [p for p in placed if p.row == r]
        full = {c for p in cells if p.row + p.row_span >= header_rows for c in range(p.col, p.col + p.col_span)}
        row = sorted((p for p in cells if p.row + p.row_span < header_rows), key=lambda p: p.col)
        centers = [_center(p) for p in row]
        fitted = 0  # labels fitted by a rule or walls
        for k, p in enumerate(row):  # (a label set down to the body names its own column only)
            rule = _cmidrule_below(p, row, rules, size)
            if rule is not None:
                cols = [i for i, c in enumerate(columns) if _overlap(c, rule.x0, rule.x1) > 0.5 * (c.x1 - c.x0)]
                if cols:
                    p.col, p.col_span = cols[0], cols[-1] - cols[0] + 1
                fitted += 1
                continue
            lo = (centers[k - 1] + centers[k]) / 2 if k > 0 else float("-inf")
            hi = (centers[k] + centers[k + 1]) / 2 if k + 1 < len(row) else float("inf")
            walls = _walls(p, rules)
            if walls is not None:  # vertical rules on both sides bound the block the header names
                inside = [i for i, c in enumerate(columns) if walls[0] <= c.center <= walls[1]]
                if inside:
                    p.col, p.col_span = inside[0], inside[-1] - inside[0] + 1
                fitted += 1
                continue
            own = range(p.col, p.col + p.col_span)
            blocks = {block[i] for i in own}
            cell = [
                i
                for i, c in enumerate(columns)
                if i in own or (lo <= c.center <= hi and i >= stubs and i not in full and block[i] in blocks)
            ]
            p.col, p.col_span = _centred_run(cell, p, columns)
            if p.col_span == len(own) == 1 and abs(min(w.x0 for w in p.words) - columns[p.col].x0) <= 0.3 * size:
                below = {c for q in placed if r < q.row < header_rows for c in range(q.col, q.col + q.col_span)}
                p.col_span = _flush_left_run(cell, p, below)
        if not fitted:
            _fill_to_next(row, placed, r, header_rows, len(columns))


def span_lone_headers(placed: list[Placed], header_rows: int, rules: list[Rule]) -> bool:
    """A header label alone in its columns, beside the short rule that separates the header's levels over
    the other columns (no rule runs under it, or the rule runs on under a one-column label with nothing
    under it), names its columns on every header row: it spans them all. Returns whether any did."""
    header = [p for p in placed if p.row < header_rows]
    if header_rows < 2 or not header:
        return False
    first = [w for p in header if p.row == 0 for w in p.words]
    last = [w for p in header if p.row + p.row_span == header_rows for w in p.words]
    if not first or not last:
        return False
    top, bottom = max(w.baseline for w in first), min(w.top for w in last)  # between the levels
    inner = [r for r in rules if r.horizontal and top < r.y < bottom + 1]
    spanned = False
    for p in header if inner else []:
        x0, x1 = min(w.x0 for w in p.words), max(w.x1 for w in p.words)
        others = [q for q in header if q is not p]
        below = {c for q in others if q.row > p.row for c in range(q.col, q.col + q.col_span)}
        ruled = any(r.x0 - 2 <= (x0 + x1) / 2 <= r.x1 + 2 for r in inner)
        if p.row_span > 1 or (ruled and (p.col_span > 1 or p.row > 0 or p.col in below)):
            continue  # a group label over its sub-labels; one column with nothing under it is no group
        if any(min(w.x0 for w in q.words) < x1 and max(w.x1 for w in q.words) > x0 for q in others):
            continue  # another label over or under it
        taken = {c for q in others for c in range(q.col, q.col + q.col_span)}
        own = [c for c in range(p.col, p.col + p.col_span) if c not in taken]  # a long label reaching over
        if own and own == list(range(own[0], own[-1] + 1)):
            p.row, p.row_span, p.col, p.col_span = 0, header_rows, own[0], len(own)
            spanned = True
    return spanned


def _fill_to_next(row: list[Placed], placed: list[Placed], r: int, header_rows: int, n_cols: int) -> None:
    """Group labels (labels with sub-labels under them) all set flush left with their first sub-label, with
    no rule to say how far each reaches: each covers the columns from there up to the next label of its row,
    as far as they have sub-labels."""
    lower = [q for q in placed if r < q.row < header_rows]
    below = {c for q in lower for c in range(q.col, q.col + q.col_span)}
    starts = {}
    for p in row:  # flush left: the label starts where a sub-label under it starts
        x0 = min(w.x0 for w in p.words)
        start = next((q.col for q in lower if abs(min(w.x0 for w in q.words) - x0) <= 1.0), None)
        if start is not None:
            starts[id(p)] = start
    groups = [p for p in row if starts.get(id(p)) in below]
    if len(groups) < 2 or any(id(p) not in starts for p in row if p.col + p.col_span - 1 in below):
        return
    edges = sorted(starts.get(id(p), p.col) for p in row)
    for p in groups:
        start = starts[id(p)]
        end = next((e for e in edges if e > start), n_cols)
        span = 1
        while start + span < end and start + span in below:
            span += 1
        p.col, p.col_span = start, span


def _flush_left_run(cands: list[int], p: Placed, below: set[int]) -> int:
    """A group label set flush left over its first column reaches over the next candidate columns that
    have labels of their own below it (the group has no other label)."""
    end = p.col + p.col_span
    while end in cands and end in below:
        end += 1
    return end - p.col


def _walls(p: Placed, rules: list[Rule]) -> tuple[float, float] | None:
    """The nearest vertical rules left and right of a header cell, at its height."""
    x0, x1 = min(w.x0 for w in p.words), max(w.x1 for w in p.words)
    top, bottom = min(w.top for w in p.words), max(w.bottom for w in p.words)
    beside = [r.x for r in rules if not r.horizontal and r.top <= (top + bottom) / 2 <= r.bottom]
    left = [x for x in beside if x <= x0 + 1]
    right = [x for x in beside if x >= x1 - 1]
    return (max(left), min(right)) if left and right else None


def _overlap(col: Column, x0: float, x1: float) -> float:
    return min(col.x1, x1) - max(col.x0, x0)


def _center(p: Placed) -> float:
    return (min(w.x0 for w in p.words) + max(w.x1 for w in p.words)) / 2


def _cmidrule_below(p: Placed, row: list[Placed], rules: list[Rule], size: float) -> Rule | None:
    """A rule right under the header, under no other header of its row (a rule under several groups
    separates header levels; it does not say which group covers what)."""
    x0, x1 = min(w.x0 for w in p.words), max(w.x1 for w in p.words)
    bottom = max(w.bottom for w in p.words)
    others = [(min(w.x0 for w in q.words), max(w.x1 for w in q.words)) for q in row if q is not p]
    for rule in rules:
        if not rule.horizontal or not (bottom - 0.3 * size <= rule.y <= bottom + 0.9 * size):
            continue
        if any(rule.x0 < b and a < rule.x1 for a, b in others):
            continue
        if rule.x0 <= x0 + 2 and rule.x1 >= x1 - 2 and rule.x1 - rule.x0 < 6 * (x1 - x0) + 40:
            return rule
    return None


def _centred_run(cands: list[int], p: Placed, columns: list[Column]) -> tuple[int, int]:
    """The widest run of candidate columns, containing the header's own columns, centred on the header: the
    run's edges lie somewhere in the gaps beside it, so its middle may lie anywhere between the two
    extremes; the header's centre must fall there."""
    own = set(range(p.col, p.col + p.col_span))
    center = _center(p)
    slack = 2.0 + 0.05 * (max(w.x1 for w in p.words) - min(w.x0 for w in p.words))
    best = (p.col, p.col_span)
    for i in range(len(cands)):
        for j in range(i, len(cands)):
            run = cands[i : j + 1]
            if run != list(range(run[0], run[-1] + 1)) or not own <= set(run):
                continue
            first, last = columns[run[0]], columns[run[-1]]
            outer_left = columns[run[0] - 1].x1 if run[0] > 0 else first.x0
            outer_right = columns[run[-1] + 1].x0 if run[-1] + 1 < len(columns) else last.x1
            lowest, highest = (outer_left + last.x1) / 2, (first.x0 + outer_right) / 2
            if lowest - slack <= center <= highest + slack and len(run) > best[1]:
                best = (run[0], len(run))
    return best


def column_paths(placed: list[Placed], header_rows: int, n_cols: int) -> list[list[str]]:
    """For each column, the header texts over it, top row first (a spanning header counts for each column)."""
    paths: list[list[str]] = [[] for _ in range(n_cols)]
    for r in range(header_rows):
        for p in placed:
            if p.row == r:
                text = join_words(p.words)
                for c in range(p.col, min(p.col + p.col_span, n_cols)):
                    if text and (not paths[c] or paths[c][-1] != text):
                        paths[c].append(text)
    return paths


def row_paths(filled: list[list[str]], header_rows: int, stub_cols: int, group_rows: set[int]) -> list[list[str]]:
    """For each row, the row-group label above it (if any) and its stub texts (spanning stubs included)."""
    paths: list[list[str]] = []
    group: str | None = None
    for r, row in enumerate(filled):
        if r < header_rows:
            paths.append([])
            continue
        if r in group_rows:
            group = next((t for t in row if t), None)
            paths.append([group] if group else [])
            continue
        stubs = [t for i, t in enumerate(row[:stub_cols]) if t and (i == 0 or t != row[i - 1])]
        paths.append(([group] if group else []) + stubs)
    return paths
