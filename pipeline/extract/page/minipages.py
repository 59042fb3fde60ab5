"""Captions set side by side (minipages): the whitespace band between them splits the lines around them
into local columns, so that each caption grows its own table and no line mixes two. Two caption starts on
one text line part it even where the gap between them is narrower than an em (captions filling their
minipages): that split is the page's least certain one, so the band says it is narrow."""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise, permutations

from pipeline.extract.page.gutters import cut_line
from pipeline.extract.page.words import Line, Word
from pipeline.extract.regions.captions import bare_caption_label, caption_label, is_figure_caption

_NAMED = re.compile(r"Tab|TAB|Fig|FIG|Exhibit|EXHIBIT")  # cheap test before looking for caption starts


@dataclass(frozen=True)
class Band:
    """A vertical strip of whitespace at ``x`` that splits the page's lines between ``top`` and ``bottom``."""

    x: float
    top: float
    bottom: float
    width: float = 0.0  # of the widest free strip: the narrowest gap a line is cut at
    narrow: bool = False  # parts lines narrower than an em apart: a guess the tables under it should doubt

    def splits(self, top: float, bottom: float) -> bool:
        return self.top - 1 <= top and bottom <= self.bottom + 1


def find_bands(lines: list[Line], size: float, reach: float = 12.0) -> list[Band]:
    """Bands between two caption starts side by side (within ``reach`` line heights of each other)."""
    starts = [f for ln in lines if _NAMED.search(ln.text) for f in _caption_starts(ln)]
    ordered = sorted(lines, key=lambda ln: ln.top)
    bands: list[Band] = []
    for a, b in permutations(starts, 2):
        if a.x1 >= b.x0 or abs(a.top - b.top) > reach * size:
            continue
        same_line = abs(a.top - b.top) < 0.5 * size
        band = _band_between(ordered, a, b, size, NARROW_GAP * size if same_line else size)
        if band is not None and not any(o.splits(band.top, band.top) and abs(o.x - band.x) < size for o in bands):
            bands.append(band)
    return bands


NARROW_GAP = 0.4  # ems: wider than a word space, so two caption starts this far apart on a line are two captions


def _caption_starts(line: Line) -> list[Line]:
    """The pieces of the line that start a caption; a piece that starts one and holds another caption start
    further on (two captions filling their minipages, an ordinary space apart) is two starts."""
    starts = []
    for piece in line.pieces:
        if not (bare_caption_label(piece.text) or is_figure_caption(piece.text)):
            continue
        cuts = [i for i in range(2, len(piece.words)) if _starts_caption(piece.words[i:], piece.words[i - 1])]
        starts.extend(Line(piece.words[i:j]) for i, j in pairwise([0, *cuts, len(piece.words)]))
    return starts


def _starts_caption(words: list[Word], before: Word) -> bool:
    """A punctuated caption start ("Table 2:", "Figure 3.") after a gap wider than a word space."""
    text = " ".join(w.text for w in words)
    wide = words[0].x0 - before.x1 >= NARROW_GAP * words[0].size
    return wide and (caption_label(text) is not None or is_figure_caption(text))


def _band_between(lines: list[Line], a: Line, b: Line, size: float, need: float) -> Band | None:
    """The widest strip between ``a`` and ``b`` that every line from theirs outwards leaves free (at least
    ``need`` wide), grown up and down until a line (running text) crosses it."""
    lo = int(a.x1) + 1
    free = [True] * max(int(b.x0) - lo, 0)
    first = min(i for i, ln in enumerate(lines) if ln.top >= min(a.top, b.top) - 0.5)
    last = max(i for i, ln in enumerate(lines) if ln.top <= max(a.top, b.top) + 0.5)
    for ln in lines[first : last + 1]:
        free = _block(free, lo, ln)
    if _widest(free)[1] < need:
        return None
    while first > 0 and _widest(trial := _block(free, lo, lines[first - 1]))[1] >= need:
        first, free = first - 1, trial
    while last + 1 < len(lines) and _widest(trial := _block(free, lo, lines[last + 1]))[1] >= need:
        last, free = last + 1, trial
    start, width = _widest(free)
    x = lo + start + width / 2
    bridged = any(_bridges(ln, x, size) for ln in lines[first : last + 1])
    return Band(x, lines[first].top, lines[last].bottom, width, width < size and bridged)


def _bridges(line: Line, x: float, size: float) -> bool:
    """The line has words either side of ``x`` less than an em apart: only the band parts them."""
    left = [w for w in line.words if w.x1 <= x]
    right = [w for w in line.words if w.x0 >= x]
    return bool(left and right) and right[0].x0 - left[-1].x1 < size


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
                parts = [piece for part in parts for piece in cut_line(part, band.x, band.width)]
        out.extend(parts)
    return sorted(out, key=lambda ln: (ln.baseline, ln.x0))
