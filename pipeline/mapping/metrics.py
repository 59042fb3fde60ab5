"""Finding catalogue terms in labels and captions: metrics ("MSE", "Spearman ρ", "Top-1 (%)") and the
quantities that are not results ("LR", "Batch size", "# params")."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Generic, TypeVar

from pipeline.catalogue import Catalogue, MetricDef, QuantityDef, normalize_label

T = TypeVar("T")

_PERCENT = re.compile(r"%|\bper ?cent(age)?s?\b", re.IGNORECASE)


def has_percent(text: str) -> bool:
    """Whether a label or caption says its numbers are percentages ("Acc. (%)", "in percent")."""
    return bool(_PERCENT.search(text))


def percent_mark(text: str) -> str | None:
    """The words that say so ("%", "percent"), as printed; None when there are none."""
    found = _PERCENT.search(text)
    return found.group(0) if found else None


class TermFinder(Generic[T]):
    """Whole-word search for many aliases at once, over normalized text; the longest alias wins."""

    def __init__(self, terms: Iterable[tuple[str, T]]) -> None:
        self._by_alias: dict[str, T] = {}
        for alias, item in terms:
            self._by_alias.setdefault(normalize_label(alias), item)
        aliases = sorted((a for a in self._by_alias if a), key=len, reverse=True)
        body = "|".join(re.escape(a) for a in aliases) or r"(?!)"
        self._pattern = re.compile(rf"(?<!\w)(?:{body})(?!\w)")

    def find(self, text: str) -> list[T]:
        """The items named in the text, each once, in order of appearance."""
        found: list[T] = []
        for match in self._pattern.finditer(normalize_label(text)):
            item = self._by_alias[match.group(0)]
            if item not in found:
                found.append(item)
        return found

    def strip(self, text: str) -> str:
        """The text without the terms: what is left names a dataset or a model (unchanged if it has none)."""
        normalized = normalize_label(text)
        if not self._pattern.search(normalized):
            return text.strip()
        return " ".join(self._pattern.sub(" ", normalized).split())


def metric_finder(catalogue: Catalogue) -> TermFinder[MetricDef]:
    return TermFinder((alias, m) for m in catalogue.metrics for alias in m.names)


def quantity_finder(catalogue: Catalogue) -> TermFinder[QuantityDef]:
    return TermFinder((alias, q) for q in catalogue.quantities for alias in q.names)
