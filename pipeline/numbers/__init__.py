"""Printed numbers: one grammar (``grammar``), one glyph table (``glyphs``), exact intervals (``interval``).

Extraction, mapping and the audit all read a cell's number here, so a cell one stage reads as a number is
the same number to every other stage.
"""

from pipeline.numbers.glyphs import decode_glyph, normalise
from pipeline.numbers.grammar import (
    PrintedNumber,
    fold_label,
    is_numeric,
    is_placeholder,
    looks_numeric,
    mark_raised_tail,
    parse_number,
    says_counts,
    trailing_marks,
)
from pipeline.numbers.interval import Interval, fmt_number, interval_mean, interval_sum

__all__ = [
    "Interval",
    "PrintedNumber",
    "decode_glyph",
    "fmt_number",
    "fold_label",
    "interval_mean",
    "interval_sum",
    "is_numeric",
    "is_placeholder",
    "looks_numeric",
    "mark_raised_tail",
    "normalise",
    "parse_number",
    "says_counts",
    "trailing_marks",
]
