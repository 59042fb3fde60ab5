"""Bold and italic faces: from the font's name ('Times-Bold', 'CMBX10', 'NimbusRomNo9L-Medi'), and bold
type without a telling name (subset fonts like 'AdvP6960'): a font whose glyph strokes are much thicker
than those of the page's main font is a bold face.

Stroke thickness is read from glyph outlines (in em units, so sizes do not matter) in two ways, and a
font is compared with the page's main font on the same few letters and digits.
"""

from __future__ import annotations

import ctypes
import functools
import math
import re
from collections import Counter
from collections.abc import Callable
from statistics import median
from typing import TYPE_CHECKING

import pypdfium2.raw as pdfium_c

from pipeline.extract.reading import addresses as pdfium

if TYPE_CHECKING:  # chars.py calls in here while reading a page
    from pipeline.extract.reading.chars import Char


_BOLD = re.compile(r"bold|black|heavy|semibold|demi|medi(?:um)?\b|-medi|\.b\b|,b\b|cmbx|cmb\d|bx\d", re.IGNORECASE)
_ITALIC = re.compile(
    r"italic|oblique|(?:-|light|medium|bold|book|regular|black|heavy|cond)it\b|ital|cmti|cmmi|cmsl|slant", re.I
)  # 'MyriadPro-LightIt', 'Times-BoldIt'


@functools.lru_cache(maxsize=4096)  # asked per glyph; a document has a few dozen font names
def font_is_bold(font: str) -> bool:
    return bool(_BOLD.search(font.split("+", 1)[-1]))


@functools.lru_cache(maxsize=4096)
def font_is_italic(font: str) -> bool:
    return bool(_ITALIC.search(font.split("+", 1)[-1]))


HEAVIER = 1.3  # a face this much thicker than the main text's is bold (regular against bold: 1.35 to 1.75)
SAMPLE = 5  # distinct glyphs compared per font


def mark_heavy(chars: list[Char], strokes: StrokeCache | None = None) -> None:
    """Set ``heavy`` on the glyphs of fonts whose strokes are much thicker than those of the page's most
    used font, comparing the same characters in both (call while the page is open: ``Char.face`` is a
    font handle). ``strokes`` keeps glyph measures for the next pages of the document."""
    glyphs = Counter((ch.face, ch.font, ch.text) for ch in chars)  # one pass over the page's glyphs
    used: Counter[int] = Counter()
    for (face, _, text), n in glyphs.items():
        if face and text.isalnum():
            used[face] += n
    if len(used) < 2:
        return
    body = used.most_common(1)[0][0]
    names = {face: font for face, font, _ in glyphs}
    texts: dict[int, set[str]] = {}
    for face, _, text in glyphs:
        if face in used and not font_is_bold(names[face]) and text.isalnum() and face != body:
            texts.setdefault(face, set()).add(text)
    measure = _measurer({} if strokes is None else strokes, names)
    heavy = set()
    for face, faces_texts in texts.items():
        ratios: list[tuple[float, float]] = []
        for text in sorted(faces_texts)[:SAMPLE]:
            mine, theirs = measure(face, text), measure(body, text)
            if mine and theirs and min(theirs) > 0:
                ratios.append((mine[0] / theirs[0], mine[1] / theirs[1]))
        if ratios and min(median(r[0] for r in ratios), median(r[1] for r in ratios)) >= HEAVIER:
            heavy.add(face)
    if heavy:
        for ch in chars:
            if ch.face in heavy:
                ch.heavy = True


Strokes = tuple[float, float]  # mean stroke width, stem width (em)
StrokeCache = dict[tuple[str, int, str], Strokes | None]  # (font name, font handle, glyph) -> its strokes


def _measurer(cache: StrokeCache, names: dict[int, str]) -> Callable[[int, str], Strokes | None]:
    """Glyph strokes read once per font and glyph: a font keeps its handle from page to page, and the name
    with the handle tells a font apart from one loaded later at a freed handle."""

    def measure(face: int, text: str) -> Strokes | None:
        key = (names[face], face, text)
        if key not in cache:
            cache[key] = _strokes(_outline(face, text))
        return cache[key]

    return measure


Outline = list[list[tuple[float, float]]]


def _outline(font: int, text: str) -> Outline:
    path = pdfium.glyph_path(font, ord(text[0]), 1.0)
    if not path:
        return []
    point = pdfium.Out(ctypes.c_float, 2, "f")
    contours: Outline = []
    for i in range(pdfium.glyph_path_count(path)):
        segment = pdfium.glyph_path_segment(path, i)
        pdfium.segment_point(segment, *point.at)
        if pdfium.segment_type(segment) == pdfium_c.FPDF_SEGMENT_MOVETO or not contours:
            contours.append([])
        x, y = point.values
        contours[-1].append((x, y))
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
