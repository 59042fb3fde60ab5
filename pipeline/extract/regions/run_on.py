"""A captioned table with an uncaptioned one right beyond it in its column (on the side away from the caption),
nothing between them but a line or two of text: one table cut in two where its walk stopped at a line that only
looked like running text (a full-width note row, a long label), or two tables. The page cannot tell them apart,
so both are kept as read and doubted, each with why."""

from __future__ import annotations

from pipeline.extract.page.layout import PageLayout
from pipeline.extract.regions.grow import Region

RUN_ON_CONFIDENCE = 0.6  # under the audit's warning bar (0.8): what a check finds in either part is a warning
MAX_LINES_BETWEEN = 2  # lines of text between the two parts: a note row or a wrapped label, not a paragraph


def doubt_run_ons(regions: list[Region], layout: PageLayout) -> None:
    """Doubts added to each captioned region and the uncaptioned one that may be its rest."""
    for table in regions:
        if table.caption is None:
            continue
        for rest in regions:
            if rest.caption is None and _runs_on(table, rest, layout):
                label = table.caption.label
                table.doubts.append(
                    (RUN_ON_CONFIDENCE, "an uncaptioned table follows right beyond it in its column: may be cut in two")
                )
                rest.doubts.append((RUN_ON_CONFIDENCE, f"follows right beyond {label} in its column: may be its rest"))


def _runs_on(table: Region, rest: Region, layout: PageLayout) -> bool:
    """``rest`` lies beyond ``table`` (under it when the caption is above), in the same column, close, with
    at most a couple of lines between."""
    below = table.caption_position != "below"
    top, bottom = (table.bottom, rest.top) if below else (rest.bottom, table.top)
    line_h = 1.2 * layout.body_size + layout.extra_leading
    if not 0 <= bottom - top <= (MAX_LINES_BETWEEN + 1.5) * line_h:
        return False
    shared = min(table.x1, rest.x1) - max(table.x0, rest.x0)
    if shared < 0.6 * min(table.x1 - table.x0, rest.x1 - rest.x0):
        return False
    between = [
        ln
        for ln in layout.column_lines
        if top - 1 <= ln.top
        and ln.bottom <= bottom + 1
        and ln.x1 > max(table.x0, rest.x0)
        and ln.x0 < min(table.x1, rest.x1)
    ]
    return len(between) <= MAX_LINES_BETWEEN
