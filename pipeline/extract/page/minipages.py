"""Captions set side by side (minipages): the whitespace band between them splits the lines around them
into two local columns, so that each caption grows its own table and no line mixes the two."""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import permutations

from pipeline.extract.page.gutters import cut_line
from pipeline.extract.page.words import Line
from pipeline.extract.regions.captions import bare_caption_label, is_figure_caption

_NAMED = re.compile(r"Tab|TAB|Fig|FIG|Exhibit|EXHIBIT")  # cheap test before looking for caption starts


@dataclass(frozen=True)
class Band:
    """A vertical strip of whitespace at ``x`` that splits the page's lines between ``top`` and ``bottom``."""

    x: float
    top: float
    bottom: float

    def splits(self, top: float, bottom: float) -> bool:
        return self.top - 1 <= top and bottom <= self.bottom + 1


def find_bands(lines: list[Line], size: float, reach: float = 12.0) -> list[Band]:
    """Bands between two caption starts side by side (within ``reach`` line heights of each other)."""
    starts = [
        f
        for ln in lines
        if _NAMED.search(ln.text)
        for f in ln.pieces
        if bare_caption_label(f.text) or is_figure_caption(f.text)
    ]
    ordered = sorted(lines, key=lambda ln: ln.top)
    bands: list[Band] = []
    for a, b in permutations(starts, 2):
        if a.x1 >= b.x0 or abs(a.top - b.top) > reach * size:
            continue
        band = _band_between(ordered, a, b, size)
        if band is not None and not any(o.splits(band.top, band.top) and abs(o.x - band.x) < size for o in bands):
            bands.append(band)
    return bands


def _band_between(lines: list[Line], a: Line, b: Line, size: float) -> Band | None:
    """The widest strip between ``a`` and ``b`` that every line from theirs outwards leaves free, grown up
    and down until a line (running text) crosses it."""
    lo = int(a.x1) + 1
    free = [True] * max(int(b.x0) - lo, 0)
    first = min(i for i, ln in enumerate(lines) if ln.top >= min(a.top, b.top) - 0.5)
    last = max(i for i, ln in enumerate(lines) if ln.top <= max(a.top, b.top) + 0.5)
    for ln in lines[first : last + 1]:
        free = _block(free, lo, ln)
    if _widest(free)[1] < size:
        return None
    while first > 0 and _widest(trial := _block(free, lo, lines[first - 1]))[1] >= size:
        first, free = first - 1, trial
    while last + 1 < len(lines) and _widest(trial := _block(free, lo, lines[last + 1]))[1] >= size:
        last, free = last + 1, trial
    start, width = _widest(free)
    return Band(lo + start + width / 2, lines[first].top, lines[last].bottom)


def _block(free: list[bool], lo: float, line: Line) -> list[bool]:
    out = list(free)
    for w in line.words:
        for x in range(max(int(w.x0) - int(lo), 0), min(int(w.x1) + 1 - int(lo), len(out))):
            out[x] = False
    return out


def _widest(free: list[bool]) -> tuple[int, int]:
    """Start and length of the longest run of free points."""
    best, start = (0, 0), None
    for i, ok in enumerate([*free, False]):
        if ok and start is None:
            start = i
        elif not ok and start is not None:
            best = max(best, (start, i - start), key=lambda run: run[1])
            start = None
    return best


def cut_at_bands(lines: list[Line], bands: list[Band]) -> list[Line]:
    out: list[Line] = []
    for ln in lines:
        parts = [ln]
        for band in bands:
            if band.splits(ln.top, ln.bottom):
                parts = [piece for part in parts for piece in cut_line(part, band.x)]
        out.extend(parts)
    return sorted(out, key=lambda ln: (ln.baseline, ln.x0))
