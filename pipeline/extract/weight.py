"""Bold and italic faces: from the font's name ('Times-Bold', 'CMBX10', 'NimbusRomNo9L-Medi'), and bold
type without a telling name (subset fonts like 'AdvP6960'): a font whose glyph strokes are much thicker
than those of the page's main font is a bold face.

Stroke thickness is read from glyph outlines (in em units, so sizes do not matter) in two ways, and a
font is compared with the page's main font on the same few letters and digits.
"""

from __future__ import annotations

import ctypes
import math
import re
from collections import Counter
from statistics import median
from typing import TYPE_CHECKING

import pypdfium2.raw as pdfium_c

if TYPE_CHECKING:  # chars.py calls in here while reading a page
    from pipeline.extract.chars import Char


_BOLD = re.compile(r"bold|black|heavy|semibold|demi|medi(?:um)?\b|-medi|\.b\b|,b\b|cmbx|cmb\d|bx\d", re.IGNORECASE)
_ITALIC = re.compile(
    r"italic|oblique|(?:-|light|medium|bold|book|regular|black|heavy|cond)it\b|ital|cmti|cmmi|cmsl|slant", re.I
)  # 'MyriadPro-LightIt', 'Times-BoldIt'


def font_is_bold(font: str) -> bool:
    return bool(_BOLD.search(font.split("+", 1)[-1]))


def font_is_italic(font: str) -> bool:
    return bool(_ITALIC.search(font.split("+", 1)[-1]))


HEAVIER = 1.3  # a face this much thicker than the main text's is bold (regular against bold: 1.35 to 1.75)
SAMPLE = 5  # distinct glyphs compared per font


def mark_heavy(chars: list[Char]) -> None:
    """Set ``heavy`` on the glyphs of fonts whose strokes are much thicker than those of the page's most
    used font, comparing the same characters in both (call while the page is open: ``Char.face`` is a
    font handle)."""
    used = Counter(ch.face for ch in chars if ch.face and ch.text.isalnum())
    if len(used) < 2:
        return
    body = used.most_common(1)[0][0]
    named = {face for face, font in {ch.face: ch.font for ch in chars}.items() if font_is_bold(font)}
    texts: dict[int, set[str]] = {}
    for face, text in {(ch.face, ch.text) for ch in chars if ch.face in used and ch.face not in named}:
        if text.isalnum() and face != body:
            texts.setdefault(face, set()).add(text)
    plain: dict[str, Strokes | None] = {}
    heavy = set()
    for face, faces_texts in texts.items():
        ratios: list[tuple[float, float]] = []
        for text in sorted(faces_texts)[:SAMPLE]:
            if text not in plain:
                plain[text] = _strokes(_outline(body, text))
            mine, theirs = _strokes(_outline(face, text)), plain[text]
            if mine and theirs and min(theirs) > 0:
                ratios.append((mine[0] / theirs[0], mine[1] / theirs[1]))
        if ratios and min(median(r[0] for r in ratios), median(r[1] for r in ratios)) >= HEAVIER:
            heavy.add(face)
    for ch in chars:
        if ch.face in heavy:
            ch.heavy = True


Outline = list[list[tuple[float, float]]]
Strokes = tuple[float, float]  # mean stroke width, stem width (em)


def _outline(font: int, text: str) -> Outline:
    handle = ctypes.cast(ctypes.c_void_p(font), pdfium_c.FPDF_FONT)
    path = pdfium_c.FPDFFont_GetGlyphPath(handle, ord(text[0]), ctypes.c_float(1.0))
    if not path:
        return []
    x, y = ctypes.c_float(), ctypes.c_float()
    contours: Outline = []
    for i in range(pdfium_c.FPDFGlyphPath_CountGlyphSegments(path)):
        segment = pdfium_c.FPDFGlyphPath_GetGlyphPathSegment(path, i)
        pdfium_c.FPDFPathSegment_GetPoint(segment, x, y)
        if pdfium_c.FPDFPathSegment_GetType(segment) == pdfium_c.FPDF_SEGMENT_MOVETO or not contours:
            contours.append([])
        contours[-1].append((x.value, y.value))
    return [points for points in contours if len(points) > 2]


def _strokes(contours: Outline) -> Strokes | None:
    """Mean stroke width (2 * area / perimeter: hairlines pull it down, so a sans face reads heavier than
    a serif one) and stem width (the widest of the thinnest crossings at three heights: bowls and
    small capitals fool it, but not a sans face). Bold is thicker by both."""
    if not contours:
        return None
    area = perimeter = 0.0
    for points in contours:
        ring = [*points[1:], points[0]]
        area += sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, ring, strict=True)) / 2
        perimeter += sum(math.hypot(x1 - x0, y1 - y0) for (x0, y0), (x1, y1) in zip(points, ring, strict=True))
    ys = [y for points in contours for _, y in points]
    stems = [w for part in (0.35, 0.5, 0.65) if (w := _thinnest(contours, min(ys) + part * (max(ys) - min(ys))))]
    if perimeter <= 0 or not stems:
        return None
    return 2 * abs(area) / perimeter, max(stems)


def _thinnest(contours: Outline, y: float) -> float | None:
    """The narrowest run of ink along the horizontal line at ``y``."""
    xs = sorted(
        x0 + (y - y0) * (x1 - x0) / (y1 - y0)
        for points in contours
        for (x0, y0), (x1, y1) in zip(points, [*points[1:], points[0]], strict=True)
        if (y0 <= y < y1) or (y1 <= y < y0)
    )
    runs = [b - a for a, b in zip(xs[::2], xs[1::2], strict=False)]
    return min(runs) if runs else None
