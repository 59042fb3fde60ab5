"""Which benchmark a table reports: the one its dataset and model labels (and its caption) point to."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from pipeline.catalogue import normalize_label
from pipeline.mapping.labels import Scored
from pipeline.mapping.links import LabelPath, Linker
from pipeline.mapping.model import Alternative, Link
from pipeline.mapping.settings import MapSettings


def benchmarks_in(linker: Linker, text: str) -> list[str]:
    """Benchmarks a caption names, by name or alias as whole words."""
    padded = f" {normalize_label(text)} "
    return list(dict.fromkeys(b for name, b in linker.benchmark_by_name.items() if f" {name} " in padded))


def _best_per_benchmark(
    scored: Sequence[Scored],
    settings: MapSettings,
    extra: Sequence[str] = (),
    linker: Linker | None = None,
    named: Sequence[str] = (),
    own: str | None = None,
) -> dict[str, float]:
    """The best score per benchmark. With ``linker``, a dataset also counts (a little less) for the benchmarks
    holding the same data under another name, unless the caption names the dataset's own benchmark
    (``named``): "MCC on GUE" with GUE's names is GUE, whatever other columns the table has. For ``own``, the
    benchmark the paper introduces, another benchmark's name of its data counts in full."""
    best: dict[str, float] = defaultdict(float)
    for s in scored:
        if s.score < settings.threshold:
            continue
        best[s.candidate.benchmark] = max(best[s.candidate.benchmark], s.score)
        if linker is None or s.candidate.benchmark in named:
            continue
        for other in linker.same_data.get(s.candidate.id, ()):
            benchmark = linker.catalogue.dataset(other).benchmark
            weight = 1.0 if benchmark == own else settings.same_data_weight
            best[benchmark] = max(best[benchmark], weight * s.score)
    for benchmark in extra:
        best[benchmark] = 100.0
    return best


def introduced_benchmark(linker: Linker, title: str | None) -> str | None:
    """The one catalogue benchmark a paper's title names ("GenBench: A Benchmarking Suite ..."), if any: the
    paper's own benchmark, whose datasets its tables report even where another benchmark holds the same data."""
    named = benchmarks_in(linker, title or "")
    return named[0] if len(named) == 1 else None


def republished_from(linker: Linker, benchmark: str) -> set[str]:
    """The benchmarks whose datasets ``benchmark`` holds again (its datasets' ``also_published_in``)."""
    return {
        linker.catalogue.dataset(other).benchmark
        for dataset in linker.catalogue.datasets_of(benchmark)
        for other in linker.same_data.get(dataset.id, ())
    } - {benchmark}


def choose_benchmark(
    linker: Linker,
    dataset_paths: Sequence[LabelPath],
    model_paths: Sequence[LabelPath],
    caption: str,
    where: str,
    context: tuple[str, ...] = (),
    document: str | None = None,
    own: str | None = None,
) -> Link:
    """Dataset labels vote with their best score per benchmark, model labels with half theirs, and a caption
    naming a benchmark adds a little, as does being ``document``, the benchmark most of the paper's other tables
    report (GenBench's copies of GUE datasets, printed with GUE's names); ``own``, the benchmark the paper
    introduces, wins whenever half the dataset labels fit it and the caption names no other benchmark than those
    it took datasets from ("on the GUE datasets" in GenBench's paper says where its data come from; the runs
    are the paper's own); a tie between the top two is left undecided."""
    settings = linker.settings
    weights: dict[str, float] = defaultdict(float)
    hits: dict[str, int] = defaultdict(int)
    model_hits: dict[str, int] = defaultdict(int)
    named = benchmarks_in(linker, caption)
    sources = republished_from(linker, own) if own else set()
    named_apart = [b for b in named if b not in sources]  # benchmarks the caption names as whose results these are
    for path in dataset_paths:
        ranked = linker.rank_datasets(path.names, context) if path.names else []
        found = _best_per_benchmark(ranked, settings, path.benchmarks, linker, named_apart, own)
        for benchmark, score in found.items():
            weights[benchmark] += score
            hits[benchmark] += 1
    for path in model_paths:
        ranked = linker.rank_configurations(path.names) if path.names else []
        for benchmark, score in _best_per_benchmark(ranked, settings).items():
            weights[benchmark] += settings.model_weight * score
            model_hits[benchmark] += 1
    n = max(len(dataset_paths), 1)
    for benchmark in named:
        weights[benchmark] += settings.caption_bonus * n
    if document in weights:
        weights[document] += settings.document_bonus * n
    if own is not None and not [b for b in named_apart if b != own] and 2 * hits[own] >= len(dataset_paths) > 0:
        weights[own] = (
            max(weights.values()) + settings.document_bonus * n
        )  # the paper's own benchmark, whoever else fits
    order = sorted((b for b in weights if weights[b] > 0), key=lambda b: -weights[b])
    others = [Alternative(b, linker.catalogue.benchmark(b).name, round(weights[b] / n, 1)) for b in order[1:4]]
    label = caption[:80]
    if not order:
        return Link("benchmark", None, None, label, where, 0.0, "none", "no label names a catalogue dataset or model")
    top = order[0]
    if len(order) > 1 and weights[order[1]] == weights[top]:
        names = " and ".join(linker.catalogue.benchmark(b).name for b in order[:2])
        return Link("benchmark", None, None, label, where, 0.0, "none", f"the labels fit {names} equally", others)
    name = linker.catalogue.benchmark(top).name
    reason = (
        f"{hits[top]} of {len(dataset_paths)} dataset labels and {model_hits[top]} of {len(model_paths)} model labels "
        f"name entries of {name}"
    )
    if top in named:
        reason += "; the caption names it"
    if top == own:
        reason += "; the paper introduces it (its title names it)"
    elif top == document:
        reason += "; most other tables of the paper report it"
    score = round(min(weights[top] / n, 100.0), 1)
    return Link("benchmark", top, name, label, where, score, "labels", reason, others)
