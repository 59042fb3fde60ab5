"""parse_value: every printed form of a number in a results table."""

from __future__ import annotations

import pytest

from pipeline.extract.values import exponent_text, is_numeric, looks_numeric, parse_value


@pytest.mark.parametrize(
    ("text", "value", "plus_minus", "percent", "marks"),
    [
        ("0.812 ± 0.004", 0.812, 0.004, False, []),
        ("88.55±0.04", 88.55, 0.04, False, []),
        ("67.3 (1.2)", 67.3, 1.2, False, []),
        ("3969.64(6.38)", 3969.64, 6.38, False, []),
        ("-3.11 (0.42)", -3.11, 0.42, False, []),
        ("12.5%", 12.5, None, True, []),
        ("1e-5", 1e-5, None, False, []),
        ("2.0e-4", 2.0e-4, None, False, []),
        ("\u22120.05", -0.05, None, False, []),
        ("10,747.5 %", 10747.5, None, True, []),
        ("1,620,764.00", 1620764.0, None, False, []),
        ("0.91*", 0.91, None, False, ["*"]),
        ("8.43†", 8.43, None, False, ["†"]),
        ("77.0 ± 0.6%", 77.0, 0.6, False, []),
        ("45.2 [1.1]", 45.2, 1.1, False, []),
    ],
)
def test_numbers_are_parsed(text: str, value: float, plus_minus: float | None, percent: bool, marks: list[str]) -> None:
    parsed = parse_value(text)
    assert parsed.value == pytest.approx(value)
    assert parsed.plus_minus == (pytest.approx(plus_minus) if plus_minus is not None else None)
    assert parsed.percent is percent
    assert parsed.marks == marks


@pytest.mark.parametrize("text", ["-", "–", "—", "n/a", "N/A", "", "✓", "✗"])
def test_placeholders_have_no_value(text: str) -> None:
    assert parse_value(text).value is None
    assert is_numeric(text)


@pytest.mark.parametrize("text", ["88.4/88.5∗", "ResNet-50", "SEAL (LM+FM)", "40.3B", "2.25 × 1024"])
def test_text_is_not_a_value(text: str) -> None:
    assert parse_value(text).value is None


def test_marks_are_kept_on_text_that_is_not_a_number() -> None:
    assert parse_value("88.4/88.5∗").marks == ["∗"]


def test_quantities_with_units_look_numeric_without_a_value() -> None:
    assert looks_numeric("40.3B")
    assert looks_numeric("2.25 × 1024")
    assert not looks_numeric("Evo 2 40B")


@pytest.mark.parametrize(
    ("text", "raised", "value"),
    [
        ("4.9 × 10-5", "-5", 4.9e-5),  # the exponent is printed raised: a power of ten
        ("2.3 · 1019", "19", 2.3e19),
        ("1.26×1022", "22", 1.26e22),
        ("2.25 × 1024", "", None),  # nothing raised: 2.25 times 1024 is not a number we read
        ("4 × 1024", "4", None),  # the raised glyph is not what follows '10'
        ("0.91*", "*", 0.91),  # a raised mark stays a mark
    ],
)
def test_powers_of_ten_are_read_only_when_the_exponent_is_raised(text: str, raised: str, value: float | None) -> None:
    parsed = parse_value(exponent_text(text, raised))
    assert parsed.value == (pytest.approx(value) if value is not None else None)
