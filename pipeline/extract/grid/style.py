"""Cell style as printed: bold and italic from font names, underline from a thin rule under the glyphs."""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.extract.page.words import Word
from pipeline.extract.reading.graphics import Rule

_SPREAD = "±([∓"


def _main_chars(words: Sequence[Word]) -> list:
    chars = [c for w in words for c in w.chars if c.text.isalnum()]
    return chars or [c for w in words for c in w.chars]


def is_bold(words: Sequence[Word]) -> bool:
    """Bold when the cell's main part is set in a bold font: what comes before a '±' or '(' spread
    (a '±std' tail may be regular, and a bold '(+0.2)' delta alone does not make the value bold)."""
    ordered = [c for w in sorted(words, key=lambda w: (round(w.baseline), w.x0)) for c in w.chars]
    cut = next((i for i, c in enumerate(ordered) if i and c.text in _SPREAD), len(ordered))
    chars = [c for c in ordered[:cut] if c.text.isalnum()] or _main_chars(words)
    if not chars:
        return False
    big = 0.85 * max(c.size for c in chars)
    head = [c for c in chars if c.size >= big]
    return sum(c.bold for c in head) * 2 > len(head)


def is_italic(words: Sequence[Word]) -> bool:
    chars = [c for w in words for c in w.chars if c.text.isalpha()]
    return bool(chars) and sum(c.italic for c in chars) * 2 > len(chars)


def is_underlined(words: Sequence[Word], hrules: Sequence[Rule]) -> bool:
    """A thin rule just under the baseline, about as wide as the text (not a table-wide rule)."""
    if not words:
        return False
    x0, x1 = min(w.x0 for w in words), max(w.x1 for w in words)
    baseline = max(w.baseline for w in words)
    size = max(w.size for w in words)
    for rule in hrules:
        if baseline - 0.05 * size <= rule.y <= baseline + 0.35 * size:
            width = rule.x1 - rule.x0
            if rule.x0 >= x0 - 0.5 * size and rule.x1 <= x1 + 0.5 * size and width >= 0.5 * (x1 - x0):
                return True
    return False
