"""Regions that are figures, not tables, told by what is drawn in them (images, vector marks, heat-map tiles,
bars, axis ticks) and by how their words sit (short labels scattered rather than set in rows and columns).
Each signal that fires says why in words; the drawing comes from the one walk over the page's objects that
also finds its rules (reading/graphics.py)."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import median

from pipeline.extract.page.layout import PageLayout
from pipeline.extract.page.words import Line, Word
from pipeline.extract.reading.chars import PageContent
from pipeline.extract.reading.clips import Box, intersection
from pipeline.extract.reading.graphics import Rule
from pipeline.numbers import parse_number

Signal = Callable[[PageLayout, Box], str | None]

IMAGE_SHARE = 0.3  # an image under this share of a region is a figure (a logo or an icon in a cell is less)
BACKGROUND_SHARE = 0.8  # an image over this share of the page is its background or a scan, not a figure
EDGE_TO_EDGE = 0.95  # ... and so is one that spans the page's width or height (a page background in strips)
MIN_MARKS = 10  # curves, slanted strokes and markers off the text rows: a plot's ink (a table draws none)
MARKS_PER_WORD = 0.5  # ... and at least this many per word in the region
MIN_TILES = 12  # filled boxes of one size abutting in a grid of at least 3 x 3 places: a heat map
MIN_SHADES = 4  # ... in this many colours (a table shades its header or every other row in one or two)
MIN_BARS = 3  # empty filled boxes from one baseline, of one thickness and different lengths: a bar chart
MIN_TICKED = 3  # evenly spaced numeric labels, each with a tick or grid line at it: an axis
MIN_LABELS = 6  # short labels, too few of them in rows and columns: labels scattered over a drawing
ALIGNED_SHARE = 0.3  # ... under this share of them share a row and a column with others
MIN_BOXES = 3  # closed frames round text, standing apart: a flowchart's steps (a boxed note is one)
ABUT = 1.5  # frames or rules this close touch


def area(box: Box) -> float:
    return max(box[2] - box[0], 0.0) * max(box[3] - box[1], 0.0)


def overlap(a: Box, b: Box) -> float:
    return area(intersection(a, b))


def centred_in(item: Rule, box: Box) -> bool:
    return box[0] <= item.x <= box[2] and box[1] <= item.y <= box[3]


def bounds(rule: Rule) -> Box:
    return (rule.x0, rule.top, rule.x1, rule.bottom)


def image_cover(layout: PageLayout, box: Box) -> str | None:
    """Raster images under the region: a photograph, a screenshot or a plot pasted as a picture."""
    images = [bounds(im) for im in layout.content.drawing.images if not background(im, layout.content)]
    share = min(1.0, sum(overlap(im, box) for im in images) / max(area(box), 1e-6))
    return f"an image covers {share:.0%} of it" if share >= IMAGE_SHARE else None


def background(image: Rule, content: PageContent) -> bool:
    width, height = image.x1 - image.x0, image.bottom - image.top
    edge_to_edge = width >= EDGE_TO_EDGE * content.width or height >= EDGE_TO_EDGE * content.height
    return edge_to_edge or width * height >= BACKGROUND_SHARE * content.width * content.height


def vector_marks(layout: PageLayout, box: Box) -> str | None:
    """Curves, slanted strokes and markers drawn off the text rows (a symbol in a table's row is on one)."""
    marks = [m for m in layout.content.drawing.marks if centred_in(m, box)]
    words = layout.words_in(*box)
    rows = [(w.top, w.bottom) for w in words]
    small = 1.5 * layout.body_size
    dotted = _dotted(marks)
    ink = [
        m
        for m in marks
        if id(m) not in dotted and (m.length > small or not any(top <= m.y <= bottom for top, bottom in rows))
    ]
    if len(ink) < max(MIN_MARKS, MARKS_PER_WORD * len(words)):
        return None
    return f"{len(ink)} vector marks (curves, slanted strokes, markers) against {len(words)} words"


def _dotted(marks: list[Rule]) -> set[int]:
    """Tiny marks five or more to a line: a dotted rule, not a plot."""
    dots = [m for m in marks if m.length <= 2.0]
    rows = Counter(round(m.y) for m in dots)
    return {id(m) for m in dots if rows[round(m.y)] >= 5}


def filled_tiles(layout: PageLayout, box: Box) -> str | None:
    """Filled boxes of one size and many shades abutting each other in a grid of three or more rows and
    columns: a heat map (a table shades its header, or every other row, in one or two colours)."""
    fills = [f for f in layout.content.drawing.fills if centred_in(f, box) and min(f.x1 - f.x0, f.bottom - f.top) >= 4]
    if len(fills) < MIN_TILES:
        return None
    width, height = median(f.x1 - f.x0 for f in fills), median(f.bottom - f.top for f in fills)
    tiles = [
        f for f in fills if abs(f.x1 - f.x0 - width) <= 0.15 * width and abs(f.bottom - f.top - height) <= 0.15 * height
    ]
    abutting = [t for t in tiles if any(_abut(t, u) for u in tiles if u is not t)]
    columns, rows = {round(t.x0) for t in abutting}, {round(t.top) for t in abutting}
    full = len(abutting) >= 0.6 * len(columns) * len(rows)  # a grid filled with tiles, not markers strewn about
    shades = len({t.shade for t in abutting})
    if len(abutting) < MIN_TILES or len(columns) < 3 or len(rows) < 3 or not full or shades < MIN_SHADES:
        return None
    grid = f"{len(rows)} x {len(columns)} grid"
    return f"{len(abutting)} filled tiles of one size in {shades} shades abutting in a {grid} (a heat map)"


def _abut(a: Rule, b: Rule) -> bool:
    across = min(a.bottom, b.bottom) - max(a.top, b.top) > 0.5 * (a.bottom - a.top)
    along = min(a.x1, b.x1) - max(a.x0, b.x0) > 0.5 * (a.x1 - a.x0)
    side = abs(a.x1 - b.x0) <= 1.0 or abs(b.x1 - a.x0) <= 1.0
    stacked = abs(a.bottom - b.top) <= 1.0 or abs(b.bottom - a.top) <= 1.0
    return (across and side) or (along and stacked)


def bars(layout: PageLayout, box: Box) -> str | None:
    """Filled boxes clear of text, of one thickness, standing on one baseline with different lengths and free
    far ends: a bar chart (a table's shading lies behind its words, and its cells' backgrounds abut)."""
    words = [(w.x0, w.top, w.x1, w.bottom) for w in layout.words_in(*_grown(box, 2 * layout.body_size))]
    fills = [f for f in layout.content.drawing.fills if overlap(bounds(f), box) > 0]  # (a bar reaches in from its base)
    sizes = Counter(_bar_base(f) for f in fills)  # (only a group of enough boxes is worth testing against words)
    clear = [f for f in fills if sizes[_bar_base(f)] >= MIN_BARS and not _behind_words(f, words)]
    groups: dict[tuple[str, int], list[Rule]] = {}
    for f in clear:
        groups.setdefault(_bar_base(f), []).append(f)
    for (base, _), group in groups.items():
        free = [f for f in group if not any(g is not f and _touches_end(f, g, base == "x0") for g in fills)]
        thick = [f.bottom - f.top if base == "x0" else f.x1 - f.x0 for f in free]
        long = [f.x1 - f.x0 if base == "x0" else f.bottom - f.top for f in free]
        if len(free) >= MIN_BARS and max(thick) <= 1.15 * min(thick) and max(long) - min(long) > 1.5:
            return f"{len(free)} bars of one thickness from one baseline, of different lengths (a bar chart)"
    return None


def _bar_base(f: Rule) -> tuple[str, int]:
    """Where a bar grows from: a horizontal one from its left end, an upright one from its bottom."""
    return ("x0", round(f.x0)) if f.x1 - f.x0 > f.bottom - f.top else ("bottom", round(f.bottom))


def _behind_words(fill: Rule, words: list[Box]) -> bool:
    return any(overlap(bounds(fill), w) > 0 for w in words)


def _touches_end(bar: Rule, other: Rule, across: bool) -> bool:
    """Another filled box starts where the bar ends (the next cell of a row of shaded cells)."""
    if across:
        return abs(other.x0 - bar.x1) <= 1.0 and min(bar.bottom, other.bottom) > max(bar.top, other.top)
    return abs(other.bottom - bar.top) <= 1.0 and min(bar.x1, other.x1) > max(bar.x0, other.x0)


def axis_ticks(layout: PageLayout, box: Box) -> str | None:
    """A run of evenly spaced numbers with evenly stepped values (0 0.2 0.4 ...), each with a tick or a grid
    line at it: an axis (a table's numbers have no stroke through their middles)."""
    words = [w for w in layout.words_in(*box) if any(ch.isdigit() for ch in w.text[:2])]
    if len(words) < MIN_TICKED:
        return None
    near = _grown(box, 15)
    pieces = [
        *(t for t in layout.content.drawing.ticks if centred_in(t, _grown(box, 25))),
        *(r for r in layout.content.drawing.rules if centred_in(r, near)),
    ]
    upright = _Strokes.of([p for p in pieces if not p.horizontal], upright=True)
    flat = _Strokes.of([p for p in pieces if p.horizontal], upright=False)
    ticked_by = {
        across: {id(w) for w in words if _ticked(w, upright if across else flat, across)} for across in (True, False)
    }
    if len(ticked_by[True] | ticked_by[False]) < MIN_TICKED:
        return None  # (too few labels with a tick to make an axis: no need to parse them, which is dear)
    numbers = [(w, float(n.value)) for w in words if (n := parse_number(w.text)) is not None]
    for across in (True, False):
        for run in _runs(numbers, across):
            ticked = [w for w, _ in run if id(w) in ticked_by[across]]
            if len(ticked) >= MIN_TICKED and len(ticked) >= 0.7 * len(run):
                labels = " ".join(w.text for w, _ in run)
                return f"axis ticks: {labels} evenly spaced, a tick at each"
    return None


def _grown(box: Box, pad: float) -> Box:
    return (box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad)


def _runs(numbers: list[tuple[Word, float]], across: bool) -> list[list[tuple[Word, float]]]:
    """Runs of three or more labels along one line (``across``: one baseline; else one right or left edge), at
    a constant pitch, whose values step evenly (a linear axis) or by one factor (a log axis)."""
    groups: dict[tuple[str, int], list[tuple[Word, float]]] = {}
    for w, value in numbers:
        keys = [("base", round(w.baseline))] if across else [("x1", round(w.x1)), ("x0", round(w.x0))]
        for key in keys:
            groups.setdefault(key, []).append((w, value))
    runs = []
    for group in groups.values():
        ordered = sorted(group, key=lambda item: item[0].center_x if across else item[0].middle)
        run: list[tuple[Word, float]] = []
        for item in ordered:
            if _extends(run, item, across):
                run.append(item)
                continue
            runs += [run] if len(run) >= 3 else []
            run = [run[-1], item]
        runs += [run] if len(run) >= 3 else []
    return runs


def _extends(run: list[tuple[Word, float]], item: tuple[Word, float], across: bool) -> bool:
    if len(run) < 2:
        return True
    (a, va), (b, vb), (c, vc) = run[-2], run[-1], item

    def at(w: Word) -> float:
        return w.center_x if across else w.middle

    pitch, step = at(b) - at(a), at(c) - at(b)
    even = pitch > 0 and abs(step - pitch) <= 0.1 * pitch + 1.0
    linear = vb != va and abs((vc - vb) - (vb - va)) <= 0.02 * abs(vb - va)
    factor = va != 0 and vb != 0 and vb / va > 0 and abs(vc / vb - vb / va) <= 0.02 * abs(vb / va)
    return even and (linear or factor)


@dataclass(frozen=True)
class _Strokes:
    """Strokes in the order of where they cross an axis line (x for upright ones, y for flat ones), so that
    a label looks only at those in line with it."""

    at: list[float]
    pieces: list[Rule]

    @classmethod
    def of(cls, pieces: list[Rule], upright: bool) -> _Strokes:
        ordered = sorted(pieces, key=lambda p: p.x if upright else p.y)
        return cls([p.x if upright else p.y for p in ordered], ordered)

    def near(self, centre: float, tolerance: float) -> list[Rule]:
        return self.pieces[bisect_left(self.at, centre - tolerance) : bisect_right(self.at, centre + tolerance)]


def _ticked(w: Word, strokes: _Strokes, across: bool) -> bool:
    """A stroke across the label's axis line at its centre, starting right by the label: under or over a
    label on a horizontal axis (``strokes``: the upright ones), beside one on a vertical axis (the flat ones)."""
    reach = 6.0 + 0.5 * w.size
    if across:
        return any(
            0 <= w.top - p.bottom <= reach or 0 <= p.top - w.bottom <= reach
            for p in strokes.near(w.center_x, max(1.5, 0.15 * w.size))
        )
    return any(-1 <= p.x0 - w.x1 <= reach or -1 <= w.x0 - p.x1 <= reach for p in strokes.near(w.middle, 0.3 * w.size))


def scattered_labels(layout: PageLayout, box: Box) -> str | None:
    """Short labels of which few share a row with another and a column with another (a table's cells do)."""
    lines = [ln for ln in layout.column_lines if centred_in(Rule(ln.x0, ln.top, ln.x1, ln.bottom), box)]
    pieces = [(n, p) for n, ln in enumerate(lines) for p in ln.pieces]
    short = [(n, p) for n, p in pieces if len(p.words) <= 4]
    if len(short) < MIN_LABELS or len(short) < 0.8 * len(pieces):
        return None
    per_line = Counter(n for n, _ in pieces)
    aligned = 0
    for n, p in short:
        aligned += per_line[n] >= 2 and any(
            m != n and (abs(p.x0 - q.x0) < 2 or abs(p.x1 - q.x1) < 2 or abs((p.x0 + p.x1 - q.x0 - q.x1) / 2) < 2)
            for m, q in pieces
        )
        if aligned >= ALIGNED_SHARE * len(short):  # (a table's cells are: no need to look at the rest)
            return None
    return f"{len(short)} short labels, {aligned} of them in a row and a column with others"


def separate_boxes(layout: PageLayout, box: Box) -> str | None:
    """Closed frames each round its own words, standing apart with empty space between them: the boxed steps
    of a flowchart or a diagram (a table that boxes its cells draws them abutting, sharing their rules)."""
    rules = [r for r in layout.content.drawing.rules if overlap(bounds(r), _grown(box, 1.0)) > 0 or centred_in(r, box)]
    frames = _frames(rules)
    apart = [f for f in frames if not any(g is not f and overlap(_grown(f, ABUT), g) > 0 for g in frames)]
    words = [(w.x0, w.top, w.x1, w.bottom) for w in layout.words_in(*box)]
    framed = [f for f in apart if any(overlap(f, w) >= 0.9 * area(w) for w in words)]
    if len(framed) < MIN_BOXES:
        return None
    return f"{len(framed)} framed boxes of text standing apart (a flowchart or diagram)"


def _frames(rules: list[Rule]) -> list[Box]:
    """Rectangles drawn with rules: two horizontal rules of one extent, the next one below the other, joined at
    both ends by vertical rules that cover the height between them."""
    flat = sorted((r for r in rules if r.horizontal), key=lambda r: r.y)
    upright = [r for r in rules if not r.horizontal]

    def side(x: float, top: float, bottom: float) -> bool:
        return any(abs(v.x - x) <= ABUT and v.top <= top + ABUT and v.bottom >= bottom - ABUT for v in upright)

    frames = []
    for k, a in enumerate(flat):
        same = (b for b in flat[k + 1 :] if abs(b.x0 - a.x0) <= ABUT and abs(b.x1 - a.x1) <= ABUT and b.y - a.y > ABUT)
        b = next(same, None)
        if b is not None and side(a.x0, a.y, b.y) and side(a.x1, a.y, b.y):
            frames.append((a.x0, a.y, a.x1, b.y))
    return frames


FIGURE_SIGNALS: dict[str, Signal] = {
    "image": image_cover,
    "vector marks": vector_marks,
    "filled tiles": filled_tiles,
    "bars": bars,
    "axis ticks": axis_ticks,
    "scattered labels": scattered_labels,
    "separate boxes": separate_boxes,
}
STRONG_SIGNALS = ("image", "vector marks", "axis ticks")  # enough to doubt a region under a table caption


def figure_reasons(layout: PageLayout, box: Box, signals: tuple[str, ...] = tuple(FIGURE_SIGNALS)) -> list[str]:
    """Why the region at ``box`` looks like (part of) a figure: one reason per signal that fires."""
    return [reason for name in signals if (reason := FIGURE_SIGNALS[name](layout, box)) is not None]


def box_of(items: Sequence[Line | Rule]) -> Box:
    return (min(i.x0 for i in items), min(i.top for i in items), max(i.x1 for i in items), max(i.bottom for i in items))
