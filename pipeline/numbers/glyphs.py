"""One table of the glyphs that print the same thing in different code points: minus signs, hyphens,
ligatures, odd spaces, multiplication signs.

Two uses, two functions. ``decode_glyph`` reads one glyph of a PDF as its letters (a ligature is two
letters, a hyphen glyph is a hyphen): what the extractor stores as the cell's text. ``normalise`` is for
parsing and matching only: stored text, locators and record ``printed`` fields keep the glyphs as read.
"""

from __future__ import annotations

import re

# A glyph -> the text it prints. Ligatures and hyphens are decoded as the PDF is read.
LIGATURES = {
    "\ufb00": "ff",
    "\ufb01": "fi",
    "\ufb02": "fl",
    "\ufb03": "ffi",
    "\ufb04": "ffl",
    "\ufb05": "st",
    "\ufb06": "st",
}
HYPHENS = {"\u2010": "-", "\u2011": "-", "\u00ad": "-"}
MINUS_SIGNS = {"\u2212": "-", "\u2012": "-", "\ufe63": "-", "\uff0d": "-"}  # always a minus (never a range)
SPACES = {"\u00a0": " ", "\u2002": " ", "\u2003": " ", "\u2007": " ", "\u2009": " ", "\u200a": " ", "\u202f": " "}
TIMES = {"\u22c5": "×", "\u2715": "×", "\u2a2f": "×"}  # dot operator, multiplication X: "2.3 ⋅ 10^19"
PERCENT = {"\uff05": "%", "\ufe6a": "%"}

# what the extractor decodes as it reads each glyph (a PDF's glyph choice, not the author's text)
AT_READ = {**LIGATURES, **HYPHENS, "\u2212": "-"}
# what parsing and matching read the same
FOR_MATCHING = {**LIGATURES, **HYPHENS, **MINUS_SIGNS, **SPACES, **TIMES, **PERCENT}

_TRANSLATE = str.maketrans({k: v for k, v in FOR_MATCHING.items() if len(k) == 1})
_GROUPING = re.compile(r"(?<=\d)[\u2009\u202f](?=\d{3}(?!\d))")  # a thin space between digit groups: 10 747
# an en dash is a minus where it signs a number ("–0.05", "(–1.2)"), a range or a placeholder elsewhere
_DASH_SIGN = re.compile(r"(?<![\w.%)\]])\u2013(?=\.?\d)")


def decode_glyph(glyph: str) -> str:
    """The letters one glyph of a PDF prints ("ﬁ" -> "fi", a U+2212 minus -> "-")."""
    return AT_READ.get(glyph, glyph)


def normalise(text: str) -> str:
    """Text for parsing and matching: one code point per printed sign (never stored back)."""
    text = _GROUPING.sub("", text)
    return _DASH_SIGN.sub("-", text).translate(_TRANSLATE)
