"""Body rows ruled apart (a rule under every row, or between paragraph-long rows): the lines between two rules
are one row whose cells wrap, unless they are rows of their own (a column with a value on two lines)."""

from __future__ import annotations

import re
from bisect import bisect_right

from pipeline.extract.grid.columns import Placed
from pipeline.extract.page.words import join_words
from pipeline.extract.reading.graphics import Rule
from pipeline.numbers import looks_numeric

_NUMBER = re.compile(r"\d[\d.]*")
_WORD = re.compile(r"[^\W\d_]{2,}")


def join_ruled_bands(
    placed: list[Placed], header_rows: int, hrules: list[Rule], box: tuple[float, float, float, float]
) -> tuple[list[Placed], bool, list[str]]:
    """The placed cells with each ruled band of wrapped body lines made one row, whether any was, and why."""
    x0, _, x1, _ = box
    body = [p for p in placed if p.row >= header_rows]
    if len(body) < 2:
        return placed, False, []
    top = min(min(w.top for w in p.words) for p in body)
    bottom = max(max(w.bottom for w in p.words) for p in body)
    inside = [r for r in hrules if top < r.y < bottom]
    full = [r.y for r in inside if r.x1 - r.x0 >= 0.8 * (x1 - x0)]
    if not full:
        return placed, False, []
    partial = [r for r in inside if 0.3 * (x1 - x0) <= r.x1 - r.x0 < 0.8 * (x1 - x0)] if len(full) >= 3 else []
    cuts = sorted(full + [r.y for r in partial])
    band_of = {id(p): bisect_right(cuts, _middle(p)) for p in body}
    bands: dict[int, list[int]] = {}
    for p in body:
        rows = bands.setdefault(band_of[id(p)], [])
        rows += [] if p.row in rows else [p.row]
    stacked = [rows for rows in bands.values() if len(rows) > 1]
    if not (stacked or partial) or any(_rows_of_their_own(body, rows) for rows in stacked):
        return placed, False, []
    order = {band: header_rows + i for i, band in enumerate(sorted(bands))}
    joined: dict[tuple[int, int], Placed] = {}
    out = [p for p in placed if p.row < header_rows]
    for p in sorted(body, key=lambda p: (p.row, p.col)):
        key = (order[band_of[id(p)]], p.col)
        p.row_span = 1  # a cell centred across its band's lines is now on the band's one row
        if key in joined:
            joined[key].words.extend(p.words)
            joined[key].col_span = max(joined[key].col_span, p.col_span)
            continue
        p.row = key[0]
        joined[key] = p
        out.append(p)
    notes = ["rules under every row: the lines between two rules are one row"] if stacked else []
    if _clip_spans(out, header_rows):
        notes.append("a line alone above its band's values is a line of a wrapped cell, not a group label")
    if _merge_across(out, partial, [order.get(bisect_right(cuts, r.y), -1) for r in partial]):
        notes.append("a rule stopping short of a column: that column's cell spans the rows it leaves unruled")
    return out, bool(stacked), notes


def _clip_spans(cells: list[Placed], header_rows: int) -> bool:
    """A cell spanning its row (a line read alone as a group label) whose band also holds cells of the columns
    it covers is one line of the band's wrapped stub (the values set on a middle line): it keeps its own column."""
    clipped = False
    for p in cells:
        if p.row < header_rows or p.col_span == 1:
            continue
        beside = [q.col for q in cells if q is not p and q.row == p.row and p.col < q.col < p.col + p.col_span]
        if beside:
            p.col_span = min(beside) - p.col
            clipped = True
    return clipped


def _merge_across(cells: list[Placed], partial: list[Rule], below_rows: list[int]) -> bool:
    """Where a rule between two rows stops short of a column, the cell above spans down over the empty cell
    below it (the rows share one merged cell, eLife)."""
    merged = False
    for rule, row in sorted(zip(partial, below_rows, strict=True), key=lambda item: item[0].y):
        if row < 1:
            continue
        for p in cells:
            x = sum((w.x0 + w.x1) / 2 for w in p.words) / len(p.words)
            unruled = x < rule.x0 or x > rule.x1
            if not unruled or p.row + p.row_span != row:
                continue
            if not any(q.row == row and q.col <= p.col < q.col + q.col_span for q in cells):
                p.row_span += 1
                merged = True
    return merged


def _middle(p: Placed) -> float:
    return sum((w.top + w.bottom) / 2 for w in p.words) / len(p.words)


def _one_value(text: str) -> bool:
    """A cell's value (with its interval at most); a wrapped list of numbers ('25, 12.5, 6.25,') or a range
    broken after its dash ('22.5–') is not."""
    if text.endswith(("-", "–", "—")):
        return False
    return looks_numeric(text) and len(_NUMBER.findall(text)) <= 3 and not _WORD.search(text)


def _rows_of_their_own(body: list[Placed], rows: list[int]) -> bool:
    """Lines of one band that are rows: a column holds a value on two of them, or every line fills the
    band's columns (wrapped text leaves columns empty)."""
    cells = [p for p in body if p.row in rows]
    cols = {p.col for p in cells}
    for col in cols:
        if sum(_one_value(join_words(p.words)) for p in cells if p.col == col) >= 2:
            return True
    return all(len({p.col for p in cells if p.row == r}) == len(cols) for r in rows) and len(cols) > 1
