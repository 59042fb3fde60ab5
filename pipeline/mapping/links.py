"""Linking a table's labels to the catalogue: its benchmark, each row/column's dataset and configuration,
and each cell's metric, every link with its score, the alternatives considered and a reason."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache

from pipeline.catalogue import Catalogue, MetricDef, QuantityDef, compact_label, normalize_label, without_count
from pipeline.mapping.equivalents import same_data, task_names_elsewhere
from pipeline.mapping.labels import (
    LabelMatcher,
    Scored,
    alternatives,
    configuration_candidates,
    dataset_candidates,
    describe_match,
)
from pipeline.mapping.metrics import has_percent, metric_finder, quantity_finder
from pipeline.mapping.model import Link
from pipeline.mapping.settings import MapSettings

AGGREGATE_WORDS = frozenset({"mean", "average", "avg", "overall"})
# A parameter count printed under or beside a model name: "(252M)", "(1.2B)", "- 500M".
_SIZE = re.compile(r"[(\[]?\s*~?\d+(?:[.,]\d+)?\s*[KMBT]\s*(?:params?|parameters)?\s*[)\]]?", re.IGNORECASE)
# A model variant's size word: "GENA-LM-base" is the GENA-LM configuration.
_SIZE_WORD = re.compile(r"(?<![^\W_])(?:base|large|small|tiny|medium|mini|xl|xxl)(?![^\W_])", re.IGNORECASE)


@dataclass(frozen=True)
class LabelPath:
    """A row or column path as printed, and what it says once metric and benchmark names are taken out."""

    printed: tuple[str, ...]
    names: tuple[str, ...]  # what is left to name a dataset or a model
    metrics: tuple[MetricDef, ...]  # metrics named in the path
    benchmarks: tuple[str, ...]  # benchmark ids named by a whole path element ("GUE" as a row group)
    percent: bool  # a "%" or "percent" in the path
    extra: tuple[str, ...] = ()  # other words printed in the row ("Top-1" in a "Metric" column): metrics only
    quantities: tuple[QuantityDef, ...] = ()  # things that are not results ("LR", "# params")

    @property
    def aggregate_word(self) -> str | None:
        """The innermost label when it is an aggregate ("Mean", "Average"), else None."""
        last = self.names[-1] if self.names else ""
        return last if normalize_label(last) in AGGREGATE_WORDS else None

    @property
    def text(self) -> str:
        return " / ".join(self.printed)


@dataclass(frozen=True)
class Pick:
    chosen: Scored | None
    ties: tuple[Scored, ...] = ()
    outside: bool = False  # chosen outside the preferred benchmark(s)
    passed_over: tuple[Scored, ...] = ()  # as good, but of another benchmark than the table's


def no_link(kind: str, label: str, source: str, reason: str, ranked: Sequence[Scored] = (), listed: int = 0) -> Link:
    """No link, with the best score seen and the ``listed`` closest candidates for the reviewer."""
    best = ranked[0].score if ranked else 0.0
    return Link(kind, None, None, label, source, best, "none", reason, alternatives(ranked, None, listed))


def manual_link(kind: str, item_id: str, name: str, label: str, where: str) -> Link:
    return Link(
        kind, item_id, name, label, "override", 100.0, "manual", f"pinned by hand in config/overrides.yaml ({where})"
    )


def _pick(ranked: Sequence[Scored], prefer: set[str], threshold: float) -> Pick:
    """The best candidate at or above the threshold, from the preferred benchmarks when they have one."""
    pool = [s for s in ranked if s.candidate.benchmark in prefer] if prefer else list(ranked)
    outside = False
    if prefer and (not pool or pool[0].score < threshold):
        pool, outside = list(ranked), True
    if not pool or pool[0].score < threshold:
        return Pick(None)
    top = pool[0]
    ties = tuple(s for s in pool[1:] if s.score == top.score and s.candidate.id != top.candidate.id)
    passed_over = tuple(s for s in ranked if s.score >= top.score and s not in pool)
    return Pick(top, ties, outside, passed_over)


def _closest(ranked: Sequence[Scored]) -> str:
    if not ranked:
        return "no candidate comes close"
    return f"closest: '{ranked[0].candidate.name}' (score {ranked[0].score:g})"


class Linker:
    """The catalogue's matchers, shared by every table of a source."""

    def __init__(self, catalogue: Catalogue, settings: MapSettings | None = None) -> None:
        self.catalogue = catalogue
        self.settings = settings or MapSettings()
        self.same_data = same_data(catalogue)
        candidates = dataset_candidates(catalogue, task_names_elsewhere(catalogue, self.same_data))
        self.datasets = LabelMatcher(candidates, self.settings)
        self._dataset_candidates = {c.id: c for c in self.datasets.candidates}
        self.configurations = LabelMatcher(configuration_candidates(catalogue), self.settings)
        self.metrics = metric_finder(catalogue)
        self.quantities = quantity_finder(catalogue)
        self.benchmark_by_name = {normalize_label(n): b.id for b in catalogue.benchmarks for n in b.names}
        self._tasks = {d.task: normalize_label(d.task) for d in catalogue.datasets if d.part}
        self._entry_names = {compact_label(f) for c in (self.datasets, self.configurations) for f in c.forms()}
        self.rank_datasets = cache(self._rank_datasets)
        self.rank_configurations = cache(self._rank_configurations)

    def clean(self, printed: Sequence[str], extra: Sequence[str] = ()) -> LabelPath:
        """Split a printed path into the names left for matching and the metrics, quantities and benchmarks it
        names (``extra``: other words printed in the row, read for metrics only)."""
        names, benchmarks, terms = [], [], []
        for element in map(without_count, printed):
            benchmark = self.benchmark_by_name.get(normalize_label(element))
            if benchmark:
                benchmarks.append(benchmark)
            elif compact_label(element) in self._entry_names:  # "Chromatin Acc." is a dataset, not accuracy
                names.append(element)
            else:
                terms.append(element)
                rest = self.quantities.strip(self.metrics.strip(element))
                if normalize_label(rest):
                    names.append(rest)
        metrics = self.metrics.find(" / ".join((*terms, *extra)))
        quantities = self.quantities.find(" / ".join(terms))
        percent = any(has_percent(p) for p in (*printed, *extra))
        return LabelPath(
            tuple(printed), tuple(names), tuple(metrics), tuple(benchmarks), percent, tuple(extra), tuple(quantities)
        )

    def caption_tasks(self, caption: str) -> tuple[str, ...]:
        """Tasks with several datasets that the caption names ("... on the three parts of Human Core Promoter
        Detection"): they head row labels that print only the part ("notata"). Longest names first; a task
        inside a longer one named at the same place ("Core Promoter Detection") does not count."""
        text = f" {normalize_label(caption)} "
        found: list[tuple[int, int, str]] = []
        for task in sorted(self._tasks, key=lambda t: -len(self._tasks[t])):
            key = f" {self._tasks[task]} "
            start = text.find(key)
            if start >= 0 and not any(a <= start < b for a, b, _ in found):
                found.append((start, start + len(key), task))
        return tuple(task for _, _, task in sorted(found))

    def _rank_datasets(self, names: tuple[str, ...], context: tuple[str, ...] = ()) -> list[Scored]:
        if names and normalize_label(names[-1]) in AGGREGATE_WORDS:
            names = (*names[:-1], "Mean")  # "Average" rows answer to the catalogue's "(Mean)" datasets
        variants = [" ".join(names[i:]) for i in range(len(names))]  # "group row" before "row"
        variants += [f"{task} {variants[0]}" for task in context if variants]
        return self.datasets.rank(variants)

    def _rank_configurations(self, names: tuple[str, ...]) -> list[Scored]:
        variants = [" ".join(names), *reversed(names)]
        variants += [" ".join(_SIZE_WORD.sub(" ", _SIZE.sub(" ", v)).split()) for v in variants]
        return self.configurations.rank(variants)

    def best_scores(self, path: LabelPath) -> tuple[float, float]:
        """(best dataset score, best configuration score): the orientation's evidence."""
        if not path.names:
            return 0.0, 0.0
        datasets, configurations = self.rank_datasets(path.names), self.rank_configurations(path.names)
        return (datasets[0].score if datasets else 0.0, configurations[0].score if configurations else 0.0)

    def link_dataset(self, path: LabelPath, where: str, benchmark: str | None, context: tuple[str, ...] = ()) -> Link:
        """The dataset a row (or column) path names; ``context``: tasks the caption names."""
        label = path.text
        if not path.names:
            return no_link("dataset", label, where, f"the {where} label names no dataset once metric names are removed")
        prefer = set(path.benchmarks) or ({benchmark} if benchmark else set())
        ranked = self._with_copies(self.rank_datasets(path.names, context), prefer)
        pick = _pick(ranked, prefer, self.settings.threshold)
        word = path.aggregate_word
        if word and (pick.chosen is None or not pick.chosen.exact):
            summarised_names = path.names[:-1] or context[:1]
            if summarised_names:
                summarised = self.link_dataset(replace(path, names=summarised_names), where, benchmark)
                if summarised.id is not None and self.catalogue.dataset(summarised.id).part is None:
                    summarised.label = label
                    summarised.reason = f"aggregate row '{word}' of the rows under it: {summarised.reason}"
                    return summarised
            if pick.chosen is None:
                reason = f"aggregate '{word}' over several datasets: the catalogue has no dataset for it"
                return no_link("dataset", label, where, reason, ranked, self.settings.alternatives)
        link = self._link_from_pick("dataset", label, where, ranked, pick)
        if link.id is not None and pick.chosen:
            query, printed = f" {normalize_label(pick.chosen.query)} ", f" {normalize_label(label)} "
            named = [
                t for t in context if f" {normalize_label(t)} " in query and f" {normalize_label(t)} " not in printed
            ]
            if named:
                link.reason += f"; the task '{named[0]}' is named in the caption"
        return link

    def _with_copies(self, ranked: Sequence[Scored], prefer: set[str]) -> list[Scored]:
        """The ranking plus, for an entry of another benchmark, its copy in a preferred benchmark at the same
        score ("Promoter Detection all" names GUE's prom_300_all, which is GenBench's dataset all)."""
        best = {s.candidate.id: s for s in ranked}
        for scored in ranked if prefer else ():
            if scored.candidate.benchmark in prefer:
                continue
            for copy in self.same_data.get(scored.candidate.id, ()):
                candidate = self._dataset_candidates[copy]
                if candidate.benchmark in prefer and (copy not in best or best[copy].score < scored.score):
                    best[copy] = Scored(candidate, scored.score, scored.form, scored.query, scored.candidate.name)
        return sorted(best.values(), key=lambda s: -s.score)

    def dataset_in_caption(self, caption: str, benchmark: str | None) -> Link | None:
        """The dataset a caption names, for tables whose labels name only models and metrics."""
        found = self.datasets.named_in(caption)
        if benchmark and any(s.candidate.benchmark == benchmark for s in found):
            found = [s for s in found if s.candidate.benchmark == benchmark]
        if not found or (len(found) > 1 and len(found[1].form) == len(found[0].form)):
            return None
        chosen = found[0]
        reason = f"the labels name no dataset; the caption names '{chosen.form}' of dataset '{chosen.candidate.name}'"
        return Link(
            "dataset", chosen.candidate.id, chosen.candidate.name, caption[:80], "caption", 100.0, "exact", reason
        )

    def link_configuration(self, path: LabelPath, where: str, benchmark: str | None) -> Link:
        label = " ".join(path.printed)
        if not path.names:
            return no_link(
                "configuration", label, where, f"the {where} label names no model once metric names are removed"
            )
        ranked = self.rank_configurations(path.names)
        pool = [s for s in ranked if s.candidate.benchmark == benchmark] if benchmark else list(ranked)
        pick = _pick(pool, set(), self.settings.threshold)
        if pick.chosen is None and benchmark:
            name = self.catalogue.benchmark(benchmark).name
            reason = f"no configuration of {name} matches {where} '{label}' ({_closest(ranked)})"
            return no_link("configuration", label, where, reason, ranked, self.settings.alternatives)
        return self._link_from_pick("configuration", label, where, ranked, pick)

    def _link_from_pick(self, kind: str, label: str, where: str, ranked: Sequence[Scored], pick: Pick) -> Link:
        if pick.chosen is None:
            reason = f"no {kind} scores {self.settings.threshold:g} or more for {where} '{label}' ({_closest(ranked)})"
            return no_link(kind, label, where, reason, ranked, self.settings.alternatives)
        chosen = pick.chosen
        if pick.ties:
            names = ", ".join(f"'{s.candidate.name}'" for s in (chosen, *pick.ties))
            reason = f"ambiguous: {names} all score {chosen.score:g}"
            return no_link(kind, label, where, reason, ranked, self.settings.alternatives)
        reason = describe_match(chosen, kind, f"{where} label")
        if pick.outside:
            reason += f"; outside the table's benchmark, which has no {kind} for this label"
        if pick.passed_over:
            names = ", ".join(f"'{s.candidate.name}'" for s in pick.passed_over)
            reason += f"; preferred to {names} (as good a match, another benchmark than the table's)"
        method = "exact" if chosen.exact else "fuzzy"
        found = alternatives(ranked, chosen, self.settings.alternatives)
        return Link(kind, chosen.candidate.id, chosen.candidate.name, label, where, chosen.score, method, reason, found)
