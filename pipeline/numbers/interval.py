"""Printed numbers as intervals: a value printed as 0.851 stands for any true value in [0.8505, 0.8515].

Arithmetic on these intervals is exact (fractions, not floats), so a verdict of "inconsistent" is a
proof under any round-to-nearest convention, and "consistent within rounding" is said as such. The
bounds are treated as closed so that ties at the edge never count against a paper.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class Interval:
    """A closed interval of exact fractions."""

    lo: Fraction
    hi: Fraction

    def __add__(self, other: Interval) -> Interval:
        return Interval(self.lo + other.lo, self.hi + other.hi)

    def scaled(self, factor: Fraction) -> Interval:
        a, b = self.lo * factor, self.hi * factor
        return Interval(min(a, b), max(a, b))

    def overlaps(self, other: Interval) -> bool:
        return max(self.lo, other.lo) <= min(self.hi, other.hi)

    def contains(self, value: Fraction) -> bool:
        return self.lo <= value <= self.hi

    def below(self, other: Interval) -> bool:
        """Every value here is smaller than every value in ``other`` (provably smaller)."""
        return self.hi < other.lo

    @property
    def width(self) -> Fraction:
        return self.hi - self.lo

    def describe(self, digits: int = 6) -> str:
        return f"[{_fmt(self.lo, digits)}, {_fmt(self.hi, digits)}]"


def interval_sum(parts: Iterable[Interval]) -> Interval:
    total = Interval(Fraction(0), Fraction(0))
    for part in parts:
        total = total + part
    return total


def interval_mean(parts: list[Interval]) -> Interval:
    return interval_sum(parts).scaled(Fraction(1, len(parts)))


def _fmt(value: Fraction, digits: int) -> str:
    text = f"{float(value):.{digits}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def fmt_number(value: Fraction, decimals: int) -> str:
    """A computed value printed with the paper's precision plus one digit (so rounding is visible)."""
    return f"{float(value):.{decimals + 1}f}"
