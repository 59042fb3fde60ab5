"""A page's ruling lines and shaded boxes, and the marks and images a figure is drawn with, read in one walk
over its page objects (forms included) with pdfium."""

from __future__ import annotations

import ctypes
from collections.abc import Iterator
from dataclasses import dataclass, field, fields
from itertools import pairwise

import pypdfium2.raw as pdfium_c
from pypdfium2 import PdfPage

from pipeline.extract.reading import addresses as pdfium
from pipeline.extract.reading.clips import Box, clip_box, intersection, object_box
from pipeline.extract.reading.frame import Frame


@dataclass(frozen=True, slots=True)
class Rule:
    """A thin graphic: a ruling line (horizontal or vertical) drawn as a line or a filled rectangle."""

    x0: float
    top: float
    x1: float
    bottom: float

    shade: int = -1  # a filled box's colour as 0xRRGGBB (-1: not known, or not a filled box)

    @property
    def horizontal(self) -> bool:
        return (self.x1 - self.x0) >= (self.bottom - self.top)

    @property
    def y(self) -> float:
        return (self.top + self.bottom) / 2

    @property
    def x(self) -> float:
        return (self.x0 + self.x1) / 2

    @property
    def length(self) -> float:
        return max(self.x1 - self.x0, self.bottom - self.top)


@dataclass
class Drawing:
    """What a page draws besides its text."""

    rules: list[Rule] = field(default_factory=list)  # thin graphics, joined where drawn in pieces
    fills: list[Rule] = field(default_factory=list)  # filled boxes too large to be rules (shading, bars)
    ticks: list[Rule] = field(default_factory=list)  # straight pieces too short to be rules (axis ticks, dots)
    marks: list[Rule] = field(default_factory=list)  # the boxes of curves, slanted strokes and round markers
    images: list[Rule] = field(default_factory=list)  # the boxes of placed raster images
    hidden_text: set[int] = field(default_factory=set)  # text objects that print nothing a reader sees

    @property
    def hrules(self) -> list[Rule]:
        return [r for r in self.rules if r.horizontal]

    @property
    def size(self) -> int:
        return sum(len(boxes) for boxes in self.boxes().values())

    def boxes(self) -> dict[str, list[Rule]]:
        """Every list of boxes, by name (to map them all alike: page/turned.py)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "hidden_text"}


def read_drawing(page: PdfPage, frame: Frame, rule_thickness: float, min_rule_length: float) -> Drawing:
    """Rules and shading (what tables are drawn with) and the marks and images figures are drawn with."""
    drawing = Drawing()
    ticks = _EvenSample(MAX_TICKS)
    for box, kind, shade in _read_boxes(page, frame, drawing.hidden_text):
        if kind != EDGE:
            (drawing.marks if kind == MARK else drawing.images).append(Rule(*box))
            continue
        x0, t, x1, b = box
        w, h = x1 - x0, b - t
        thin = min(w, h) <= rule_thickness or (min(w, h) <= 1.6 * rule_thickness and max(w, h) >= 40 * min(w, h))
        if thin and max(w, h) >= min_rule_length:  # (a heavy rule, long for its weight, is a rule too)
            drawing.rules.append(Rule(*box))
        elif thin:
            ticks.offer(Rule(*box, shade))
        else:
            drawing.fills.append(Rule(*box, shade))
    drawing.rules = merge_collinear(drawing.rules)
    drawing.ticks = ticks.items
    return drawing


MAX_TICKS = 50_000  # a page drawn with twice as many short strokes (a dense map) keeps an even sample of them


class _EvenSample:
    """Fewer than ``2 * limit`` of the items offered, evenly spread over them: when full, every other one is
    let go and only every other one offered after is kept. A drawing of 650,000 tiny strokes held them all
    (130 MB for one page); thinned, its ink spreads the same, though its axis ticks are thinned with the rest."""

    def __init__(self, limit: int) -> None:
        self.items: list[Rule] = []
        self._limit = limit
        self._stride = 1
        self._offered = 0

    def offer(self, item: Rule) -> None:
        if self._offered % self._stride == 0:
            self.items.append(item)
            if len(self.items) >= 2 * self._limit:
                self.items = self.items[::2]
                self._stride *= 2
        self._offered += 1


def merge_collinear(rules: list[Rule], gap: float = 2.0) -> list[Rule]:
    """Rules drawn in pieces (one per cell border) joined into the lines a reader sees."""
    out: list[Rule] = []
    for horizontal in (True, False):
        pieces = sorted(
            (r for r in rules if r.horizontal == horizontal),
            key=lambda r: (round(r.y if horizontal else r.x), r.x0 if horizontal else r.top),
        )
        current: Rule | None = None
        for r in pieces:
            if current is not None and _continues_rule(current, r, horizontal, gap):
                current = Rule(
                    min(current.x0, r.x0), min(current.top, r.top), max(current.x1, r.x1), max(current.bottom, r.bottom)
                )
                continue
            if current is not None:
                out.append(current)
            current = r
        if current is not None:
            out.append(current)
    return out


def _continues_rule(a: Rule, b: Rule, horizontal: bool, gap: float) -> bool:
    if horizontal:
        return abs(a.y - b.y) <= 1.0 and b.x0 - a.x1 <= gap
    return abs(a.x - b.x) <= 1.0 and b.top - a.bottom <= gap


Matrix = tuple[float, float, float, float, float, float]
_IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def _compose(inner: Matrix, outer: Matrix) -> Matrix:
    a, b, c, d, e, f = inner
    A, B, C, D, E, F = outer
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


class _Scratch:
    """The out-parameters of the page walk's calls, made once per walk rather than per path."""

    def __init__(self) -> None:
        self.matrix = pdfium.Out(ctypes.c_float, 6, "f")  # (FS_MATRIX: a b c d e f)
        self.point = pdfium.Out(ctypes.c_float, 2, "f")
        self.width = pdfium.Out(ctypes.c_float, 1, "f")
        self.modes = pdfium.Out(ctypes.c_int, 2, "i")  # fill mode, stroked
        self.rgba = pdfium.Out(ctypes.c_uint, 4, "I")


def _matrix_of(obj: int, scratch: _Scratch) -> Matrix:
    if not pdfium.object_matrix(obj, scratch.matrix.at[0]):
        return _IDENTITY
    a, b, c, d, e, f = scratch.matrix.values
    return (a, b, c, d, e, f)


EDGE, MARK, IMAGE = 0, 1, 2  # a piece is a straight axis-aligned stroke or box, a mark, or an image


def _read_boxes(
    page: PdfPage, frame: Frame, hidden_text: set[int]
) -> Iterator[tuple[tuple[float, float, float, float], int, int]]:
    """Boxes of the visible pieces, each with its kind and fill shade, in top-left coordinates; the text
    objects that print nothing go to ``hidden_text``."""
    walk = _path_pieces(pdfium.address(page.raw), None, _IDENTITY, 0, None, hidden_text, _Scratch())
    for (x0, y0, x1, y1), width, kind, shade in walk:
        pad = width / 2
        if abs(x1 - x0) < 0.01:  # vertical stroke
            x0, x1 = x0 - pad, x1 + pad
        if abs(y1 - y0) < 0.01:  # horizontal stroke
            y0, y1 = y0 - pad, y1 + pad
        yield frame.box(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)), kind, shade


Piece = tuple[tuple[float, float, float, float], float, int, int]  # box, stroke width, kind, fill shade


def _path_pieces(
    page: int, form: int | None, outer: Matrix, depth: int, clip: Box | None, hidden_text: set[int], scratch: _Scratch
) -> Iterator[Piece]:
    """The pieces of every object in the page or form, as far as the clip in force (in page coordinates)
    and each object's own clip let them show. An embedded page (a figure set in as a PDF form) carries its
    own copy of the whole page, text and rules, and shows only its figure through a clip."""
    count = pdfium.form_count_objects(form) if form else pdfium.count_objects(page)
    for i in range(count):
        obj = pdfium.form_get_object(form, i) if form else pdfium.get_object(page, i)
        kind = pdfium.object_type(obj)
        shown = clip
        if (own := clip_box(obj)) is not None:
            own = _transformed_box(own, outer)
            shown = own if clip is None else intersection(clip, own)
        if kind == pdfium_c.FPDF_PAGEOBJ_FORM and depth < 8:
            inner = _compose(_matrix_of(obj, scratch), outer)
            yield from _path_pieces(page, obj, inner, depth + 1, shown, hidden_text, scratch)
        elif kind == pdfium_c.FPDF_PAGEOBJ_PATH:
            yield from _shown_pieces(_pieces_of_path(obj, outer, scratch), shown)
        elif kind == pdfium_c.FPDF_PAGEOBJ_IMAGE:
            image = _image_box(_compose(_matrix_of(obj, scratch), outer))
            yield from _shown_pieces(iter([(image, 0.0, IMAGE, -1)]), shown)
        elif kind == pdfium_c.FPDF_PAGEOBJ_TEXT and not _text_shows(obj, outer, shown):
            hidden_text.add(obj)


def _text_shows(obj: int, outer: Matrix, clip: Box | None) -> bool:
    """Whether a text object prints: not invisible (render mode 3) and its middle inside the clip."""
    if pdfium.text_render_mode(obj) == pdfium_c.FPDF_TEXTRENDERMODE_INVISIBLE:
        return False
    box = object_box(obj) if clip else None
    if clip is None or box is None:
        return True
    left, bottom, right, top = _transformed_box(box, outer)
    cx, cy = (left + right) / 2, (bottom + top) / 2
    return clip[0] - 1 <= cx <= clip[2] + 1 and clip[1] - 1 <= cy <= clip[3] + 1


def _shown_pieces(pieces: Iterator[Piece], clip: Box | None) -> Iterator[Piece]:
    """The pieces as far as the clip lets them show: one wholly outside it is left out (an embedded page's
    own rules around the figure it shows), one across its edge is cut there."""
    if clip is None:
        yield from pieces
        return
    cx0, cy0, cx1, cy1 = clip
    for (x0, y0, x1, y1), width, kind, shade in pieces:
        left, right = max(min(x0, x1), cx0), min(max(x0, x1), cx1)
        bottom, top = max(min(y0, y1), cy0), min(max(y0, y1), cy1)
        if left - right > 1.0 or bottom - top > 1.0:
            continue
        yield (left, bottom, max(left, right), max(bottom, top)), width, kind, shade


def _transformed_box(box: Box, matrix: Matrix) -> Box:
    a, b, c, d, e, f = matrix
    corners = [(a * x + c * y + e, b * x + d * y + f) for x in (box[0], box[2]) for y in (box[1], box[3])]
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    return min(xs), min(ys), max(xs), max(ys)


def _image_box(matrix: Matrix) -> tuple[float, float, float, float]:
    """An image fills the unit square of its matrix."""
    a, b, c, d, e, f = matrix
    xs, ys = (e, e + a, e + c, e + a + c), (f, f + b, f + d, f + b + d)
    return min(xs), min(ys), max(xs), max(ys)


def _shade(obj: int, fill: bool, scratch: _Scratch) -> int | None:
    """The colour the object paints with (0xRRGGBB, -1 when pdfium cannot say), None when it paints nothing
    a reader sees (transparent, or white on the page)."""
    getter = pdfium.fill_color if fill else pdfium.stroke_color
    if not getter(obj, *scratch.rgba.at):
        return -1
    r, g, b, a = scratch.rgba.values
    return (r << 16 | g << 8 | b) if a > 0 and min(r, g, b) < 250 else None


def _pieces_of_path(obj: int, outer: Matrix, scratch: _Scratch) -> Iterator[Piece]:
    pdfium.draw_mode(obj, *scratch.modes.at)
    fill_mode, stroke = scratch.modes.values
    shade = _shade(obj, True, scratch) if fill_mode != 0 else None
    filled = shade is not None
    stroked = bool(stroke) and _shade(obj, False, scratch) is not None
    if not (filled or stroked):
        return
    line_width = scratch.width.values[0] if stroked and pdfium.stroke_width(obj, scratch.width.at[0]) else 0.0
    a, b, c, d, e, f = _compose(_matrix_of(obj, scratch), outer)
    xy, (at_x, at_y) = scratch.point.values, scratch.point.at
    segment, point_of = pdfium.path_segment, pdfium.segment_point
    type_of, closes = pdfium.segment_type, pdfium.segment_close
    moveto = pdfium_c.FPDF_SEGMENT_MOVETO
    subpath: list[tuple[float, float]] = []
    for k in range(pdfium.count_segments(obj)):
        seg = segment(obj, k)
        point_of(seg, at_x, at_y)
        x, y = xy
        point = (a * x + c * y + e, b * x + d * y + f)
        if type_of(seg) == moveto:
            yield from _subpath_pieces(subpath, shade, stroked, line_width)
            subpath = [point]
        else:
            subpath.append(point)
            if closes(seg) and subpath[0] != point:
                subpath.append(subpath[0])
    yield from _subpath_pieces(subpath, shade, stroked, line_width)


def _subpath_pieces(
    points: list[tuple[float, float]], shade: int | None, stroked: bool, width: float
) -> Iterator[Piece]:
    if len(points) < 2:
        return
    filled = shade is not None
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    box = (min(xs), min(ys), max(xs), max(ys))
    thin = min(box[2] - box[0], box[3] - box[1]) <= 1.5  # a bevelled border piece (Word tables) is a rule too
    if filled and len(points) >= 3 and (thin or (len(points) >= 4 and _axis_aligned(points))):
        yield box, 0.0, EDGE, shade
        return
    slanted = False
    if stroked:
        for (xa, ya), (xb, yb) in pairwise(points):
            if abs(xa - xb) < 0.5 or abs(ya - yb) < 0.5:
                yield (xa, ya, xb, yb), width, EDGE, -1
            else:
                slanted = True
    if slanted or (filled and len(points) >= 3):  # a curve, a slanted line or a round marker: a figure's ink
        yield box, 0.0, MARK, -1


def _axis_aligned(points: list[tuple[float, float]]) -> bool:
    return all(abs(xa - xb) < 0.5 or abs(ya - yb) < 0.5 for (xa, ya), (xb, yb) in pairwise(points))
