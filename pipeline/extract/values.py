"""Printed cell text to a number: "0.812 ± 0.004", "67.3 (1.2)", "12.5%", "−0.05", "10,747.5 %", "0.91*"."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_MINUS = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2012": "-", "\u2010": "-", "\u2011": "-"})
_NUMBER = r"[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?(?:[eE][-+]?\d+)?"
_MARKS = "*∗†‡§¶#♯♮♭⋆★☆'′"
_MISSING = {"", "-", "--", "---", "n/a", "na", "n.a.", "—", "–", "nan", "?", "×", "✗", "✓", "✔", "✘", "oom", "n/a."}
_VALUE = re.compile(
    rf"^(?P<num>{_NUMBER})\s*(?P<pct>%)?\s*"
    rf"(?:(?:±|\+/-|\+-|\+−)\s*(?P<pm>{_NUMBER})\s*%?"
    rf"|\(\s*(?:±\s*)?(?P<paren>{_NUMBER})\s*%?\s*\)"
    rf"|\[\s*(?:±\s*)?(?P<brack>{_NUMBER})\s*\])?\s*(?P<pct2>%)?\s*(?P<marks>[{re.escape(_MARKS)}a-d]*)$"
)


_POWER = re.compile(rf"^(?P<num>{_NUMBER})\s*[×x·⋅∗*]\s*10\^(?P<exp>[-+]?\d+)\s*(?P<marks>[{re.escape(_MARKS)}]*)$")


@dataclass
class ParsedValue:
    value: float | None = None
    plus_minus: float | None = None
    percent: bool = False
    marks: list[str] = field(default_factory=list)


def _to_float(text: str | None) -> float | None:
    if not text or not re.search(r"\d", text):
        return None
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def parse_value(text: str) -> ParsedValue:
    """The number a cell prints, its ± or parenthesised spread, a percent sign and trailing marks; a
    power of ten with its exponent marked ("4.9 × 10^-5", see ``exponent_text``) is read as one number.

    Text that is not a single number ("ResNet-50", "88.4/88.5*", "-") gives value None; marks are still
    collected from the end ("8.43†" -> 8.43, marks ["†"]).
    """
    cleaned = " ".join(text.translate(_MINUS).split())
    if cleaned.lower() in _MISSING:
        return ParsedValue()
    power = _POWER.match(cleaned) if "^" in cleaned else None
    if power and _to_float(power.group("num")) is not None:
        value = _to_float(f"{power.group('num')}e{int(power.group('exp'))}")  # decimal, not mantissa * 10**e
        return ParsedValue(value=value, marks=list(power.group("marks")))
    m = _VALUE.match(cleaned)
    if not m or _to_float(m.group("num")) is None:
        return ParsedValue(marks=_trailing_marks(cleaned))
    spread = m.group("pm") or m.group("paren") or m.group("brack")
    marks = list(m.group("marks") or "")
    return ParsedValue(
        value=_to_float(m.group("num")),
        plus_minus=abs(v) if (v := _to_float(spread)) is not None else None,
        percent=bool(m.group("pct") or m.group("pct2")),
        marks=marks,
    )


def _trailing_marks(text: str) -> list[str]:
    marks = []
    for ch in reversed(text):
        if ch not in _MARKS:
            break
        marks.append(ch)
    return marks[::-1]


def is_numeric(text: str) -> bool:
    """A cell that prints a number (or a placeholder for a missing one, like '-')."""
    cleaned = " ".join(text.translate(_MINUS).split())
    return parse_value(cleaned).value is not None or cleaned.lower() in _MISSING


def looks_numeric(text: str) -> bool:
    """A cell that starts with a number, units or counts after it allowed ("40.3B", "2.25 × 10^24")."""
    cleaned = text.translate(_MINUS).strip()
    return is_numeric(cleaned) or bool(re.match(r"^[-+~≈<>]?\(?\d", cleaned))


def exponent_text(text: str, raised: str) -> str:
    """The cell text with a raised exponent after '10' marked ('2.3 · 1019', raised '19' -> '2.3 · 10^19'):
    printed superscripts lose their height in the text, and '1019' is not the number meant."""
    if raised and re.fullmatch(r"[-+]?\d+", raised) and text.endswith("10" + raised):
        return text[: len(text) - len(raised)] + "^" + raised
    return text
