"""Datasets that are the same data in two benchmarks, read off the catalogue's ``also_published_in``.

GenBench re-uses GUE and Genomic Benchmarks datasets, and papers evaluating on GenBench often print the other
benchmark's short names ("prom_core_notata", "EMP H3", "Enhancers Cohn"). A label that names the GUE entry of
such a dataset is then evidence for the GenBench entry too, and links to it in a GenBench table.
"""

from __future__ import annotations

from collections import defaultdict

from pipeline.catalogue import Catalogue, compact_label


def same_data(catalogue: Catalogue) -> dict[str, tuple[str, ...]]:
    """Dataset id -> ids of the same data in other benchmarks (both ways).

    ``also_published_in: [GUE prom_core]`` on a dataset with part ``notata`` names the GUE dataset printed
    "GUE prom_core notata" (any of its forms, ignoring case and punctuation); without a part, the reference
    names the dataset itself ("Genomic Benchmarks human_enhancers_cohn"), the benchmark's name in front of any
    of its forms ("Genomic Benchmarks mouse enhancers").
    """
    by_form: dict[str, set[str]] = defaultdict(set)
    for dataset in catalogue.datasets:
        for form in catalogue.dataset_forms(dataset):
            by_form[compact_label(form)].add(dataset.id)
            by_form[compact_label(f"{dataset.benchmark} {form}")].add(dataset.id)
    prefixes = {compact_label(name): b.id for b in catalogue.benchmarks for name in b.names}
    found: dict[str, set[str]] = defaultdict(set)
    for dataset in catalogue.datasets:
        for reference in dataset.also_published_in:
            key = compact_label(reference) + compact_label(dataset.part or "")
            keys = {key} | {compact_label(b) + key[len(p) :] for p, b in prefixes.items() if key.startswith(p)}
            for other in set().union(*(by_form.get(k, set()) for k in keys)):
                if catalogue.dataset(other).benchmark != dataset.benchmark:
                    found[dataset.id].add(other)
                    found[other].add(dataset.id)
    return {item: tuple(sorted(others)) for item, others in found.items()}


def task_names_elsewhere(catalogue: Catalogue, same: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """Task-level dataset id -> the task names other benchmarks give the same data: when every dataset of a
    GenBench task has a copy in GUE and the copies form one GUE task ("Core Promoter Detection"), a label
    printing that name means the GenBench task."""
    found: dict[str, tuple[str, ...]] = {}
    for dataset in catalogue.datasets:
        parts = [d for d in catalogue.datasets_of(dataset.benchmark) if d.task == dataset.task and d.part]
        if dataset.part or not parts:
            continue
        tasks: dict[str, set[str]] = defaultdict(set)  # benchmark -> task names of the copies
        covered: dict[str, set[str]] = defaultdict(set)  # benchmark -> parts with a copy there
        for part in parts:
            for other in map(catalogue.dataset, same.get(part.id, ())):
                tasks[other.benchmark].add(other.task)
                covered[other.benchmark].add(part.id)
        names = [next(iter(t)) for b, t in sorted(tasks.items()) if len(t) == 1 and len(covered[b]) == len(parts)]
        if names:
            found[dataset.id] = tuple(names)
    return found
