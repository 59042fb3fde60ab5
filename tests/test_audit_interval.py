"""Printed numbers as precision intervals: parsing, and verdicts that are proofs."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pipeline.audit.interval import Interval, interval_mean, interval_sum, parse_printed


@pytest.mark.parametrize(
    ("text", "value", "half", "percent", "plus_minus"),
    [
        ("0.851", "0.851", "0.0005", False, None),
        ("88.55 ± 0.04", "88.55", "0.005", False, "0.04"),
        ("88.55±0.04", "88.55", "0.005", False, "0.04"),
        ("67.3 (1.2)", "67.3", "0.05", False, "1.2"),
        ("3969.64(6.38)", "3969.64", "0.005", False, "6.38"),
        ("12.5%", "12.5", "0.05", True, None),
        ("12.5 ± 0.3%", "12.5", "0.05", True, "0.3"),
        ("10,747.5 %", "10747.5", "0.05", True, None),
        ("−0.05", "-0.05", "0.005", False, None),
        ("1e-5", "0.00001", "0.000005", False, None),
        ("0.91*", "0.91", "0.005", False, None),
        ("8.43†", "8.43", "0.005", False, None),
        ("0.75^a", "0.75", "0.005", False, None),
        ("2.5k", "2500", "50", False, None),
        ("9387", "9387", "0.5", False, None),
    ],
)
def test_parse_printed_forms(text: str, value: str, half: str, percent: bool, plus_minus: str | None) -> None:
    number = parse_printed(text)
    assert number is not None
    assert number.value == Fraction(value)
    assert number.half_unit == Fraction(half)
    assert number.percent is percent
    assert number.plus_minus == (Fraction(plus_minus) if plus_minus else None)


@pytest.mark.parametrize("text", ["-", "–", "n/a", "88.4/88.5∗", "2.25 × 1024", "37B (671B total)", "(252M)", "", "✓"])
def test_non_numbers_are_none(text: str) -> None:
    assert parse_printed(text) is None


def test_printed_precision_interval() -> None:
    number = parse_printed("0.851")
    assert number is not None
    assert number.interval == Interval(Fraction("0.8505"), Fraction("0.8515"))
    assert number.decimals == 3


def test_mean_of_intervals_decides_consistency_exactly() -> None:
    parts = [parse_printed(t).interval for t in ("0.721", "0.795", "0.718")]  # type: ignore[union-attr]
    mean = interval_mean(parts)
    assert (mean.lo, mean.hi) == (Fraction("2.2325") / 3, Fraction("2.2355") / 3)
    assert not mean.overlaps(parse_printed("0.757").interval)  # type: ignore[union-attr]
    assert mean.overlaps(parse_printed("0.745").interval)  # type: ignore[union-attr]
    assert mean.overlaps(parse_printed("0.744").interval)  # type: ignore[union-attr]
    assert not mean.overlaps(parse_printed("0.743").interval)  # type: ignore[union-attr]
    # a value at the very edge of rounding counts as consistent (closed bounds)
    assert Interval(Fraction(1), Fraction(2)).overlaps(Interval(Fraction(2), Fraction(3)))


def test_sum_and_ordering() -> None:
    total = interval_sum([Interval(Fraction(1), Fraction(2)), Interval(Fraction(3), Fraction(5))])
    assert total == Interval(Fraction(4), Fraction(7))
    assert Interval(Fraction(0), Fraction(1)).below(Interval(Fraction(2), Fraction(3)))
    assert not Interval(Fraction(0), Fraction(2)).below(Interval(Fraction(2), Fraction(3)))
