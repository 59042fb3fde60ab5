"""The one grammar of a number printed in a results table: value, spread, percent, magnitude, marks.

    0.851   88.55 ± 0.04   67.3 (1.2)   45.2 [±1.1]   12.5%   −0.05   10,747.5   1e-5   40.3B   0.91*   0.75^a
    4.9 × 10^-5 (the exponent printed raised, see ``mark_raised_tail``)
    23 (71%)   23/33 (70%)   15 (36) under a label that says "n (%)": a count with its share, never a spread

A count's share ("23 (71%)") is the count's ``share``; a printed total ("23/33") its ``whole``. "15 (36)" alone
reads as a value and its spread: only the label ("n (%)", see ``says_counts``) tells a count from a mean (SD).

The value is exact (a Fraction of the printed digits) and keeps its printed precision, so the audit can ask
which true values the printed text stands for (``PrintedNumber.interval``) and extraction stores the same
value as a float. Text that is not one number ("ResNet-50", "88.4/88.5", "37B (671B total)") gives None.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass
from fractions import Fraction

from pipeline.numbers.glyphs import normalise
from pipeline.numbers.interval import Interval

MAX_DIGITS = 60  # longer runs of digits are identifiers or garbled text, not a table's value
MAX_EXPONENT = 400  # a power of ten past this is no value (p-values reach 1e-320; 10**huge would never finish)
FLOAT_MAX = Fraction(1.7976931348623157e308)  # records hold floats: a value beyond them is not read as one
SUFFIXES = {"k": 10**3, "K": 10**3, "M": 10**6, "B": 10**9, "G": 10**9, "T": 10**12}
PLACEHOLDERS = frozenset(
    {"", "-", "--", "---", "n/a", "na", "n.a.", "n/a.", "—", "–", "nan", "?", "×", "✗", "✓", "✔", "✘", "oom"}
)
MARK_SIGNS = "*∗†‡§¶#♯♮♭⋆★☆✝'′″"
MARK_LETTERS = "abcd"  # footnote letters set after a value ("0.91a"); further letters would be units or words

_NUM = r"[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?(?:[eE][-+]?\d+)?"
_MARK = rf"[{re.escape(MARK_SIGNS)}]|\^(?:[A-Za-z]+|[{re.escape(MARK_SIGNS)}])|\^?\{{[^}}]*\}}|[{MARK_LETTERS}]"
_PRINTED = re.compile(
    rf"^(?P<num>{_NUM})(?P<suffix>[{''.join(SUFFIXES)}](?![A-Za-z]))?"
    rf"(?:\s?[×x·*∗]\s?10(?:\^(?P<exp>[-+]?\d+)|\s?(?P<negexp>[-–]\s?\d+)))?"  # a power of ten (raised: '^')
    rf"\s?(?P<pct1>%)?"
    rf"(?:\s*(?:±|\+/-|\+-)\s*(?P<pm>{_NUM})\s?(?P<pct3>%)?"
    rf"|\s?\(\s*(?P<paren_pm>±\s*)?(?P<paren>{_NUM})\s*\)"  # "(68.5%)" is a share or a change, not a spread
    rf"|\s?\[\s*(?P<brack_pm>±\s*)?(?P<brack>{_NUM})\s*\])?"
    rf"\s?(?P<pct2>%)?(?P<marks>(?:\s?(?:{_MARK}))*)$"
)
_MARK_TOKEN = re.compile(_MARK)
# a whole count, its printed total, its share: "23 (71%)", "23/33 (69.7%)", "15 (36)", "1,280 (52.1 %)"
_COUNT_SHARE = re.compile(
    r"^(?P<n>\d{1,3}(?:,\d{3})+|\d+)(?:\s?/\s?(?P<whole>\d{1,3}(?:,\d{3})+|\d+))?"
    r"\s?\(\s*(?P<share>\d+(?:\.\d+)?)\s?(?P<pct>%)?\s*\)"
    rf"(?P<marks>(?:\s?(?:{_MARK}))*)$"
)
# a label that says its cells are counts with their shares: "n (%)", "No. (%)", "n/N (%)", "Number (%)", "(n, %)"
_COUNT_LABEL = re.compile(
    r"(?<![\w.])(?:n|no\.?|number|count|cases|patients|subjects|participants)\s?(?:/\s?n\s?)?"
    r"(?:\(\s?%\s?\)|\[\s?%\s?\]|,\s?%)|\(\s?n\s?[,;]\s?%\s?\)",
    re.IGNORECASE,
)
_PERCENT_GROUPS = ("pct1", "pct2", "pct3")


@dataclass(frozen=True)
class PrintedNumber:
    """A number as printed in a cell, with the interval its printed precision stands for."""

    text: str  # the number as printed (normalised), spread and marks left out: "0.851", "40.3B", "4.9×10^-5"
    value: Fraction
    decimals: int = 0  # digits printed after the point
    scale: Fraction = Fraction(1)  # what a suffix ("k", "B") or an exponent multiplies the printed digits by
    percent: bool = False
    plus_minus: Fraction | None = None
    spread: str = ""  # how the spread is printed: "±", "()", "(±)", "[]", "[±]"
    marks: tuple[str, ...] = ()  # footnote marks after the number, as printed: ("*",), ("^a",), ("a", "b")
    suffix: str = ""  # magnitude suffix: "k", "M", "B", ...
    share: PrintedNumber | None = None  # a count's share printed after it: the "71%" of "23 (71%)"
    whole: int | None = None  # the total printed with a count: the 33 of "23/33 (70%)"

    @property
    def half_unit(self) -> Fraction:
        """Half of the last printed digit's unit: how far the true value may lie from the printed one (a count
        printed with its share is a whole number of cases: exact)."""
        if self.share is not None:
            return Fraction(0)
        return Fraction(1, 2) * Fraction(10) ** -self.decimals * self.scale

    @property
    def interval(self) -> Interval:
        return Interval(self.value - self.half_unit, self.value + self.half_unit)

    @property
    def form(self) -> tuple[bool, str]:
        """How the number is written apart from its digits: percent, and a magnitude suffix or an exponent."""
        return (self.percent, self.suffix or ("e" if self.scale != 1 else ""))

    @property
    def digits(self) -> str:
        """The printed digits, without sign, point or grouping ("0.851" -> "0851", "4.9×10^-5" -> "49")."""
        units = abs(self.value / self.scale) * 10**self.decimals
        text = str(units.numerator // units.denominator).rjust(self.decimals + 1, "0")
        return text

    @property
    def informative(self) -> bool:
        """Printed with a non-zero fraction and two significant digits or more ("0.914", "40.3B", "5.95e-6"):
        a value that agrees with another by chance only rarely."""
        fraction = self.digits[len(self.digits) - self.decimals :] if self.decimals else ""
        return fraction.strip("0") != "" and len(self.digits.lstrip("0")) >= 2


def fold_label(text: str) -> str:
    """A label as matching reads it: NFKC (a math-italic 𝑁 is N, a superscript ² is 2), one sign per glyph."""
    return " ".join(normalise(unicodedata.normalize("NFKC", text)).split())


def says_counts(label: str) -> bool:
    """A row or column label that says its cells are counts with their shares ("n (%)", "No. (%)")."""
    return _COUNT_LABEL.search(fold_label(label)) is not None


@functools.lru_cache(maxsize=1 << 14)  # the extractor asks about the same cell texts many times
def parse_number(text: str, counts: bool = False) -> PrintedNumber | None:
    """The number a cell prints, or None when the cell is not one plain number (dashes, ranges, words).

    A whole number with a percentage in brackets, or with its total ("23/33 (70%)"), is a count and its share;
    ``counts`` (the cell's label says "n (%)") reads "15 (36)" so too, which is otherwise a value and its spread."""
    cleaned = " ".join(normalise(text).split())
    count = _count_share(cleaned, counts)
    if count is not None:
        return count
    match = _PRINTED.match(cleaned)
    if not match or not re.search(r"\d", match["num"]):
        return None
    spread_text = match["pm"] or match["paren"] or match["brack"]
    if spread_text is not None and not re.search(r"\d", spread_text):
        return None
    number = match["num"].replace(",", "")
    mantissa, _, e_part = number.lower().partition("e")
    power = match["exp"] or (match["negexp"] or "").replace(" ", "").replace("–", "-")
    suffix = match["suffix"] or ""
    if max(len(mantissa), len(e_part), len(power), len(spread_text or "")) > MAX_DIGITS:
        return None
    exponent = int(e_part or 0) + int(power or 0)
    if abs(exponent) > MAX_EXPONENT:
        return None
    scale = Fraction(SUFFIXES.get(suffix, 1)) * Fraction(10) ** exponent
    value = Fraction(mantissa or "0") * scale
    spread = abs(Fraction(spread_text.replace(",", ""))) * scale if spread_text else None
    if abs(value) > FLOAT_MAX or (spread or 0) > FLOAT_MAX:
        return None
    whole_end = match.end("negexp") if match["negexp"] else match.end("exp") if match["exp"] else match.end("num")
    return PrintedNumber(
        text=cleaned[: max(whole_end, match.end("suffix"))].replace(" ", ""),
        value=value,
        decimals=len(mantissa.partition(".")[2]),
        scale=scale,
        percent=any(match[g] for g in _PERCENT_GROUPS),
        plus_minus=spread,
        spread=_spread_style(match),
        marks=tuple(_mark_tokens(match["marks"])),
        suffix=suffix,
    )


def _count_share(cleaned: str, counts: bool) -> PrintedNumber | None:
    match = _COUNT_SHARE.match(cleaned)
    if not match or not (match["pct"] or match["whole"] or counts):
        return None
    digits, share_text = match["n"].replace(",", ""), match["share"]
    whole = int(match["whole"].replace(",", "")) if match["whole"] else None
    if max(len(digits), len(share_text)) > MAX_DIGITS or (whole is not None and len(str(whole)) > MAX_DIGITS):
        return None
    percent = match["pct"] or counts or (whole is not None and Fraction(share_text) > 1)  # "(36)" under n (%)
    share = parse_number(share_text + ("%" if percent else ""))
    if share is None:
        return None
    return PrintedNumber(
        text=match["n"],
        value=Fraction(digits),
        marks=tuple(_mark_tokens(match["marks"])),
        share=share,
        whole=whole,
    )


def _spread_style(match: re.Match[str]) -> str:
    if match["pm"]:
        return "±"
    if match["paren"]:
        return "(±)" if match["paren_pm"] else "()"
    if match["brack"]:
        return "[±]" if match["brack_pm"] else "[]"
    return ""


def _mark_tokens(text: str) -> list[str]:
    """Marks one by one: a run of letters or signs is several marks ("ab" -> "a", "b"), "^a" and "{*}" one."""
    return _MARK_TOKEN.findall(text.replace(" ", ""))


def is_placeholder(text: str) -> bool:
    """A cell that stands for a missing number ("-", "n/a", "—", "✗")."""
    return " ".join(normalise(text).split()).lower() in PLACEHOLDERS or text.strip() in PLACEHOLDERS


def is_numeric(text: str) -> bool:
    """A cell that prints a number, or a placeholder for a missing one."""
    return is_placeholder(text) or parse_number(text) is not None


def looks_numeric(text: str) -> bool:
    """A cell that starts with a number, units or counts after it allowed ("40.3B params", "2.25 × 1024")."""
    return is_numeric(text) or bool(re.match(r"^[-+~≈<>]?\(?\d", normalise(text).strip()))


def trailing_marks(text: str) -> list[str]:
    """Footnote signs at the end of text that is not a number ("88.4/88.5∗" -> ["∗"], "Acc†" -> ["†"])."""
    marks: list[str] = []
    for ch in reversed(text.rstrip()):
        if ch not in MARK_SIGNS:
            break
        marks.append(ch)
    return marks[::-1]


def mark_raised_tail(text: str, raised: str) -> str:
    """The cell text with its raised tail marked: an exponent after '10' ('2.3 · 1019', raised '19' ->
    '2.3 · 10^19'), else raised digits after a number are a footnote mark ('0.411', raised '1' -> '0.41^{1}').
    Printed superscripts lose their height in the text, and neither '1019' nor '0.411' is the number meant."""
    if not raised or not re.fullmatch(r"[-+]?\d+", raised) or not text.endswith(raised):
        return text
    if text.endswith("10" + raised):
        return text[: len(text) - len(raised)] + "^" + raised
    before = text[: len(text) - len(raised)].rstrip()
    if raised.isdigit() and len(raised) <= 2 and parse_number(before) is not None:
        return before + "^{" + raised + "}"
    return text
