"""The data regime a value was scored in ("full-shot", "10-shot", "zero-shot"): benchmarks of frozen embeddings
print the same model and dataset once per regime, so a record without it cannot be told from its neighbours."""

from __future__ import annotations

import re

_REGIME = re.compile(
    r"(?<![\w-])(?P<size>full|zero|one|few|\d+)[- ]?shot(?![\w-])|(?<![\w-])(?P<data>full)[- ]data(?![\w-])",
    re.IGNORECASE,
)
_WORDS = {"one": "1", "zero": "zero", "few": "few", "full": "full"}


def regimes_in(text: str) -> list[str]:
    """Each regime the text names, in a normal form ("Full-shot" and "full-data" -> "full-shot"), in order."""
    found: list[str] = []
    for match in _REGIME.finditer(text):
        size = (match.group("size") or match.group("data")).lower()
        name = f"{_WORDS.get(size, size)}-shot"
        if name not in found:
            found.append(name)
    return found


def find_regime(places: list[tuple[str, str]]) -> tuple[str | None, str]:
    """The regime of a value from the places that may print it, nearest first ((where, text): the column, the
    row, the caption, the section): the first place naming one; a place naming several leaves it open."""
    for where, text in places:
        found = regimes_in(text)
        if len(found) == 1:
            return found[0], f"the {where} names {found[0]}"
        if found:
            return None, f"the {where} names several regimes ({', '.join(found)})"
    return None, "no regime printed"


def regime_of(
    row_path: tuple[str, ...], col_path: tuple[str, ...], caption: str, context: str
) -> tuple[str | None, str]:
    """The regime of a value cell from its labels, its table's caption and its section."""
    places = [("column", " ".join(col_path)), ("row", " ".join(row_path)), ("caption", caption), ("section", context)]
    return find_regime(places)
