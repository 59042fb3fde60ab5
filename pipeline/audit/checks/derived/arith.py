"""Interval arithmetic the relations need beyond sums and means: differences, quotients, images of
monotone functions. Bounds stay exact fractions where the arithmetic is rational."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction
from itertools import product

from pipeline.numbers import Interval


def point(value: Fraction | int) -> Interval:
    return Interval(Fraction(value), Fraction(value))


def sub(a: Interval, b: Interval) -> Interval:
    return Interval(a.lo - b.hi, a.hi - b.lo)


def div(a: Interval, b: Interval) -> Interval | None:
    """a / b, or None when b may be zero (the quotient is unbounded)."""
    if b.lo <= 0 <= b.hi:
        return None
    corners = [x / y for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
    return Interval(min(corners), max(corners))


def hull(parts: Iterable[Interval]) -> Interval:
    items = list(parts)
    return Interval(min(i.lo for i in items), max(i.hi for i in items))


def monotone_image(fn: Callable[..., Fraction], *args: Interval) -> Interval:
    """The range of ``fn`` over a box, for a function monotone in each argument: its values at the corners."""
    values = [fn(*corner) for corner in product(*((i.lo, i.hi) for i in args))]
    return Interval(min(values), max(values))
