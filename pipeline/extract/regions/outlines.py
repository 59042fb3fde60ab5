"""A captioned table with no text layer (its glyphs drawn as outlines): found from its rules and the small
filled shapes between them, and kept as a table that says why it has no cells instead of disappearing."""

from __future__ import annotations

from pipeline.extract.page.layout import PageLayout
from pipeline.extract.reading.graphics import Rule
from pipeline.extract.regions.captions import Caption
from pipeline.extract.regions.grow import Region

MIN_GLYPH_SHAPES = 20  # this many small filled shapes and no text: a table drawn as outlines


def outline_region(layout: PageLayout, caption: Caption) -> Region | None:
    """The ruled box right under the caption when it holds drawn glyph shapes and no text at all."""
    reach = 3 * caption.size
    below = sorted((r for r in layout.hrules if caption.bottom - 1 <= r.y and r.length >= 60), key=lambda r: r.y)
    if not below or below[0].y - caption.bottom > reach:
        return None
    frame = [below[0]]
    for rule in below[1:]:
        if abs(rule.x0 - frame[0].x0) > 4 or abs(rule.x1 - frame[0].x1) > 4:
            continue
        if any(frame[-1].y < ln.top and ln.bottom < rule.y for ln in layout.column_lines if _over(ln.x0, ln.x1, rule)):
            break  # text between two rules: the box ended at the last one
        frame.append(rule)
    if len(frame) < 2:
        return None
    box = (frame[0].x0, frame[0].top, frame[0].x1, frame[-1].bottom)
    if layout.words_in(*box):
        return None
    small = 2 * caption.size
    shapes = [f for f in layout.content.drawing.fills if _inside(f, box) and max(f.x1 - f.x0, f.bottom - f.top) < small]
    if len(shapes) < MIN_GLYPH_SHAPES:
        return None
    return Region(*box, caption=caption, caption_position="above", rules=frame)


def _over(x0: float, x1: float, rule: Rule) -> bool:
    return x1 > rule.x0 and x0 < rule.x1


def _inside(shape: Rule, box: tuple[float, float, float, float]) -> bool:
    return box[0] - 1 <= shape.x0 and shape.x1 <= box[2] + 1 and box[1] - 1 <= shape.top and shape.bottom <= box[3] + 1
