"""Printed numbers as intervals: a value printed as 0.851 stands for any true value in [0.8505, 0.8515].

Arithmetic on these intervals is exact (fractions, not floats), so a verdict of "inconsistent" is a
proof under any round-to-nearest convention, and "consistent within rounding" is said as such. The
bounds are treated as closed so that ties at the edge never count against a paper.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

_SUFFIX = {"": 1, "K": 10**3, "k": 10**3, "M": 10**6, "B": 10**9, "G": 10**9, "T": 10**12}
_MINUS = str.maketrans({"−": "-", "–": "-", "—": "-", "\u2009": "", "\u202f": "", "\xa0": " "})

_NUM = r"[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?(?:[eE][-+]?\d+)?"
_MARKS = r"(?:\s?(?:[*∗†‡§¶#⋆★✝]+|\^[A-Za-z0-9]+|\^?\{[^}]*\}))*"
_PRINTED = re.compile(
    rf"^(?P<num>{_NUM})(?P<suffix>[KkMBGT])?\s?(?P<pct1>%)?"
    rf"(?:\s*(?:±|\+/-|\+-)\s*(?P<pm>{_NUM})\s?(?P<pct3>%)?|\s?\(\s*(?P<paren>{_NUM})\s*\))?"
    rf"\s?(?P<pct2>%)?(?P<marks>{_MARKS})$"
)


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

    def below(self, other: Interval) -> bool:
        """Every value here is smaller than every value in ``other`` (provably smaller)."""
        return self.hi < other.lo

    def describe(self, digits: int = 6) -> str:
        return f"[{_fmt(self.lo, digits)}, {_fmt(self.hi, digits)}]"


@dataclass(frozen=True)
class PrintedNumber:
    """A number as printed in a cell, with the interval its printed precision stands for."""

    text: str
    value: Fraction
    half_unit: Fraction  # half of the last printed digit's unit
    percent: bool = False
    plus_minus: Fraction | None = None
    marks: str = ""

    @property
    def interval(self) -> Interval:
        return Interval(self.value - self.half_unit, self.value + self.half_unit)

    @property
    def form(self) -> tuple[bool, str]:
        """How the number is written apart from its digits: percent, and a magnitude suffix or an exponent."""
        tail = self.text[-1] if self.text[-1:].isalpha() else ""
        return (self.percent, tail or ("e" if "e" in self.text.lower() else ""))

    @property
    def informative(self) -> bool:
        """Printed with a non-zero fraction and two significant digits or more ("0.914", "40.3B", "5.95e-6"):
        a value that agrees with another by chance only rarely."""
        mantissa = re.sub(r"[^0-9.]", "", self.text.lower().split("e")[0])
        whole, _, fraction = mantissa.partition(".")
        return fraction.strip("0") != "" and len((whole + fraction).lstrip("0")) >= 2

    @property
    def decimals(self) -> int:
        """Printed decimal places (for formatting computed values the same way)."""
        digits = re.sub(r"[eE].*$", "", self.text)
        return len(digits.split(".", 1)[1]) if "." in digits else 0


def parse_printed(text: str) -> PrintedNumber | None:
    """The number a cell prints, or None when the cell is not one plain number (dashes, ranges, words)."""
    cleaned = text.translate(_MINUS).strip()
    match = _PRINTED.match(cleaned)
    if not match or not re.search(r"\d", match.group("num")):
        return None
    number = match.group("num").replace(",", "")
    mantissa, _, exponent = number.lower().partition("e")
    frac = mantissa.split(".", 1)[1] if "." in mantissa else ""
    multiplier = Fraction(_SUFFIX[match.group("suffix") or ""]) * Fraction(10) ** int(exponent or 0)
    pm_text = match.group("pm") or match.group("paren")
    plus_minus = None
    if pm_text and re.search(r"\d", pm_text):
        plus_minus = abs(Fraction(pm_text.replace(",", ""))) * multiplier
    elif pm_text is not None:
        return None
    return PrintedNumber(
        text=match.group("num") + (match.group("suffix") or ""),
        value=Fraction(mantissa or "0") * multiplier,
        half_unit=Fraction(1, 2) * Fraction(10) ** -len(frac) * multiplier,
        percent=any(match.group(g) for g in ("pct1", "pct2", "pct3")),
        plus_minus=plus_minus,
        marks=match.group("marks").strip(),
    )


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
