"""Tables with neither caption nor rules (statistical reports): runs of lines whose words stand in
aligned columns, with numbers in them."""

from __future__ import annotations

from pipeline.extract.page.layout import PageLayout, is_prose
from pipeline.extract.page.words import Line
from pipeline.extract.regions.captions import is_figure_caption
from pipeline.extract.regions.grow import Region
from pipeline.numbers import looks_numeric


def _numeric(line: Line) -> bool:
    return any(looks_numeric(f.text) for f in line.pieces[1:])


def _aligned(a: Line, b: Line) -> int:
    """How many of b's cell starts or ends line up with a's (within 3 pt)."""
    edges_a = [(f.x0, f.x1) for f in a.pieces]
    hits = 0
    for f in b.pieces:
        hits += any(abs(f.x0 - x0) < 3 or abs(f.x1 - x1) < 3 for x0, x1 in edges_a)
    return hits


def find_whitespace_regions(layout: PageLayout, taken: list[Region]) -> list[Region]:
    """Runs of at least three tabular lines with numbers, aligned with each other, not inside another
    region and not next to a figure caption; a few label lines above the run are its header."""
    free = [
        ln
        for ln in layout.column_lines
        if layout.body_top <= ln.top
        and ln.bottom <= layout.body_bottom
        and not any(t.x0 - 2 <= ln.x0 and ln.x1 <= t.x1 + 2 and t.top - 2 <= ln.top <= t.bottom + 2 for t in taken)
    ]
    if any(is_figure_caption(ln.text) for ln in free):
        return []
    regions: list[Region] = []
    run: list[Line] = []
    for ln in [*free, None]:
        if ln is not None and run and _extends(run, ln, layout):
            run.append(ln)
            continue
        if len([r for r in run if len(r.pieces) > 1]) >= 3 and sum(_numeric(r) for r in run) >= 2:
            lines = _with_header(run, free, layout)
            regions.append(Region(min(r.x0 for r in lines), lines[0].top, max(r.x1 for r in lines), lines[-1].bottom))
            regions[-1].lines = lines
        run = [ln] if ln is not None and _starts_run(ln, layout) else []
    return regions


def _starts_run(ln: Line, layout: PageLayout) -> bool:
    return len(ln.pieces) > 1 and not _prose(ln, layout)


def _prose(ln: Line, layout: PageLayout) -> bool:
    return is_prose(ln, layout.text_x1 - layout.text_x0, layout.body_size)


def _extends(run: list[Line], ln: Line, layout: PageLayout) -> bool:
    last = run[-1]
    if (
        ln.top - last.bottom > 1.2 * last.size + layout.extra_leading
        or ln.x1 < run[0].x0
        or ln.x0 > max(r.x1 for r in run)
    ):
        return False
    if len(ln.pieces) == 1:  # a label line inside the table (a group name, a wrapped stub)
        return not _prose(ln, layout) and len(ln.words) <= 6
    return _aligned(last, ln) >= 1 or _aligned(run[0], ln) >= 1


def _with_header(run: list[Line], free: list[Line], layout: PageLayout) -> list[Line]:
    """Up to three short, non-prose lines right above the run (column titles, years)."""
    above = [
        ln
        for ln in free
        if ln.bottom <= run[0].top and ln.x0 >= run[0].x0 - 20 and ln.x1 <= max(r.x1 for r in run) + 20
    ]
    head: list[Line] = []
    edge = run[0].top
    for ln in sorted(above, key=lambda ln: -ln.bottom)[:3]:
        if edge - ln.bottom > 1.0 * ln.size + layout.extra_leading or _prose(ln, layout):
            break
        if ln.text.rstrip().endswith(":"):  # a title line ("World Production Capacity:") is not a header
            break
        head.insert(0, ln)
        edge = ln.top
    return head + run
