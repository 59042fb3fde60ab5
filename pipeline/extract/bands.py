"""Body rows ruled apart (a rule under every row, or between paragraph-long rows): the lines between two rules
are one row whose cells wrap, unless they are rows of their own (a column with a value on two lines)."""

from __future__ import annotations

import re
from bisect import bisect_right

from pipeline.extract.chars import Rule
from pipeline.extract.grid import Placed
from pipeline.extract.words import join_words
from pipeline.numbers import looks_numeric

_NUMBER = re.compile(r"\d[\d.]*")
_WORD = re.compile(r"[^\W\d_]{2,}")


def join_ruled_bands(
    placed: list[Placed], header_rows: int, hrules: list[Rule], box: tuple[float, float, float, float]
) -> tuple[list[Placed], bool]:
    """The placed cells with each ruled band of wrapped body lines made one row, and whether any was."""
    x0, _, x1, _ = box
    body = [p for p in placed if p.row >= header_rows]
    if len(body) < 2:
        return placed, False
    top = min(min(w.top for w in p.words) for p in body)
    bottom = max(max(w.bottom for w in p.words) for p in body)
    cuts = sorted(r.y for r in hrules if r.x1 - r.x0 >= 0.8 * (x1 - x0) and top < r.y < bottom)
    if not cuts:
        return placed, False
    band_of = {id(p): bisect_right(cuts, _middle(p)) for p in body}
    bands: dict[int, list[int]] = {}
    for p in body:
        rows = bands.setdefault(band_of[id(p)], [])
        rows += [] if p.row in rows else [p.row]
    stacked = [rows for rows in bands.values() if len(rows) > 1]
    if not stacked or any(_rows_of_their_own(body, rows) for rows in stacked):
        return placed, False
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
    return out, True


def _middle(p: Placed) -> float:
    return sum((w.top + w.bottom) / 2 for w in p.words) / len(p.words)


def _one_value(text: str) -> bool:
    """A cell's value (with its interval at most); a wrapped list of numbers ('25, 12.5, 6.25,') is not."""
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
