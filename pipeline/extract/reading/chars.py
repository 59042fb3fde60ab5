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

import pypdfium2.raw as pdfium_c
from pypdfium2 import PdfDocument, PdfiumError, PdfPage, PdfTextPage

from pipeline.errors import ExtractionError
from pipeline.extract.reading import addresses as pdfium
from pipeline.extract.reading.frame import Frame
from pipeline.extract.reading.graphics import Drawing, read_drawing
from pipeline.extract.reading.weight import StrokeCache, font_is_bold, font_is_italic, mark_heavy
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
    drawing: Drawing = field(default_factory=Drawing)  # rules, shading and a figure's ink (see graphics.py)
    chars: list[Char] = field(default_factory=list)
    turn: int = 0  # 90 or 270: read in the frame where sideways text stands upright (see page/turned.py)

    @property
    def size(self) -> int:
        """How many things the page holds (glyphs and drawn pieces): what keeping it in memory costs."""
        return len(self.chars) + self.drawing.size


def open_pdf(path: Path) -> PdfDocument:
    try:
        return PdfDocument(str(path))
    except (PdfiumError, OSError) as exc:
        raise ExtractionError(f"{path}: cannot be parsed as a PDF ({exc})") from None


@contextmanager
def open_page(doc: PdfDocument, index: int) -> Iterator[tuple[PdfPage, PdfTextPage]]:
    """A page and its text layer, opened once for every read below and closed after."""
    page = doc[index]
    textpage = page.get_textpage()
    try:
        yield page, textpage
    finally:
        textpage.close()
        page.close()


def page_text(textpage: PdfTextPage) -> str:
    """The page's plain text (cheap): enough to screen pages for table captions."""
    return str(textpage.get_text_range())


def mostly_sideways(textpage: PdfTextPage, samples: int = 40) -> bool:
    """Whether most of the page's text runs sideways (cheap: a sample of glyph angles), so that a caption
    there may not start a line of the plain text."""
    count = pdfium_c.FPDFText_CountChars(textpage.raw)
    if count == 0:
        return False
    picks = range(0, count, max(1, count // samples))
    sideways = sum(abs(math.sin(pdfium_c.FPDFText_GetCharAngle(textpage.raw, i))) > 0.9 for i in picks)
    return sideways * 2 > len(picks)


def read_graphics(page: PdfPage, number: int, rule_thickness: float, min_rule_length: float) -> PageContent:
    """The page's size and drawing (cheap: no text); ``number`` is 1-based."""
    frame = Frame.of(page)
    return PageContent(number, *frame.size, read_drawing(page, frame, rule_thickness, min_rule_length))


def read_chars(page: PdfPage, textpage: PdfTextPage, content: PageContent, strokes: StrokeCache | None = None) -> None:
    """Fill ``content.chars`` with the page's glyphs; ``strokes`` carries font measures from page to page."""
    content.chars = list(_read_chars(textpage, Frame.of(page), content.drawing.hidden_text))
    mark_heavy(content.chars, strokes)


def _read_chars(textpage: PdfTextPage, frame: Frame, hidden_text: set[int]) -> Iterator[Char]:
    raw = textpage.raw
    ox, oy = ctypes.c_double(), ctypes.c_double()
    loose = pdfium_c.FS_RECTF()
    styles: dict[int, _Style] = {}
    previous: Char | None = None
    codes = _unicode_codes(raw)
    page_w, page_h = frame.size
    fx, fy, height, upright_page = frame.left, frame.bottom, frame.height, frame.rotation == 0
    handle = pdfium.address(raw)
    at_loose, at_x, at_y = ctypes.addressof(loose), ctypes.addressof(ox), ctypes.addressof(oy)
    loose_box, origin, text_object = pdfium.loose_char_box, pdfium.char_origin, pdfium.text_object
    known = _TEXT_OF
    for i, code in enumerate(codes):
        text = known.get(code)
        if text is None:
            text = _glyph_text(raw, codes, i)
        if not text:
            continue
        key = text_object(handle, i) or 0
        style = styles.get(key) if key else None
        if style is None:  # glyphs of one text object share font, size and direction: read them once
            style = _read_style(handle, i, key, frame, key not in hidden_text)
            if key:
                styles[key] = style
        font, size, turn, face, shown = style
        if not shown:
            continue
        loose_box(handle, i, at_loose)
        origin(handle, i, at_x, at_y)
        if upright_page:  # the common case, without the general transform
            x0, x1 = loose.left - fx, loose.right - fx
            top, bottom = height - (loose.top - fy), height - (loose.bottom - fy)
            baseline = height - (oy.value - fy)
            origin_x = ox.value - fx if turn else 0.0
        else:
            x0, top, x1, bottom = frame.box(loose.left, loose.bottom, loose.right, loose.top)
            origin_x, baseline = frame.point(ox.value, oy.value)
        if x1 < 0 or top > page_h or bottom < 0 or x0 > page_w:
            continue  # drawn off the page: nothing a reader sees
        # the loose box spans the glyph's advance: gaps are true spaces
        ch = Char(
            text,
            x0,
            x1,
            top,
            bottom,
            baseline,
            size if size > 0.5 else max(loose.top - loose.bottom, 1.0),
            font,
            turn == 0,
            turn,
            origin_x,
            key,
            face,
        )
        if previous is not None and _is_overprint(previous, ch):
            continue  # fake bold: the same glyph drawn again a hair to the side
        previous = ch
        yield ch


_Style = tuple[str, float, int, int, bool]  # font name, size, turn, font handle, shown


def _read_style(textpage: int, i: int, key: int, frame: Frame, shown: bool) -> _Style:
    matrix = pdfium_c.FS_MATRIX()
    pdfium.char_matrix(textpage, i, ctypes.addressof(matrix))
    size = pdfium.font_size(textpage, i) * abs(matrix.a * matrix.d - matrix.b * matrix.c) ** 0.5
    buf = ctypes.create_string_buffer(256)
    n = pdfium.font_info(textpage, i, ctypes.addressof(buf), len(buf), None)
    font = buf.raw[: max(n - 1, 0)].decode("utf-8", "replace")
    face = _font_of(key) if key else 0
    return (font, size, frame.turn(matrix.a, matrix.b), face, shown)


def _unicode_codes(raw: object) -> list[int]:
    """Each glyph's code point. One bulk call where it gives one code per glyph (it gives 0xFFFE for a glyph
    without unicode, read singly; on pages where it drops glyphs, every glyph is read singly)."""
    count = pdfium_c.FPDFText_CountChars(raw)
    if count <= 0:
        return []
    buffer = (ctypes.c_ushort * (count + 1))()
    unicode_of = pdfium_c.FPDFText_GetUnicode
    if pdfium_c.FPDFText_GetText(raw, 0, count, buffer) != count + 1:
        return [unicode_of(raw, i) for i in range(count)]
    codes = buffer[:count]
    return [unicode_of(raw, i) if code == 0xFFFE else code for i, code in enumerate(codes)]


_TEXT_OF: dict[int, str] = {}  # code point -> the text its glyph prints ("" for none), where the code says it


def _glyph_text(raw: object, codes: list[int], i: int) -> str:
    """The text of glyph ``i``: "" for one that prints nothing (spaces, format marks, the low half of a
    surrogate pair, read with its high half); a control code is a glyph the font gives no unicode for."""
    code = codes[i]
    if 0xD800 <= code < 0xDC00:
        low = codes[i + 1] if i + 1 < len(codes) else 0
        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00) if 0xDC00 <= low < 0xE000 else 0xFFFD
        return _code_text(code) or ""
    text = _code_text(code)
    if text is None:
        return _unmapped_glyph(raw, i)
    _TEXT_OF[code] = text
    return text


def _code_text(code: int) -> str | None:
    if code in (0, 0xFFFE, 0xFEFF) or 0xDC00 <= code < 0xE000 or code > 0x10FFFF:
        return ""
    text = chr(code)
    if text.isspace():
        return ""
    kind = unicodedata.category(text)
    if kind == "Cc":
        return None
    return "" if kind == "Cf" else decode_glyph(text)


UNKNOWN = "\ufffd"  # a printed glyph whose text the PDF does not give


def _font_of(text_object: int) -> int:
    return pdfium.text_font(text_object) or 0


def _unmapped_glyph(raw: object, i: int) -> str:
    """A glyph without unicode whose ink is a flat bar along its line of text is a minus (or a hyphen);
    another glyph with ink is UNKNOWN (never dropped: '10' + unknown + '5' must not read as 105); one without
    ink is left out. Measured along the text's direction: in a table set sideways the bar stands upright."""
    left, right, bottom, top = (ctypes.c_double() for _ in range(4))
    pdfium_c.FPDFText_GetCharBox(raw, i, left, right, bottom, top)
    width, height = right.value - left.value, top.value - bottom.value
    if width <= 0 or height <= 0:
        return ""
    if abs(math.sin(pdfium_c.FPDFText_GetCharAngle(raw, i))) > 0.7:
        width, height = height, width
    return "-" if height <= 0.6 * width else UNKNOWN  # a hyphen bar is about twice as wide as it is thick


def _is_overprint(a: Char, b: Char) -> bool:
    close = abs(a.x0 - b.x0) < 0.15 * a.size and abs(a.baseline - b.baseline) < 0.15 * a.size
    return a.text == b.text and a.source != b.source and close
