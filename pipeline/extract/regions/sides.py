"""Which side of its caption each table lies on: local evidence first, the document's habit for ties.

Every table belongs to one caption. Where two captions could claim the same table (a caption set
below its table, with the next table's caption below that one), the page's captions are settled
together: as many captions as possible get a table of their own, then the sides the document's
habit prefers, then the sides that look most like a table.
"""

from __future__ import annotations

from itertools import product
from math import prod

from pipeline.extract.regions.grow import Region

Options = dict[bool, Region]  # below (True) / above (False) -> the table grown on that side


def choose_sides(scores: list[tuple[int, float, float]], margin: float = 2.5) -> list[bool | None]:
    """Below (True), above (False) or no table (None) for each (page, below score, above score).

    Papers set their captions on one side (supplements sometimes on the other): a caption with a
    table on one side only votes, and a caption with table-like material on both sides follows the
    votes of the nearest pages unless one side clearly wins.
    """
    votes = [(page, b > 0) for page, b, a in scores if (b > 0) != (a > 0)]
    sides: list[bool | None] = []
    for page, below, above in scores:
        if below <= 0 and above <= 0:
            sides.append(None)
        elif below > 0 and above > 0 and abs(below - above) < margin:
            sides.append(_nearest_vote(votes, page, True))  # style guides mostly set the caption above
        else:
            sides.append(below >= above)
    return sides


def _nearest_vote(votes: list[tuple[int, bool]], page: int, default: bool) -> bool:
    if not votes:
        return default
    nearest = min(abs(p - page) for p, _ in votes)
    near = [v for p, v in votes if abs(p - page) <= nearest + 1]
    below = sum(near)
    return default if below * 2 == len(near) else below * 2 > len(near)


def settle_page(
    options: list[Options], preferred: list[bool | None], scores: list[tuple[float, float]], limit: int = 4096
) -> list[Region | None]:
    """One region (or none) per caption of a page, no two sharing a line of the page."""
    choices = [[None, *opts] for opts in options]
    if prod(len(c) for c in choices) > limit:  # too many captions to weigh together: the preferred sides
        choices = [[pref] if pref in opts else [None] for opts, pref in zip(options, preferred, strict=True)]
    best: tuple[int, int, float] | None = None
    chosen: list[Region | None] = [None] * len(options)
    for combo in product(*choices):
        regions = [opts[side] if side is not None else None for opts, side in zip(options, combo, strict=True)]
        if _clash(regions):
            continue
        rank = (
            sum(side is not None for side in combo),
            sum(side is not None and side == pref for side, pref in zip(combo, preferred, strict=True)),
            sum(sc[0] if side else sc[1] for side, sc in zip(combo, scores, strict=True) if side is not None),
        )
        if best is None or rank > best:
            best, chosen = rank, regions
    return chosen


def _clash(regions: list[Region | None]) -> bool:
    seen: set[int] = set()
    for region in regions:
        if region is None:
            continue
        ids = {id(line) for line in region.lines}
        if ids & seen:
            return True
        seen |= ids
    return False
