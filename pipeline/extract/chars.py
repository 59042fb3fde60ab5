"""Reading a page's glyphs and rules fast with pdfium (10x faster than pdfminer on our papers).

Coordinates are converted to pdfplumber's convention: points, origin at the top-left of the page.
"""

from __future__ import annotations

import ctypes
import math
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from pipeline.errors import ExtractionError
from pipeline.extract.frame import Frame
from pipeline.extract.graphics import Rule, read_rules
from pipeline.extract.weight import font_is_bold, font_is_italic, mark_heavy
from pipeline.numbers import decode_glyph


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
    turn: int = 0  # counter-clockwise quarter turns of the text on the display, in degrees (see Frame.turn)
    origin_x: float = 0.0  # x of the glyph origin on the display, kept for sideways text only
    source: int = 0  # the text object that drew the glyph (a ligature's letters share one)
    face: int = 0  # the font object (a handle, valid while the page is open)
    heavy: bool = False  # set in a bold face whose name does not say so (see weight.py)

    @property
    def bold(self) -> bool:
        return self.heavy or font_is_bold(self.font)

    @property
    def italic(self) -> bool:
        return font_is_italic(self.font)


@dataclass
class PageContent:
    number: int  # 1-based
    width: float
    height: float
    chars: list[Char] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)
    fills: list[Rule] = field(default_factory=list)  # filled boxes too large to be rules (shading, cell backgrounds)
    turn: int = 0  # 90 or 270: read in the frame where sideways text stands upright (see turned.py)

    @property
    def hrules(self) -> list[Rule]:
        return [r for r in self.rules if r.horizontal]


def open_pdf(path: Path) -> pdfium.PdfDocument:
    try:
        return pdfium.PdfDocument(str(path))
    except (pdfium.PdfiumError, OSError) as exc:
        raise ExtractionError(f"{path}: cannot be parsed as a PDF ({exc})") from None


@contextmanager
def open_page(doc: pdfium.PdfDocument, index: int) -> Iterator[tuple[pdfium.PdfPage, pdfium.PdfTextPage]]:
    """A page and its text layer, opened once for every read below and closed after."""
    page = doc[index]
    textpage = page.get_textpage()
    try:
        yield page, textpage
    finally:
        textpage.close()
        page.close()


def page_text(textpage: pdfium.PdfTextPage) -> str:
    """The page's plain text (cheap): enough to screen pages for table captions."""
    return str(textpage.get_text_range())


def mostly_sideways(textpage: pdfium.PdfTextPage, samples: int = 40) -> bool:
    """Whether most of the page's text runs sideways (cheap: a sample of glyph angles), so that a caption
    there may not start a line of the plain text."""
    count = pdfium_c.FPDFText_CountChars(textpage.raw)
    if count == 0:
        return False
    picks = range(0, count, max(1, count // samples))
    sideways = sum(abs(math.sin(pdfium_c.FPDFText_GetCharAngle(textpage.raw, i))) > 0.9 for i in picks)
    return sideways * 2 > len(picks)


def read_graphics(page: pdfium.PdfPage, number: int, rule_thickness: float, min_rule_length: float) -> PageContent:
    """The page's size, rules and filled boxes (cheap: no text); ``number`` is 1-based."""
    frame = Frame.of(page)
    content = PageContent(number, *frame.size)
    content.rules, content.fills = read_rules(page, frame, rule_thickness, min_rule_length)
    return content


def read_chars(page: pdfium.PdfPage, textpage: pdfium.PdfTextPage, content: PageContent) -> None:
    """Fill ``content.chars`` with the page's glyphs."""
    content.chars = list(_read_chars(textpage, Frame.of(page)))
    mark_heavy(content.chars)


def _read_chars(textpage: pdfium.PdfTextPage, frame: Frame) -> Iterator[Char]:
    raw = textpage.raw
    ox, oy = ctypes.c_double(), ctypes.c_double()
    loose = pdfium_c.FS_RECTF()
    matrix = pdfium_c.FS_MATRIX()
    buf = ctypes.create_string_buffer(256)
    flags = ctypes.c_int()
    styles: dict[int, tuple[str, float, int, int, bool]] = {}
    previous: Char | None = None
    count = pdfium_c.FPDFText_CountChars(raw)
    page_w, page_h = frame.size
    unicode_of, loose_box = pdfium_c.FPDFText_GetUnicode, pdfium_c.FPDFText_GetLooseCharBox
    origin = pdfium_c.FPDFText_GetCharOrigin
    for i in range(count):
        code = unicode_of(raw, i)  # per glyph: the bulk text call drops glyphs without unicode
        if code in (0, 0xFFFE, 0xFEFF) or 0xDC00 <= code < 0xE000 or code > 0x10FFFF:
            continue  # (a low surrogate was read with its high half)
        if 0xD800 <= code < 0xDC00:
            low = pdfium_c.FPDFText_GetUnicode(raw, i + 1) if i + 1 < count else 0
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00) if 0xDC00 <= low < 0xE000 else 0xFFFD
        text = chr(code)
        if text.isspace():
            continue
        kind = unicodedata.category(text)
        if kind == "Cc":
            text = _unmapped_glyph(raw, i)  # a glyph the font gives no unicode for
            if not text:
                continue
        elif kind == "Cf":
            continue
        loose_box(raw, i, loose)
        origin(raw, i, ox, oy)
        key = _text_object(raw, i) or 0
        style = styles.get(key) if key else None
        if style is None:  # glyphs of one text object share font, size and direction: read them once
            pdfium_c.FPDFText_GetMatrix(raw, i, matrix)
            size = pdfium_c.FPDFText_GetFontSize(raw, i) * abs(matrix.a * matrix.d - matrix.b * matrix.c) ** 0.5
            n = pdfium_c.FPDFText_GetFontInfo(raw, i, buf, len(buf), flags)
            font = buf.raw[: max(n - 1, 0)].decode("utf-8", "replace")
            face = _font_of(key) if key else 0
            style = (font, size, frame.turn(matrix.a, matrix.b), face, _shown(key) if key else True)
            if key:
                styles[key] = style
        font, size, turn, face, shown = style
        if not shown:
            continue
        if frame.rotation == 0:  # the common case, without the general transform
            x0, x1 = loose.left - frame.left, loose.right - frame.left
            top, bottom = frame.height - (loose.top - frame.bottom), frame.height - (loose.bottom - frame.bottom)
            baseline = frame.height - (oy.value - frame.bottom)
            origin_x = ox.value - frame.left if turn else 0.0
        else:
            x0, top, x1, bottom = frame.box(loose.left, loose.bottom, loose.right, loose.top)
            origin_x, baseline = frame.point(ox.value, oy.value)
        if x1 < 0 or top > page_h or bottom < 0 or x0 > page_w:
            continue  # drawn off the page: nothing a reader sees
        ch = Char(
            text=decode_glyph(text),
            x0=x0,  # the loose box spans the glyph's advance: gaps are true spaces
            x1=x1,
            top=top,
            bottom=bottom,
            baseline=baseline,
            size=size if size > 0.5 else max(loose.top - loose.bottom, 1.0),
            font=font,
            upright=turn == 0,
            turn=turn,
            origin_x=origin_x,
            source=key,
            face=face,
        )
        if previous is not None and _is_overprint(previous, ch):
            continue  # fake bold: the same glyph drawn again a hair to the side
        previous = ch
        yield ch


UNKNOWN = "\ufffd"  # a printed glyph whose text the PDF does not give


# FPDFText_GetTextObject giving the handle as an int: the binding's pointer type costs a cast per glyph
_text_object = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int)(
    ctypes.cast(pdfium_c.FPDFText_GetTextObject, ctypes.c_void_p).value
)


def _shown(text_object: int) -> bool:
    """Whether a text object prints: not invisible (render mode 3) and not clipped away (an embedded page
    carries its own copy of the text outside the clip that shows only its figure)."""
    obj = ctypes.cast(ctypes.c_void_p(text_object), pdfium_c.FPDF_PAGEOBJECT)
    if pdfium_c.FPDFTextObj_GetTextRenderMode(obj) == pdfium_c.FPDF_TEXTRENDERMODE_INVISIBLE:
        return False
    clip = pdfium_c.FPDFPageObj_GetClipPath(obj)
    if not clip:
        return True
    xs, ys = [], []
    px, py = ctypes.c_float(), ctypes.c_float()
    for p in range(pdfium_c.FPDFClipPath_CountPaths(clip)):
        for k in range(pdfium_c.FPDFClipPath_CountPathSegments(clip, p)):
            pdfium_c.FPDFPathSegment_GetPoint(pdfium_c.FPDFClipPath_GetPathSegment(clip, p, k), px, py)
            xs.append(px.value)
            ys.append(py.value)
    if not xs:
        return True
    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    if not pdfium_c.FPDFPageObj_GetBounds(obj, left, bottom, right, top):
        return True
    cx, cy = (left.value + right.value) / 2, (bottom.value + top.value) / 2
    return min(xs) - 1 <= cx <= max(xs) + 1 and min(ys) - 1 <= cy <= max(ys) + 1


def _font_of(text_object: int) -> int:
    obj = ctypes.cast(ctypes.c_void_p(text_object), pdfium_c.FPDF_PAGEOBJECT)
    return ctypes.cast(pdfium_c.FPDFTextObj_GetFont(obj), ctypes.c_void_p).value or 0


def _unmapped_glyph(raw: object, i: int) -> str:
    """A glyph without unicode whose ink is a flat horizontal bar is a minus (or a hyphen); another glyph
    with ink is UNKNOWN (never dropped: '10' + unknown + '5' must not read as 105); one without ink
    is left out."""
    left, right, bottom, top = (ctypes.c_double() for _ in range(4))
    pdfium_c.FPDFText_GetCharBox(raw, i, left, right, bottom, top)
    width, height = right.value - left.value, top.value - bottom.value
    if width <= 0 or height <= 0:
        return ""
    return "-" if height <= 0.6 * width else UNKNOWN  # a hyphen bar is about twice as wide as it is thick


def _is_overprint(a: Char, b: Char) -> bool:
    close = abs(a.x0 - b.x0) < 0.15 * a.size and abs(a.baseline - b.baseline) < 0.15 * a.size
    return a.text == b.text and a.source != b.source and close
