"""Reading a page's glyphs and rules fast with pdfium (10x faster than pdfminer on our papers).

Coordinates are converted to pdfplumber's convention: points, origin at the top-left of the page.
"""

from __future__ import annotations

import ctypes
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from pipeline.errors import ExtractionError
from pipeline.extract.frame import Frame

# Glyphs whose Unicode form is unhelpful in a table cell.
_REPLACE = {
    "\ufb00": "ff",
    "\ufb01": "fi",
    "\ufb02": "fl",
    "\ufb03": "ffi",
    "\ufb04": "ffl",
    "\u2212": "-",
    "\u2010": "-",
    "\u2011": "-",
    "\u00ad": "-",
    "\u2009": " ",
    "\u00a0": " ",
    "\u202f": " ",
}
_BOLD = re.compile(r"bold|black|heavy|semibold|demi|medi(?:um)?\b|-medi|\.b\b|,b\b|cmbx|cmb\d|bx\d", re.IGNORECASE)
_ITALIC = re.compile(r"italic|oblique|-it\b|ital|cmti|cmmi|cmsl|slant", re.IGNORECASE)


@dataclass(slots=True)
class Char:
    text: str
    x0: float
    x1: float
    top: float  # top and bottom of the font's box (ascent / descent), not the glyph's ink
    bottom: float
    baseline: float
    size: float
    font: str
    upright: bool = True
    source: int = 0  # the text object that drew the glyph (a ligature's letters share one)

    @property
    def bold(self) -> bool:
        return font_is_bold(self.font)

    @property
    def italic(self) -> bool:
        return font_is_italic(self.font)


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


@dataclass
class PageContent:
    number: int  # 1-based
    width: float
    height: float
    chars: list[Char] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)
    fills: list[Rule] = field(default_factory=list)  # filled boxes too large to be rules (shading, cell backgrounds)

    @property
    def hrules(self) -> list[Rule]:
        return [r for r in self.rules if r.horizontal]


def font_is_bold(font: str) -> bool:
    return bool(_BOLD.search(font.split("+", 1)[-1]))


def font_is_italic(font: str) -> bool:
    return bool(_ITALIC.search(font.split("+", 1)[-1]))


def normalise_text(text: str) -> str:
    """Ligatures to letters, U+2212 and other dashes used as minus to '-', odd spaces to spaces."""
    return "".join(_REPLACE.get(ch, ch) for ch in text)


def open_pdf(path: Path) -> pdfium.PdfDocument:
    try:
        return pdfium.PdfDocument(str(path))
    except (pdfium.PdfiumError, OSError) as exc:
        raise ExtractionError(f"{path}: cannot be parsed as a PDF ({exc})") from None


def page_text(doc: pdfium.PdfDocument, index: int) -> str:
    """The page's plain text (cheap): enough to screen pages for table captions."""
    page = doc[index]
    textpage = page.get_textpage()
    try:
        return str(textpage.get_text_range())
    finally:
        textpage.close()
        page.close()


def read_page(doc: pdfium.PdfDocument, index: int, rule_thickness: float, min_rule_length: float) -> PageContent:
    content = read_graphics(doc, index, rule_thickness, min_rule_length)
    read_chars(doc, content)
    return content


def read_graphics(doc: pdfium.PdfDocument, index: int, rule_thickness: float, min_rule_length: float) -> PageContent:
    """The page's size, rules and filled boxes (cheap: no text)."""
    page = doc[index]
    try:
        frame = Frame.of(page)
        content = PageContent(index + 1, *frame.size)
        for box in _read_boxes(page, frame):
            x0, t, x1, b = box
            w, h = x1 - x0, b - t
            if min(w, h) <= rule_thickness and max(w, h) >= min_rule_length:
                content.rules.append(Rule(*box))
            elif min(w, h) > rule_thickness:
                content.fills.append(Rule(*box))
        content.rules = merge_collinear(content.rules)
        return content
    finally:
        page.close()


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


def read_chars(doc: pdfium.PdfDocument, content: PageContent) -> None:
    """Fill ``content.chars`` with the page's glyphs."""
    page = doc[content.number - 1]
    try:
        textpage = page.get_textpage()
        try:
            content.chars = list(_read_chars(textpage, Frame.of(page)))
        finally:
            textpage.close()
    finally:
        page.close()


def _read_chars(textpage: pdfium.PdfTextPage, frame: Frame) -> Iterator[Char]:
    raw = textpage.raw
    ox, oy = ctypes.c_double(), ctypes.c_double()
    loose = pdfium_c.FS_RECTF()
    matrix = pdfium_c.FS_MATRIX()
    buf = ctypes.create_string_buffer(256)
    flags = ctypes.c_int()
    styles: dict[int, tuple[str, float, bool]] = {}
    previous: Char | None = None
    count = pdfium_c.FPDFText_CountChars(raw)
    for i in range(count):
        code = pdfium_c.FPDFText_GetUnicode(raw, i)  # per glyph: the bulk text call drops glyphs without unicode
        if code in (0, 0xFFFE, 0xFEFF) or 0xDC00 <= code < 0xE000 or code > 0x10FFFF:
            continue  # (a low surrogate was read with its high half)
        if 0xD800 <= code < 0xDC00:
            low = pdfium_c.FPDFText_GetUnicode(raw, i + 1) if i + 1 < count else 0
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00) if 0xDC00 <= low < 0xE000 else 0xFFFD
        text = chr(code)
        if unicodedata.category(text) == "Cc" and not text.isspace():
            text = _unmapped_glyph(raw, i)  # a glyph the font gives no unicode for
        if not text or text.isspace() or unicodedata.category(text) in ("Cc", "Cf"):
            continue
        pdfium_c.FPDFText_GetLooseCharBox(raw, i, loose)
        pdfium_c.FPDFText_GetCharOrigin(raw, i, ox, oy)
        key = ctypes.cast(pdfium_c.FPDFText_GetTextObject(raw, i), ctypes.c_void_p).value or 0
        style = styles.get(key) if key else None
        if style is None:  # glyphs of one text object share font, size and direction: read them once
            pdfium_c.FPDFText_GetMatrix(raw, i, matrix)
            size = pdfium_c.FPDFText_GetFontSize(raw, i) * abs(matrix.a * matrix.d - matrix.b * matrix.c) ** 0.5
            n = pdfium_c.FPDFText_GetFontInfo(raw, i, buf, len(buf), flags)
            font = buf.raw[: max(n - 1, 0)].decode("utf-8", "replace")
            style = (font, size, frame.upright(matrix.a, matrix.b))
            if key:
                styles[key] = style
        font, size, upright = style
        if frame.rotation == 0:  # the common case, without the general transform
            x0, x1 = loose.left - frame.left, loose.right - frame.left
            top, bottom = frame.height - (loose.top - frame.bottom), frame.height - (loose.bottom - frame.bottom)
            baseline = frame.height - (oy.value - frame.bottom)
        else:
            x0, top, x1, bottom = frame.box(loose.left, loose.bottom, loose.right, loose.top)
            baseline = frame.point(ox.value, oy.value)[1]
        ch = Char(
            text=normalise_text(text),
            x0=x0,  # the loose box spans the glyph's advance: gaps are true spaces
            x1=x1,
            top=top,
            bottom=bottom,
            baseline=baseline,
            size=size if size > 0.5 else max(loose.top - loose.bottom, 1.0),
            font=font,
            upright=upright,
            source=key,
        )
        if previous is not None and _is_overprint(previous, ch):
            continue  # fake bold: the same glyph drawn again a hair to the side
        previous = ch
        yield ch


def _unmapped_glyph(raw: object, i: int) -> str:
    """A glyph without unicode whose ink is a flat horizontal bar is a minus (or a hyphen); others are
    left out (their text is unknown)."""
    left, right, bottom, top = (ctypes.c_double() for _ in range(4))
    pdfium_c.FPDFText_GetCharBox(raw, i, left, right, bottom, top)
    width, height = right.value - left.value, top.value - bottom.value
    return "-" if width > 0 and 0 < height <= 0.3 * width else ""


def _is_overprint(a: Char, b: Char) -> bool:
    close = abs(a.x0 - b.x0) < 0.15 * a.size and abs(a.baseline - b.baseline) < 0.15 * a.size
    return a.text == b.text and a.source != b.source and close


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
    if filled and len(points) >= 4 and _axis_aligned(points):
        yield box, 0.0
        return
    if stroked:
        for (xa, ya), (xb, yb) in pairwise(points):
            if abs(xa - xb) < 0.5 or abs(ya - yb) < 0.5:
                yield (xa, ya, xb, yb), width


def _axis_aligned(points: list[tuple[float, float]]) -> bool:
    return all(abs(xa - xb) < 0.5 or abs(ya - yb) < 0.5 for (xa, ya), (xb, yb) in pairwise(points))
