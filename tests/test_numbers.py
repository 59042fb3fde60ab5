"""The one number grammar: every printed form of a table of examples, the same reading in every stage, round
trips of generated numbers (hypothesis), and the table of forms in docs/numbers.md kept equal to the grammar."""

from __future__ import annotations

import os
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.audit.tableview import view_table
from pipeline.model import Cell, Table
from pipeline.numbers import (
    Interval,
    fold_label,
    interval_mean,
    interval_sum,
    is_numeric,
    is_placeholder,
    looks_numeric,
    mark_raised_tail,
    normalise,
    parse_number,
    says_counts,
)

# generation and checking are fast, but a loaded machine must not turn a property into a timing test
LOADED = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])

DOC = Path(__file__).resolve().parents[1] / "docs" / "numbers.md"

# printed text -> value, interval (lo, hi), percent, spread, spread form, marks
FORMS: list[tuple[str, str, tuple[str, str], bool, str | None, str, tuple[str, ...]]] = [
    ("0.851", "0.851", ("0.8505", "0.8515"), False, None, "", ()),
    ("9387", "9387", ("9386.5", "9387.5"), False, None, "", ()),
    ("88.55 ± 0.04", "88.55", ("88.545", "88.555"), False, "0.04", "±", ()),
    ("88.55±0.04", "88.55", ("88.545", "88.555"), False, "0.04", "±", ()),
    ("0.812 +/- 0.004", "0.812", ("0.8115", "0.8125"), False, "0.004", "±", ()),
    ("67.3 (1.2)", "67.3", ("67.25", "67.35"), False, "1.2", "()", ()),
    ("3969.64(6.38)", "3969.64", ("3969.635", "3969.645"), False, "6.38", "()", ()),
    ("-3.11 (0.42)", "-3.11", ("-3.115", "-3.105"), False, "0.42", "()", ()),
    ("88.5 (±0.4)", "88.5", ("88.45", "88.55"), False, "0.4", "(±)", ()),
    ("67.3 [1.2]", "67.3", ("67.25", "67.35"), False, "1.2", "[]", ()),
    ("45.2 [±1.1]", "45.2", ("45.15", "45.25"), False, "1.1", "[±]", ()),
    ("12.5%", "12.5", ("12.45", "12.55"), True, None, "", ()),
    ("12.5 ± 0.3%", "12.5", ("12.45", "12.55"), True, "0.3", "±", ()),
    ("77.0 ± 0.6%", "77.0", ("76.95", "77.05"), True, "0.6", "±", ()),
    ("10,747.5 %", "10747.5", ("10747.45", "10747.55"), True, None, "", ()),
    ("1,620,764.00", "1620764", ("1620763.995", "1620764.005"), False, None, "", ()),
    ("10\u2009747.5", "10747.5", ("10747.45", "10747.55"), False, None, "", ()),
    ("\u22120.05", "-0.05", ("-0.055", "-0.045"), False, None, "", ()),
    ("\u20130.05", "-0.05", ("-0.055", "-0.045"), False, None, "", ()),
    ("1e-5", "0.00001", ("0.000005", "0.000015"), False, None, "", ()),
    ("2.0e-4", "0.0002", ("0.000195", "0.000205"), False, None, "", ()),
    ("5.95e-6", "0.00000595", ("0.000005945", "0.000005955"), False, None, "", ()),
    ("2.5k", "2500", ("2450", "2550"), False, None, "", ()),
    ("40.3B", "40300000000", ("40250000000", "40350000000"), False, None, "", ()),
    ("117M", "117000000", ("116500000", "117500000"), False, None, "", ()),
    ("4.9 × 10^-5", "0.000049", ("0.0000485", "0.0000495"), False, None, "", ()),
    ("3.4 × 10-5", "0.000034", ("0.0000335", "0.0000345"), False, None, "", ()),
    ("2.3 · 10^19", "23000000000000000000", ("22500000000000000000", "23500000000000000000"), False, None, "", ()),
    ("0.91*", "0.91", ("0.905", "0.915"), False, None, "", ("*",)),
    ("8.43†", "8.43", ("8.425", "8.435"), False, None, "", ("†",)),
    ("71.2‡§", "71.2", ("71.15", "71.25"), False, None, "", ("‡", "§")),
    ("0.75^a", "0.75", ("0.745", "0.755"), False, None, "", ("^a",)),
    ("0.91a", "0.91", ("0.905", "0.915"), False, None, "", ("a",)),
    ("0.5′", "0.5", ("0.45", "0.55"), False, None, "", ("′",)),
    ("3.1♯", "3.1", ("3.05", "3.15"), False, None, "", ("♯",)),
    ("56.0 ± 1.2*", "56.0", ("55.95", "56.05"), False, "1.2", "±", ("*",)),
]
NOT_NUMBERS = [
    "-",
    "–",
    "—",
    "n/a",
    "",
    "✓",
    "ResNet-50",
    "SEAL (LM+FM)",
    "88.4/88.5∗",
    "2.25 × 1024",  # nothing raised: 2.25 times 1024 is not a number we read
    "37B (671B total)",
    "(252M)",
    "Evo 2 40B",
    "0.721 (0.693–0.747)",
    "89.98 (68.53%)",  # a share or a change beside the value, not its spread
    "4.9 x 10\ufffd5",
    "10^19",  # a raised exponent without its mantissa: never the number 10 with a mark
]


@pytest.mark.parametrize(("text", "value", "bounds", "percent", "spread", "form", "marks"), FORMS)
def test_every_printed_form_reads_as_its_value_and_interval(
    text: str, value: str, bounds: tuple[str, str], percent: bool, spread: str | None, form: str, marks: tuple[str, ...]
) -> None:
    number = parse_number(text)
    assert number is not None
    assert number.value == Fraction(value)
    assert number.interval == Interval(Fraction(bounds[0]), Fraction(bounds[1]))
    assert number.percent is percent
    assert number.plus_minus == (Fraction(spread) if spread else None)
    assert number.spread == form
    assert number.marks == marks


@pytest.mark.parametrize("text", NOT_NUMBERS)
def test_text_that_is_not_one_number_reads_as_none(text: str) -> None:
    assert parse_number(text) is None


# printed text, label says "n (%)" -> count, share, share is a percent, printed total
COUNTS: list[tuple[str, bool, int, str, bool, int | None]] = [
    ("23 (71%)", False, 23, "71", True, None),
    ("45 (30.0%)", False, 45, "30.0", True, None),
    ("1,280 (52.1 %)", False, 1280, "52.1", True, None),
    ("23/33 (69.7%)", False, 23, "69.7", True, 33),
    ("57/80 (71.3)", False, 57, "71.3", True, 80),
    ("15 (36)", True, 15, "36", True, None),
    ("1 (0.5)", True, 1, "0.5", True, None),
    ("9 (45%)*", False, 9, "45", True, None),
]


@pytest.mark.parametrize(("text", "counts", "count", "share", "percent", "whole"), COUNTS)
def test_a_count_with_its_share_is_never_a_value_and_its_spread(
    text: str, counts: bool, count: int, share: str, percent: bool, whole: int | None
) -> None:
    number = parse_number(text, counts=counts)
    assert number is not None and number.share is not None
    assert (number.value, number.plus_minus, number.spread, number.whole) == (count, None, "", whole)
    assert (number.share.value, number.share.percent) == (Fraction(share), percent)
    assert number.interval == Interval(Fraction(count), Fraction(count))  # a count of cases is exact


def test_only_the_label_tells_a_count_and_its_share_from_a_mean_and_its_spread() -> None:
    """ "15 (36)" is a mean (SD) unless a label says n (%); a math-italic 𝑛 says it as well as an n."""
    assert parse_number("15 (36)").spread == "()"  # type: ignore[union-attr]
    assert says_counts("𝑛 (%)") and says_counts("Sex, n (%)") and says_counts("No. (%)") and says_counts("n/N (%)")
    assert not says_counts("Accuracy (%)") and not says_counts("Age, mean (SD)") and not says_counts("Recall (%)")
    cell = Cell.printed(1, 1, "15 (36)", col_path=["𝑛 (%)"])
    assert (cell.value, cell.plus_minus) == (15.0, None)
    assert parse_number("12.5 (68.5%)") is None  # a value with decimals and a change: not a count
    assert fold_label("𝑁") == "N"


BEYOND_RECORDS = [
    "1" * 5000,  # a digit run past Python's int conversion limit (garbled text): was a ValueError
    "1e999",  # beyond a float, which records hold: was an OverflowError in Cell.printed
    "2.5 × 10^400",
    "0.5 ± 1e999",
    "1e" + "9" * 50,  # a power of ten that would never finish computing
]


@pytest.mark.parametrize("text", BEYOND_RECORDS, ids=lambda t: t[:20])
def test_a_number_beyond_what_a_record_holds_is_not_read_and_its_cell_is_text(text: str) -> None:
    assert parse_number(text) is None
    cell = Cell.printed(1, 1, text)
    assert cell.value is None and cell.text == text


def test_extraction_mapping_and_audit_read_every_form_alike() -> None:
    """A table of every form, built as the map stage builds gold grids (``Cell.printed``, as extraction does)
    and seen by the audit: the stored value, spread and percent sign are the grammar's, and every cell the
    grammar reads is a number to the audit, and no other."""
    texts = [text for text, *_ in FORMS] + NOT_NUMBERS
    table = Table.from_grid([["model", "score"], *[["m", text] for text in texts]], header_rows=1, stub_cols=1)
    view = view_table(table)
    for cell in (c for c in table.cells if c.kind == "body"):
        number = parse_number(cell.text)
        assert (cell.value is None) is (number is None), cell.text
        assert view.numbers.get((cell.row, cell.col)) == number, cell.text
        if number is not None:
            assert cell.value == float(number.value)
            assert cell.plus_minus == (float(number.plus_minus) if number.plus_minus is not None else None)
            assert cell.percent is number.percent
            assert cell.marks == list(number.marks)


def test_placeholders_are_numeric_cells_without_a_value() -> None:
    for text in ("-", "–", "—", "n/a", "N/A", "", "✓", "✗"):
        assert is_numeric(text) and parse_number(text) is None and Cell.printed(1, 1, text).value is None


def test_quantities_with_units_look_numeric_without_being_one_number() -> None:
    assert looks_numeric("40.3B params") and looks_numeric("2.25 × 1024")
    assert not looks_numeric("Evo 2 40B")


def test_a_header_keeps_its_marks_and_no_value() -> None:
    header = Cell.printed(0, 1, "0.5†", kind="header")
    assert (header.value, header.marks) == (None, ["†"])
    assert Cell.printed(1, 1, "88.4/88.5∗").marks == ["∗"]  # marks of text that is not one number


@pytest.mark.parametrize(
    ("text", "raised", "value"),
    [
        ("4.9 × 10-5", "-5", "0.000049"),
        ("2.3 · 1019", "19", "23e18"),
        ("1.26×1022", "22", "126e20"),
        ("2.25 × 1024", "", None),
        ("4 × 1024", "4", None),  # the raised glyph is not what follows '10'
        ("0.91*", "*", "0.91"),  # a raised mark stays a mark
        ("0.701", "1", "0.70"),  # a raised digit after a number is its footnote mark ("0.70 ¹"), not a digit
        ("12.5", "5", "12.5"),  # what is left would not be a number: the text stands
    ],
)
def test_powers_of_ten_are_read_only_when_the_exponent_is_raised(text: str, raised: str, value: str | None) -> None:
    number = parse_number(mark_raised_tail(text, raised))
    assert (number.value if number else None) == (Fraction(value) if value else None)


def test_a_raised_footnote_digit_is_kept_as_the_cell_s_mark() -> None:
    cell = Cell.printed(3, 3, "0.701", reads=mark_raised_tail("0.701", "1"))
    assert (cell.value, cell.marks) == (0.7, ["^{1}"])


def test_glyphs_are_normalised_for_matching_only() -> None:
    assert (
        normalise("ﬁne-tuned \u22120.5 (\u20131.2) 0.69\u20130.74 10\u2009747")
        == "fine-tuned -0.5 (-1.2) 0.69–0.74 10747"
    )
    assert Cell.printed(1, 1, "\u22120.05").text == "\u22120.05"  # the stored text stays as printed


# --- generated numbers: format, parse, compare ---------------------------------------------------------------

SUFFIXES = {"": 1, "k": 10**3, "M": 10**6, "B": 10**9}
SPREADS = {"": "{}", "±": "{} ± {}", "()": "{} ({})", "(±)": "{} (±{})", "[]": "{} [{}]", "[±]": "{} [±{}]"}
MARKS = ["*", "†", "‡", "§", "¶", "♯", "′", "^a", "a", "b"]


def _digits(units: int, decimals: int, grouped: bool) -> str:
    whole, fraction = divmod(units, 10**decimals)
    text = f"{whole:,}" if grouped else str(whole)
    return text + (f".{fraction:0{decimals}d}" if decimals else "")


@st.composite
def printed_numbers(draw: st.DrawFn) -> tuple[str, Fraction, Fraction, Fraction | None, bool, str, tuple[str, ...]]:
    """A number as a table prints it, with what it stands for: text, value, unit, spread, percent, form, marks."""
    decimals = draw(st.integers(0, 4))
    units = draw(st.integers(0, 10**7))
    negative = draw(st.booleans()) and units > 0
    suffix = draw(st.sampled_from(sorted(SUFFIXES)))
    percent = not suffix and draw(st.booleans())
    form = draw(st.sampled_from(sorted(SPREADS)))
    spread_units = draw(st.integers(1, 10**4))
    marks = tuple(draw(st.lists(st.sampled_from(MARKS), max_size=2)))
    if any(m.isalpha() and len(m) == 1 for m in marks) and (suffix or percent or form):
        marks = ()  # a letter mark right after a suffix, a % or a bracket is not a form tables print
    sign = draw(st.sampled_from(["-", "\u2212", "\u2013"])) if negative else draw(st.sampled_from(["", "+"]))
    scale = Fraction(SUFFIXES[suffix])
    number = sign + _digits(units, decimals, draw(st.booleans())) + suffix
    spread_text = _digits(spread_units, decimals, False)
    text = SPREADS[form].format(number, spread_text) + ("%" if percent else "") + "".join(marks)
    value = Fraction(-units if negative else units, 10**decimals) * scale
    spread = Fraction(spread_units, 10**decimals) * scale if form else None
    return text, value, Fraction(1, 10**decimals) * scale, spread, percent, form, marks


@LOADED
@given(printed_numbers())
def test_a_formatted_number_parses_back_to_its_value_and_interval(
    case: tuple[str, Fraction, Fraction, Fraction | None, bool, str, tuple[str, ...]],
) -> None:
    text, value, unit, spread, percent, form, marks = case
    number = parse_number(text)
    assert number is not None, text
    assert (number.value, number.plus_minus, number.percent, number.spread, number.marks) == (
        value,
        spread,
        percent,
        form,
        marks,
    )
    assert number.interval.contains(value)
    assert number.interval.width == unit  # one unit of the last printed digit
    assert Cell.printed(1, 1, text).value == float(value)


fractions = st.builds(Fraction, st.integers(-(10**6), 10**6), st.integers(1, 10**4))


@st.composite
def intervals(draw: st.DrawFn) -> tuple[Interval, Fraction]:
    """An interval and a point inside it."""
    a, b = draw(fractions), draw(fractions)
    lo, hi = min(a, b), max(a, b)
    t = Fraction(draw(st.integers(0, 100)), 100)
    return Interval(lo, hi), lo + t * (hi - lo)


@LOADED
@given(st.lists(intervals(), min_size=1, max_size=6), fractions)
def test_interval_arithmetic_holds_every_point_it_stands_for(
    parts: list[tuple[Interval, Fraction]], k: Fraction
) -> None:
    spans, points = [p[0] for p in parts], [p[1] for p in parts]
    assert interval_sum(spans).contains(sum(points, Fraction(0)))
    assert interval_mean(spans).contains(sum(points, Fraction(0)) / len(points))
    assert spans[0].scaled(k).contains(points[0] * k)
    assert spans[0].overlaps(spans[-1]) == spans[-1].overlaps(spans[0])
    assert not (spans[0].below(spans[-1]) and spans[0].overlaps(spans[-1]))


# --- docs/numbers.md: the table of printed forms, checked against the grammar ------------------------------------

_BEGIN, _END = "<!-- forms: begin (tests/test_numbers.py writes this table) -->", "<!-- forms: end -->"


def _plain(value: Fraction) -> str:
    """A fraction whose denominator divides a power of ten, as a decimal ("0.8505")."""
    decimals = 0
    while (value * 10**decimals).denominator != 1:
        decimals += 1
    units = abs(value * 10**decimals).numerator
    text = _digits(units, decimals, False)
    return ("-" if value < 0 else "") + text


def forms_table() -> str:
    rows = [["printed", "value", "interval", "spread", "%", "marks"], ["---"] * 6]
    for text in [t for t, *_ in FORMS] + [t for t, counts, *_ in COUNTS if not counts] + NOT_NUMBERS:
        number = parse_number(text)
        shown = f"`{text}`" if text.strip() else "(empty)"
        if number is None:
            rows.append([shown, "placeholder, no value" if is_placeholder(text) else "not a number", "", "", "", ""])
            continue
        spread = ""
        if number.share is not None:
            whole = f" of {number.whole}" if number.whole is not None else ""
            spread = f"a count; share {number.share.text}{'%' * number.share.percent}{whole}"
        if number.plus_minus is not None:
            amount = _plain(number.plus_minus)
            form = number.spread
            spread = f"± {amount}" if form == "±" else f"{form[0]}{'±' * ('±' in form)}{amount}{form[-1]}"
        interval = f"[{_plain(number.interval.lo)}, {_plain(number.interval.hi)}]"
        marks = " ".join(f"`{m}`" for m in number.marks)
        rows.append([shown, _plain(number.value), interval, spread, "%" if number.percent else "", marks])
    return "\n".join("| " + " | ".join(row) + " |" for row in rows)


def test_the_docs_table_of_printed_forms_is_the_grammars() -> None:
    """docs/numbers.md shows what the grammar reads; LITAUDIT_WRITE_DOCS=1 rewrites the table after a change."""
    doc = DOC.read_text(encoding="utf-8")
    head, rest = doc.split(_BEGIN, 1)
    _, tail = rest.split(_END, 1)
    expected = f"{head}{_BEGIN}\n{forms_table()}\n{_END}{tail}"
    if os.environ.get("LITAUDIT_WRITE_DOCS") == "1":
        DOC.write_text(expected, encoding="utf-8")
    assert doc == expected, "docs/numbers.md differs from the grammar: run with LITAUDIT_WRITE_DOCS=1 and review"


def test_the_audit_reads_a_cell_as_extraction_read_it() -> None:
    table = Table.from_grid([["Group", "p"], ["Trust AI", "0.70"]])
    table.cells[-1] = Cell.printed(1, 1, "0.701", reads=mark_raised_tail("0.701", "1"))
    assert view_table(table).numbers[(1, 1)].value == Fraction(7, 10)
    assert Cell.from_dict(table.cells[-1].to_dict()).reading == "0.70^{1}"
