"""Multi-panel tables (LaTeX subcaption): one float, one caption, panels each with a sub-caption "(a) ...".

A panel is cut out of its float's region at the sub-captions: above or below each block, stacked or side
by side. Each panel becomes its own grid (its own header rows and column paths) under the float's label.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise

from pipeline.extract.page.words import Line
from pipeline.extract.reading.graphics import Rule
from pipeline.extract.regions.captions import starts_panel
from pipeline.extract.regions.grow import Region


def subcaptions(line: Line) -> list[Line]:
    """The sub-captions a line prints: one "(a) Bulk RNA expression", or several side by side ("(a) Core
    promoter      (b) Promoter detection"); none when any piece of the line is not one."""
    pieces = line.pieces
    if all(starts_panel(p.text) and len(p.words) <= 12 for p in pieces):
        return pieces
    return []


def split_panels(region: Region) -> list[Region]:
    """The panels of a captioned region, or the region itself when it holds fewer than two sub-captions."""
    found = [(ln, subcaptions(ln)) for ln in region.lines]
    subs = [piece for _, pieces in found for piece in pieces]
    if region.caption is None or len(subs) < 2:
        return [region]
    rest = [ln for ln, pieces in found if not pieces]
    rows = _rows(subs)
    items: list[Line | Rule] = [*rest, *region.rules]
    if not items:
        return [region]
    leading = rows[0][0].top <= min(it.top for it in items)  # sub-captions above their blocks
    bands = []
    for k, row in enumerate(rows):
        if leading:
            top, bottom = row[0].bottom, rows[k + 1][0].top if k + 1 < len(rows) else region.bottom + 1
        else:
            top, bottom = rows[k - 1][0].bottom if k else region.top - 1, row[0].top
        bands.append((row, top, bottom))
    panels = []
    for row, top, bottom in bands:
        centres = [(s.x0 + s.x1) / 2 for s in row]
        cuts = [region.x0 - 1, *((a + b) / 2 for a, b in pairwise(centres)), region.x1 + 1]
        if _ruled_across(region.rules, cuts[1:-1], top, bottom):
            return [region]  # one table's rules run under the "sub-captions": they title something else
        for sub, x0, x1 in zip(row, cuts, cuts[1:], strict=False):
            panel = _cut(region, rest, x0, top, x1, bottom, sub.text.strip())
            if panel is not None:
                panels.append(panel)
    if len(panels) < 2 or (region.rules and not all(p.rules for p in panels)):
        return [region]  # a ruled float rules each of its panels
    return panels


def _ruled_across(rules: list[Rule], cuts: list[float], top: float, bottom: float) -> bool:
    """A rule of the band running across a cut between side-by-side panels: the band is one table."""
    return any(
        r.x0 < cut - 6 and r.x1 > cut + 6 for r in rules if top <= (r.top + r.bottom) / 2 <= bottom for cut in cuts
    )


def _rows(subs: list[Line]) -> list[list[Line]]:
    """Sub-captions grouped by the line they share (side-by-side panels), top to bottom, left to right."""
    rows: list[list[Line]] = []
    for line in sorted(subs, key=lambda ln: (ln.top, ln.x0)):
        if rows and abs(rows[-1][0].top - line.top) < 0.5 * line.size:
            rows[-1].append(line)
        else:
            rows.append([line])
    return [sorted(row, key=lambda ln: ln.x0) for row in rows]


def _cut(
    region: Region, lines: list[Line], x0: float, top: float, x1: float, bottom: float, title: str
) -> Region | None:
    def inside(a0: float, t: float, a1: float, b: float) -> bool:
        return top <= (t + b) / 2 <= bottom and x0 <= (a0 + a1) / 2 <= x1

    pieces = [p for ln in lines for p in ln.pieces]  # a line across side-by-side panels: its pieces
    mine = [p for p in pieces if inside(p.x0, p.top, p.x1, p.bottom)]
    rules = [r for r in region.rules if inside(r.x0, r.top, r.x1, r.bottom)]
    if not mine:
        return None
    boxes = [(it.x0, it.top, it.x1, it.bottom) for it in [*mine, *rules]]
    return replace(
        region,
        x0=min(b[0] for b in boxes),
        top=min(b[1] for b in boxes),
        x1=max(b[2] for b in boxes),
        bottom=max(b[3] for b in boxes),
        lines=mine,
        rules=rules,
        panel=title,
    )
