"""Tables without a "Table N" caption (reports, forms): found from their rules, checked by their content."""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from pipeline.extract.page.layout import PageLayout, body_bounds, is_prose, is_tabular
from pipeline.extract.page.words import Line
from pipeline.extract.reading.chars import PageContent
from pipeline.extract.reading.graphics import Rule, merge_collinear
from pipeline.extract.regions.grow import Region


def _overlaps(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > 2 and min(a[3], b[3]) - max(a[1], b[1]) > 2


def _same_extent(a: Rule, b: Rule) -> bool:
    short = min(a.x1 - a.x0, b.x1 - b.x0)
    return min(a.x1, b.x1) - max(a.x0, b.x0) >= 0.8 * short and short >= 0.6 * max(a.x1 - a.x0, b.x1 - b.x0)


def _touch(h: Rule, v: Rule) -> bool:
    return h.x0 - 3 <= v.x <= h.x1 + 3 and v.top - 3 <= h.y <= v.bottom + 3


def _candidate_rules(content: PageContent, top: float, bottom: float) -> tuple[list[Rule], list[Rule]]:
    """Rules, and the edges of shaded boxes smaller than a quarter page, inside the body band."""
    page_area = content.width * content.height
    fills = [f for f in content.drawing.fills if (f.x1 - f.x0) * (f.bottom - f.top) < 0.25 * page_area]
    edges = merge_collinear([e for f in fills for e in _edges(f)])
    return [r for r in content.drawing.rules if top <= r.y <= bottom], [e for e in edges if top <= e.y <= bottom]


def may_hold_ruled_table(content: PageContent) -> bool:
    """Cheap test before reading a page's text: two horizontal rules (or shading edges) of one extent, or a
    rule crossed by two vertical ones, outside the running head and foot."""
    top, bottom = body_bounds(content)
    rules = [r for group in _candidate_rules(content, top, bottom) for r in group]
    hs = [r for r in rules if r.horizontal and r.length >= 30]
    vs = [r for r in rules if not r.horizontal]
    for k, a in enumerate(hs):
        if sum(_touch(a, v) for v in vs) >= 2 or any(_same_extent(a, b) for b in hs[k + 1 :]):
            return True
    return False


def rule_groups(layout: PageLayout) -> list[list[Rule]]:
    """Rules that belong together: crossing or touching each other, or horizontal rules of one extent with
    no running text between them."""
    real, edges = _candidate_rules(layout.content, layout.body_top, layout.body_bottom)
    rules = real + edges
    parent = list(range(len(rules)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    hs = sorted((i for i, r in enumerate(rules) if r.horizontal), key=lambda i: rules[i].y)
    vs = sorted((i for i, r in enumerate(rules) if not r.horizontal), key=lambda j: rules[j].x)
    xs = [rules[j].x for j in vs]
    ends: dict[int, set[str]] = {i: set() for i in hs}  # "below": a real vertical rule ends at it, "above": starts
    for i in hs:
        h = rules[i]
        for j in vs[bisect_left(xs, h.x0 - 3) : bisect_right(xs, h.x1 + 3)]:
            v = rules[j]
            if _touch(h, v):
                parent[find(j)] = find(i)
                if j < len(real):
                    ends[i] |= {"below"} if abs(v.bottom - h.y) <= 3 else {"above"} if abs(v.top - h.y) <= 3 else set()
    for k, i in enumerate(hs):
        for j in hs[k + 1 :]:
            a, b = rules[i], rules[j]
            if _same_extent(a, b) and not _prose_between(layout, a, b):
                if not ("below" in ends[i] and "above" in ends[j]):  # two boxes one under the other stay apart
                    parent[find(j)] = find(i)
                break
    groups: dict[int, list[Rule]] = {}
    for i, r in enumerate(rules):
        groups.setdefault(find(i), []).append(r)
    return list(groups.values())


def _edges(box: Rule) -> list[Rule]:
    """A filled box (shading behind a row or a cell) bounds its cells like four rules."""
    x0, top, x1, bottom = box.x0, box.top, box.x1, box.bottom
    return [Rule(x0, top, x1, top), Rule(x0, bottom, x1, bottom), Rule(x0, top, x0, bottom), Rule(x1, top, x1, bottom)]


def _prose_between(layout: PageLayout, a: Rule, b: Rule) -> bool:
    width = max(a.x1 - a.x0, 1.0)
    return any(
        a.y < ln.top and ln.bottom < b.y and ln.x1 > a.x0 and ln.x0 < a.x1 and is_prose(ln, width, layout.body_size)
        for ln in layout.column_lines
    )


def find_ruled_regions(layout: PageLayout, taken: list[Region]) -> list[Region]:
    """Regions drawn by rules (two horizontal rules of one extent, or a grid), outside the captioned ones."""
    regions = []
    for group in rule_groups(layout):
        hs = [r for r in group if r.horizontal]
        if len(hs) < 2 and not (hs and len(group) - len(hs) >= 2):
            continue
        box = _bounds(group)
        if box[2] - box[0] < 40 or any(_overlaps(box, t.bbox) for t in [*taken, *regions]):
            continue
        box = _extend(layout, box)
        lines = [ln for ln in layout.column_lines if _within(ln, box)]
        if len(lines) >= 2 and sum(is_tabular(ln) for ln in lines) >= 1:
            regions.append(Region(*box, lines=lines, rules=group))
    return regions


def _bounds(rules: list[Rule]) -> tuple[float, float, float, float]:
    return (min(r.x0 for r in rules), min(r.top for r in rules), max(r.x1 for r in rules), max(r.bottom for r in rules))


def _within(line: Line, box: tuple[float, float, float, float]) -> bool:
    return box[0] - 2 <= line.x0 and line.x1 <= box[2] + 2 and box[1] <= line.top and line.bottom <= box[3]


def _extend(layout: PageLayout, box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """Tabular lines right above the first rule or right below the last (a header or a last row unruled)."""
    x0, top, x1, bottom = box
    lines = sorted(
        (ln for ln in layout.column_lines if ln.x0 >= x0 - 2 and ln.x1 <= x1 + 2 and is_tabular(ln)),
        key=lambda ln: ln.top,
    )
    for ln in reversed([ln for ln in lines if ln.bottom <= top]):
        if top - ln.bottom > 0.8 * ln.size + layout.extra_leading:
            break
        top = ln.top
    for ln in [ln for ln in lines if ln.top >= bottom]:
        if ln.top - bottom > 0.8 * ln.size + layout.extra_leading:
            break
        bottom = ln.bottom
    return (x0, top, x1, bottom)
