"""Tables cut from the figures set against them: a captioned table whose walk ran on into a plot right under
it, and an uncaptioned table read as one region with the chart beside it. Each cut says why in a note."""

from __future__ import annotations

from dataclasses import replace

from pipeline.extract.page.layout import PageLayout
from pipeline.extract.page.words import Line
from pipeline.extract.reading.clips import intersection
from pipeline.extract.reading.graphics import Rule
from pipeline.extract.regions.figures import (
    STRONG_SIGNALS,
    Box,
    area,
    background,
    bounds,
    box_of,
    centred_in,
    figure_reasons,
    overlap,
)
from pipeline.extract.regions.grow import Region

SIDE_INK_SHARE = 0.1  # a table cut from a figure beside it holds at most this share of the drawn area
CUT_INK_SHARE = 0.02  # the figure's ink begins where all but this share of it lies beyond


def cut_before_figure(layout: PageLayout, region: Region) -> Region | None:
    """A captioned region whose walk ran on from its table into a figure set right against it (no gap or
    prose stopped it): cut before the first line within a line and a half of where the figure's ink begins
    (its title and top tick labels stand there), when the part beyond is drawn like a figure and the part
    before is not."""
    if not figure_reasons(layout, region.bbox, STRONG_SIGNALS):
        return None
    below = region.caption_position == "above"  # the caption above the table: the table runs down from it
    lines = sorted(region.lines, key=lambda ln: ln.top, reverse=not below)
    drawing = layout.content.drawing
    ink = sorted(i.y for i in [*drawing.marks, *drawing.ticks, *drawing.images] if centred_in(i, region.bbox))
    if not ink:
        return None
    start = ink[int(CUT_INK_SHARE * len(ink))] if below else ink[-1 - int(CUT_INK_SHARE * len(ink))]
    reach = 1.5 * layout.body_size
    n = next((k for k, ln in enumerate(lines) if (ln.bottom > start - reach if below else ln.top < start + reach)), 0)
    if n < 2:
        return None
    part, rest = lines[:n], lines[n:]
    beyond = figure_reasons(layout, box_of(rest), STRONG_SIGNALS)
    if not beyond or figure_reasons(layout, box_of(part), STRONG_SIGNALS):
        return None
    edge = (part[-1].bottom + rest[0].top) / 2 if below else (part[-1].top + rest[0].bottom) / 2
    rules = [r for r in region.rules if (r.y <= edge if below else r.y >= edge)]
    x0, top, x1, bottom = box_of([*part, *rules])
    notes = [*region.notes, f"ends where a figure drawn against it begins ({'; '.join(beyond)})"]
    return replace(region, x0=x0, top=top, x1=x1, bottom=bottom, lines=part, rules=rules, notes=notes)


def _drawn_share(layout: PageLayout, part: Box, figure: Box) -> float:
    """The share of the figure's drawing (marks, images, and shading in the colours the figure's side uses,
    by area) that lies in ``part``: a table's own shading, in colours of its own, does not count."""
    drawing = layout.content.drawing
    shades = {f.shade for f in drawing.fills if centred_in(f, figure)}
    fills = [f for f in drawing.fills if f.shade in shades]
    whole = (min(part[0], figure[0]), min(part[1], figure[1]), max(part[2], figure[2]), max(part[3], figure[3]))
    drawn = [bounds(d) for d in [*fills, *drawing.images, *drawing.marks] if centred_in(d, whole)]
    total = sum(area(intersection(d, whole)) for d in drawn)
    return sum(overlap(d, part) for d in drawn) / total if total > 0 else 0.0


def split_beside_figure(layout: PageLayout, region: Region) -> tuple[Region, Box] | None:
    """An uncaptioned region that holds a table and a figure side by side (a chart beside its data): the side
    not drawn like a figure, cut at a gutter that runs down through every line, and the figure's side (drawn
    on a little past its labels); of several such gutters, the one that leaves the table the most words. The
    figure's drawing must lie on its side (a heat map's first columns are no table)."""
    margin = 1.5 * layout.body_size
    best: tuple[int, Region, Box] | None = None
    for x in _gutters(region):
        for left in (True, False):
            lines = [Line(ws) for ln in region.lines if (ws := [w for w in ln.words if (w.center_x < x) == left])]
            words = sum(len(ln.words) for ln in lines)
            if sum(len(ln.pieces) > 1 for ln in lines) < 2 or (best is not None and words <= best[0]):
                continue  # (a table has columns: a column of tick labels cut off its plot is none)
            top, bottom = region.top, region.bottom
            part = (region.x0, top, x, bottom) if left else (x, top, region.x1, bottom)
            other = (x, top, region.x1 + margin, bottom) if left else (region.x0 - margin, top, x, bottom)
            if _drawn_share(layout, part, other) > SIDE_INK_SHARE or figure_reasons(layout, box_of(lines)):
                continue
            if not figure_reasons(layout, other):
                continue
            rules = [r for r in region.rules if part[0] - 2 <= r.x <= part[2] + 2]
            note = "set beside a figure: cut at the gutter between them"
            table = Region(*box_of([*lines, *rules]), lines=lines, rules=rules, notes=[*region.notes, note])
            best = (words, table, _with_drawing(layout, other))
    return None if best is None else (best[1], best[2])


def _with_drawing(layout: PageLayout, box: Box) -> Box:
    """The box grown over what is drawn reaching into it (a chart's bars run on past its labels)."""
    drawing = layout.content.drawing
    drawn = [d for d in [*drawing.fills, *drawing.marks, *drawing.images] if overlap(bounds(d), box) > 0]
    return box_of([Rule(*box), *(d for d in drawn if not background(d, layout.content))])


def _gutters(region: Region) -> list[float]:
    """Middles of the vertical bands of whitespace that run down through every line of the region."""
    spans = sorted((w.x0, w.x1) for ln in region.lines for w in ln.words)
    gutters, reach = [], spans[0][1] if spans else 0.0
    for x0, x1 in spans[1:]:
        if x0 > reach + 2:
            gutters.append((reach + x0) / 2)
        reach = max(reach, x1)
    return gutters
