"""Matching printed labels to catalogue entries with rapidfuzz, keeping every candidate's score."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from pipeline.catalogue import Catalogue, compact_label, normalize_label
from pipeline.mapping.model import Alternative
from pipeline.mapping.settings import MapSettings

DEFAULTS = MapSettings()


_NUMBER = re.compile(r"\d+")


@dataclass(frozen=True)
class Candidate:
    id: str
    name: str
    benchmark: str
    forms: tuple[str, ...]  # every printed form that names it
    part: tuple[str, ...] = ()  # the words of a dataset's part ("all"): a fuzzy match must print them


@dataclass(frozen=True)
class Scored:
    candidate: Candidate
    score: float
    form: str  # the candidate's form that matched best
    query: str  # the variant of the printed label that matched
    via: str = ""  # the entry of another benchmark whose form matched: the same data (see mapping.equivalents)

    @property
    def exact(self) -> bool:
        return self.score >= 100.0


def dataset_candidates(catalogue: Catalogue, extra: dict[str, tuple[str, ...]] | None = None) -> list[Candidate]:
    """Every dataset with its printed forms; ``extra``: more forms by dataset id (another benchmark's names)."""
    extra = extra or {}
    return [
        Candidate(
            d.id,
            d.name,
            d.benchmark,
            (*catalogue.dataset_forms(d), *extra.get(d.id, ())),
            tuple(normalize_label(d.part or "").split()),
        )
        for d in catalogue.datasets
    ]


def configuration_candidates(catalogue: Catalogue) -> list[Candidate]:
    return [
        Candidate(c.id, c.name, c.benchmark, tuple(dict.fromkeys((*c.names, c.model))))
        for c in catalogue.configurations
    ]


def label_score(query: str, form: str, settings: MapSettings = DEFAULTS) -> float:
    """100 when equal ignoring case and punctuation, else rapidfuzz's token-sort ratio; numbers must agree."""
    if compact_label(query) == compact_label(form):
        return 100.0
    query, form = normalize_label(query), normalize_label(form)
    score = float(fuzz.token_sort_ratio(query, form))
    if _NUMBER.findall(query) != _NUMBER.findall(form):
        score = min(score, settings.number_mismatch_cap)
    return round(score, 1)


class LabelMatcher:
    """Ranks the candidates of one kind (datasets or configurations) for a printed label."""

    def __init__(self, candidates: Sequence[Candidate], settings: MapSettings = DEFAULTS) -> None:
        self.candidates = list(candidates)
        self.settings = settings
        self._forms: list[str] = []
        self._owner: list[int] = []
        self._original: list[str] = []
        self._exact: dict[str, list[int]] = {}  # compact form -> positions
        for index, candidate in enumerate(self.candidates):
            for form in candidate.forms:
                self._exact.setdefault(compact_label(form), []).append(len(self._forms))
                self._forms.append(normalize_label(form))
                self._original.append(form)
                self._owner.append(index)

    def forms(self) -> list[str]:
        """Every printed form of every candidate."""
        return list(self._original)

    def rank(self, variants: Iterable[str]) -> list[Scored]:
        """Best score per candidate over every variant of the label, highest first.

        ``variants`` go from most to least specific (e.g. "group / row" before "row"); at equal scores the
        more specific variant is kept.
        """
        best: dict[int, Scored] = {}
        for query in variants:
            if not normalize_label(query):
                continue
            for index, (score, form) in self._scores(query).items():
                if index not in best or score > best[index].score:
                    best[index] = Scored(self.candidates[index], score, form, query)
        return [best[i] for i in sorted(best, key=lambda i: (-best[i].score, i))]

    def _scores(self, query: str) -> dict[int, tuple[float, str]]:
        """Candidate index -> (best score, form) for one query."""
        scores: dict[int, tuple[float, str]] = {}
        key = compact_label(query)
        for position in self._exact.get(key, ()):
            scores[self._owner[position]] = (100.0, self._original[position])
        found = process.extract(
            normalize_label(query), self._forms, scorer=fuzz.token_sort_ratio, limit=None, score_cutoff=50
        )
        words = set(normalize_label(query).split())
        for _, _, position in found:
            index, form = self._owner[position], self._original[position]
            score = label_score(query, form, self.settings)
            part = set(self.candidates[index].part)
            if score < 100.0 and part <= set(self._forms[position].split()) and not part <= words:
                score = min(score, self.settings.part_mismatch_cap)
            if score > scores.get(index, (-1.0, ""))[0]:
                scores[index] = (score, form)
        return scores

    def named_in(self, text: str) -> list[Scored]:
        """Candidates one of whose multi-word forms appears in the text as whole words, longest form first."""
        padded = f" {normalize_label(text)} "
        found: dict[int, Scored] = {}
        for position, form in enumerate(self._forms):
            if " " in form and f" {form} " in padded:
                index = self._owner[position]
                if index not in found or len(form) > len(normalize_label(found[index].form)):
                    found[index] = Scored(self.candidates[index], 100.0, self._original[position], text)
        return sorted(found.values(), key=lambda s: -len(normalize_label(s.form)))


def alternatives(ranked: Sequence[Scored], chosen: Scored | None, count: int) -> list[Alternative]:
    """The next best candidates after the chosen one (what a reviewer checks when a link looks wrong)."""
    others = [s for s in ranked if chosen is None or s.candidate.id != chosen.candidate.id]
    return [Alternative(s.candidate.id, s.candidate.name, s.score) for s in others[:count]]


def describe_match(scored: Scored, kind: str, where: str) -> str:
    how = "equal ignoring case and punctuation" if scored.exact else f"rapidfuzz token-sort score {scored.score:g}"
    if scored.via:
        return (
            f"{where} '{scored.query}' matches '{scored.form}' of {kind} '{scored.via}' ({how}), the same data as "
            f"'{scored.candidate.name}' (also_published_in)"
        )
    return f"{where} '{scored.query}' matches '{scored.form}' of {kind} '{scored.candidate.name}' ({how})"
