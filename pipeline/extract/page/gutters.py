"""The page's column layout: the gutters between text columns, and lines cut at them."""

from __future__ import annotations

from itertools import pairwise

from pipeline.extract.page.words import Line


def find_gutters(lines: list[Line], page_width: float) -> list[float]:
    """x of each whitespace band that splits the running text into columns (none on a one-column page).

    Only stretches of running text vote (table rows and full-width figures would blur the bands): a band
    in the inner part of the page that (almost) none of them crosses, with text on both sides, is a gutter.
    Running text left of a gutter starts at the page's left text edge; a band whose left-hand stretches all
    start well inside the page parts a table's columns (the second one's long cells), not the page's.
    """
    texts = [
        f for ln in lines for f in ln.pieces if f.x1 - f.x0 > 0.15 * page_width and len(f.words) >= 4 and _worded(f)
    ]
    if len(texts) < 8:
        return []
    lo, hi = int(page_width * 0.2), int(page_width * 0.8)
    cover = [0] * (hi - lo)
    for f in texts:
        for x in range(max(lo, int(f.x0)), min(hi, int(f.x1) + 1)):
            cover[x - lo] += 1
    limit = max(1, len(texts) // 10)
    gutters = []
    start = None
    for i, c in enumerate([*cover, limit + 1]):
        if c <= limit and start is None:
            start = i
        elif c > limit and start is not None:
            if i - start >= 4 and start > 0 and i < len(cover):
                gutters.append(lo + (start + i) / 2)
            start = None
    margin = min((ln.x0 for ln in lines if ln.x1 - ln.x0 > 0.2 * page_width), default=min(f.x0 for f in texts))
    return [g for g in gutters if _text_on_both_sides(texts, g, margin, page_width)]


def _worded(piece: Line) -> bool:
    """Running text is mostly letters (a row of a table of numbers, however long, is not)."""
    text = piece.text.replace(" ", "")
    return sum(ch.isalpha() for ch in text) >= 0.5 * len(text)


def _text_on_both_sides(texts: list[Line], gutter: float, margin: float, page_width: float) -> bool:
    left = [f for f in texts if gutter - 0.45 * (f.x1 - f.x0) - 20 <= f.x1 <= gutter]
    right = sum(1 for f in texts if gutter <= f.x0 <= gutter + 20)
    from_margin = sum(f.x0 <= margin + 0.04 * page_width for f in texts if f.x1 <= gutter)
    return min(len(left), right) >= 0.15 * len(texts) and from_margin >= 0.25 * len(left)


def column_of(x0: float, x1: float, gutters: list[float], text_x0: float, text_x1: float) -> tuple[float, float]:
    """The column a box sits in, or the whole text width when it crosses a gutter."""
    edges = [text_x0, *gutters, text_x1]
    for a, b in pairwise(edges):
        if x0 >= a - 2 and x1 <= b + 2:
            return (a, b)
    return (text_x0, text_x1)


def cut_at_gutters(lines: list[Line], gutters: list[float]) -> list[Line]:
    """Each line split into its column parts (a line with a word across a gutter, or an ordinary word
    space at it, as in a centred caption, stays whole there)."""
    out: list[Line] = []
    for ln in lines:
        parts = [ln]
        for g in gutters:
            parts = [piece for part in parts for piece in cut_line(part, g)]
        out.extend(parts)
    return sorted(out, key=lambda ln: (ln.baseline, ln.x0))


def cut_line(ln: Line, gutter: float, narrowest: float | None = None) -> list[Line]:
    """The line in its parts either side of ``gutter``, where the gap there is at least ``narrowest`` points
    (an em unless told: narrower is an ordinary word space)."""
    if any(w.x0 < gutter < w.x1 for w in ln.words):
        return [ln]
    left = [w for w in ln.words if w.x1 <= gutter]
    right = [w for w in ln.words if w.x0 >= gutter]
    if left and right and right[0].x0 - left[-1].x1 < min(narrowest or ln.size, ln.size):
        return [ln]
    return [Line(part) for part in (left, right) if part]
