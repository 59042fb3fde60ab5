"""A page's ruling lines and shaded boxes, read from its path objects (forms included) with pdfium."""

from __future__ import annotations

import ctypes
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from pipeline.extract.frame import Frame


@dataclass(frozen=True, slots=True)
class Rule:
    """A thin graphic: a ruling line (horizontal or vertical) drawn as a line or a filled rectangle."""

    x0: float
    top: float
    x1: float
    bottom: float

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


def read_rules(
    page: pdfium.PdfPage, frame: Frame, rule_thickness: float, min_rule_length: float
) -> tuple[list[Rule], list[Rule]]:
    """Thin graphics (rules, joined where drawn in pieces) and larger filled boxes (shading)."""
    rules, fills = [], []
    for box in _read_boxes(page, frame):
        x0, t, x1, b = box
        w, h = x1 - x0, b - t
        thin = min(w, h) <= rule_thickness or (min(w, h) <= 1.6 * rule_thickness and max(w, h) >= 40 * min(w, h))
        if thin and max(w, h) >= min_rule_length:  # (a heavy rule, long for its weight, is a rule too)
            rules.append(Rule(*box))
        elif not thin:
            fills.append(Rule(*box))
    return merge_collinear(rules), fills


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


def _apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


def _matrix_of(obj: ctypes.c_void_p) -> Matrix:
    fm = pdfium_c.FS_MATRIX()
    if not pdfium_c.FPDFPageObj_GetMatrix(obj, fm):
        return _IDENTITY
    return (fm.a, fm.b, fm.c, fm.d, fm.e, fm.f)


def _read_boxes(page: pdfium.PdfPage, frame: Frame) -> Iterator[tuple[float, float, float, float]]:
    """Axis-aligned boxes of the visible path pieces (lines and rectangles), in top-left coordinates."""
    for (x0, y0, x1, y1), width in _path_pieces(page.raw, None, _IDENTITY, 0):
        pad = width / 2
        if abs(x1 - x0) < 0.01:  # vertical stroke
            x0, x1 = x0 - pad, x1 + pad
        if abs(y1 - y0) < 0.01:  # horizontal stroke
            y0, y1 = y0 - pad, y1 + pad
        yield frame.box(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


Piece = tuple[tuple[float, float, float, float], float]


def _path_pieces(page_raw: object, form: object, outer: Matrix, depth: int) -> Iterator[Piece]:
    count = pdfium_c.FPDFFormObj_CountObjects(form) if form else pdfium_c.FPDFPage_CountObjects(page_raw)
    for i in range(count):
        obj = pdfium_c.FPDFFormObj_GetObject(form, i) if form else pdfium_c.FPDFPage_GetObject(page_raw, i)
        kind = pdfium_c.FPDFPageObj_GetType(obj)
        if kind == pdfium_c.FPDF_PAGEOBJ_FORM and depth < 8:
            yield from _path_pieces(page_raw, obj, _compose(_matrix_of(obj), outer), depth + 1)
        elif kind == pdfium_c.FPDF_PAGEOBJ_PATH:
            yield from _pieces_of_path(obj, outer)


def _visible(obj: object, fill: bool) -> bool:
    r, g, b, a = (ctypes.c_uint() for _ in range(4))
    getter = pdfium_c.FPDFPageObj_GetFillColor if fill else pdfium_c.FPDFPageObj_GetStrokeColor
    if not getter(obj, r, g, b, a):
        return True
    return a.value > 0 and min(r.value, g.value, b.value) < 250


def _pieces_of_path(obj: object, outer: Matrix) -> Iterator[Piece]:
    fillmode, stroke = ctypes.c_int(), ctypes.c_int()
    pdfium_c.FPDFPath_GetDrawMode(obj, fillmode, stroke)
    filled = fillmode.value != 0 and _visible(obj, True)
    stroked = bool(stroke.value) and _visible(obj, False)
    if not (filled or stroked):
        return
    width = ctypes.c_float()
    line_width = width.value if stroked and pdfium_c.FPDFPageObj_GetStrokeWidth(obj, width) else 0.0
    m = _compose(_matrix_of(obj), outer)
    px, py = ctypes.c_float(), ctypes.c_float()
    subpath: list[tuple[float, float]] = []
    for k in range(pdfium_c.FPDFPath_CountSegments(obj)):
        seg = pdfium_c.FPDFPath_GetPathSegment(obj, k)
        pdfium_c.FPDFPathSegment_GetPoint(seg, px, py)
        kind = pdfium_c.FPDFPathSegment_GetType(seg)
        point = _apply(m, px.value, py.value)
        if kind == pdfium_c.FPDF_SEGMENT_MOVETO:
            yield from _subpath_pieces(subpath, filled, stroked, line_width)
            subpath = [point]
        else:
            subpath.append(point)
            if pdfium_c.FPDFPathSegment_GetClose(seg) and subpath[0] != point:
                subpath.append(subpath[0])
    yield from _subpath_pieces(subpath, filled, stroked, line_width)


def _subpath_pieces(points: list[tuple[float, float]], filled: bool, stroked: bool, width: float) -> Iterator[Piece]:
    if len(points) < 2:
        return
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    box = (min(xs), min(ys), max(xs), max(ys))
    thin = min(box[2] - box[0], box[3] - box[1]) <= 1.5  # a bevelled border piece (Word tables) is a rule too
    if filled and len(points) >= 3 and (thin or (len(points) >= 4 and _axis_aligned(points))):
        yield box, 0.0
        return
    if stroked:
        for (xa, ya), (xb, yb) in pairwise(points):
            if abs(xa - xb) < 0.5 or abs(ya - yb) < 0.5:
                yield (xa, ya, xb, yb), width


def _axis_aligned(points: list[tuple[float, float]]) -> bool:
    return all(abs(xa - xb) < 0.5 or abs(ya - yb) < 0.5 for (xa, ya), (xb, yb) in pairwise(points))
