"""Validation of a loaded catalogue: what would make the mapper link a cell wrongly or not at all."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence

from pipeline.catalogue.model import (
    DIRECTIONS,
    UNITS,
    BenchmarkDef,
    Catalogue,
    ConfigurationDef,
    DatasetDef,
    MetricDef,
    ProtocolDef,
    QuantityDef,
    Range,
    compact_label,
    normalize_label,
)

_Entry = MetricDef | BenchmarkDef | ProtocolDef | DatasetDef | ConfigurationDef | QuantityDef
_ID = re.compile(r"^[a-z0-9][a-z0-9.+-]*$")


def _where(origin: str, kind: str, item_id: str) -> str:
    return f"{origin}: {kind} '{item_id}'" if origin else f"{kind} '{item_id}'"


def _duplicates(kind: str, items: Iterable[tuple[str, str]]) -> list[str]:
    """Problems for values (ids or names) used more than once; ``items`` are (value, origin) pairs."""
    pairs = list(items)
    counts = Counter(value for value, _ in pairs)
    problems = []
    for value, count in sorted(counts.items()):
        if count > 1:
            files = sorted({origin for v, origin in pairs if v == value})
            problems.append(f"{kind} '{value}' is defined {count} times ({', '.join(files)})")
    return problems


def _bad_range(bounds: Range) -> str | None:
    low, high = bounds
    if low is not None and high is not None and low > high:
        return f"range [{low}, {high}]: minimum above maximum"
    return None


def check_ids(catalogue: Catalogue) -> list[str]:
    problems: list[str] = []
    kinds: dict[str, Sequence[_Entry]] = {
        "metric": catalogue.metrics,
        "benchmark": catalogue.benchmarks,
        "protocol": catalogue.protocols,
        "dataset": catalogue.datasets,
        "configuration": catalogue.configurations,
        "quantity": catalogue.quantities,
    }
    for kind, items in kinds.items():
        problems += _duplicates(f"{kind} id", ((i.id, i.origin) for i in items))
        problems += [
            f"{_where(i.origin, kind, i.id)}: id must be lower-case letters, digits, '.', '+' or '-'"
            for i in items
            if not _ID.match(i.id)
        ]
    problems += _duplicates("dataset name", ((d.name, d.origin) for d in catalogue.datasets))
    problems += _duplicates("configuration name", ((c.name, c.origin) for c in catalogue.configurations))
    return problems


def check_metrics(catalogue: Catalogue) -> list[str]:
    problems = []
    owners: dict[str, set[str]] = defaultdict(set)
    for metric in catalogue.metrics:
        where = _where(metric.origin, "metric", metric.id)
        if metric.unit not in UNITS:
            problems.append(f"{where}: unknown unit '{metric.unit}' (known: {', '.join(sorted(UNITS))})")
        if metric.direction not in DIRECTIONS:
            problems.append(f"{where}: unknown direction '{metric.direction}' (known: {', '.join(sorted(DIRECTIONS))})")
        if bad := _bad_range(metric.range):
            problems.append(f"{where}: {bad}")
        if metric.same_as is not None:
            problems += _check_same_as(metric, catalogue, where)
        for alias in metric.names:
            owners[compact_label(alias)].add(metric.id)
    for quantity in catalogue.quantities:
        for alias in quantity.names:
            owners[compact_label(alias)].add(f"quantity {quantity.id}")
    problems += [
        f"alias '{alias}' names several metrics or quantities: {', '.join(sorted(ids))}"
        for alias, ids in sorted(owners.items())
        if len(ids) > 1
    ]
    return problems


def _check_same_as(metric: MetricDef, catalogue: Catalogue, where: str) -> list[str]:
    """A metric recorded as another must be a different metric with the same unit and direction."""
    if metric.same_as == metric.id or not catalogue.has("metric", str(metric.same_as)):
        return [f"{where}: same_as '{metric.same_as}' names no other metric"]
    other = catalogue.metric(str(metric.same_as))
    if (other.unit, other.direction) != (metric.unit, metric.direction):
        return [f"{where}: same_as '{other.id}' has another unit or direction"]
    return []


def _published_in_resolves(reference: str, catalogue: Catalogue) -> bool:
    """A reference naming a catalogued benchmark must name one of its datasets (or the start of one, a task)."""
    text = normalize_label(reference)
    for benchmark in catalogue.benchmarks:
        for name in benchmark.names:
            prefix = normalize_label(name)
            if text != prefix and not text.startswith(prefix + " "):
                continue
            rest = text[len(prefix) :].strip()
            forms = {
                normalize_label(form)
                for d in catalogue.datasets_of(benchmark.id)
                for form in (d.id, d.name, *d.aliases)
            }
            forms |= {f[len(prefix) :].strip() for f in forms if f.startswith(prefix + " ")}
            return any(form == rest or form.startswith(rest + " ") for form in forms)
    return True  # names a benchmark outside the catalogue (e.g. "DeepSTARR"): free text


def _check_dataset(dataset: DatasetDef, catalogue: Catalogue) -> list[str]:
    where = _where(dataset.origin, "dataset", dataset.id)
    problems = []
    if not catalogue.has("benchmark", dataset.benchmark):
        problems.append(f"{where}: unknown benchmark '{dataset.benchmark}'")
    if not catalogue.has("protocol", dataset.protocol):
        problems.append(f"{where}: unknown protocol '{dataset.protocol}'")
    elif catalogue.protocol(dataset.protocol).benchmark != dataset.benchmark:
        problems.append(f"{where}: protocol '{dataset.protocol}' belongs to another benchmark")
    if not dataset.metrics:
        problems.append(f"{where}: lists no metric")
    problems += [f"{where}: unknown metric '{m}'" for m in dataset.metrics if not catalogue.has("metric", m)]
    if dataset.range is not None and (bad := _bad_range(dataset.range)):
        problems.append(f"{where}: {bad}")
    problems += [
        f"{where}: also_published_in '{ref}' names no dataset of that benchmark"
        for ref in dataset.also_published_in
        if not _published_in_resolves(ref, catalogue)
    ]
    return problems


def check_references(catalogue: Catalogue) -> list[str]:
    problems = []
    for benchmark in catalogue.benchmarks:
        where = _where(benchmark.origin, "benchmark", benchmark.id)
        for protocol_id in benchmark.protocols:
            if not catalogue.has("protocol", protocol_id):
                problems.append(f"{where}: unknown protocol '{protocol_id}'")
            elif catalogue.protocol(protocol_id).benchmark != benchmark.id:
                problems.append(f"{where}: protocol '{protocol_id}' belongs to another benchmark")
    for protocol in catalogue.protocols:
        if not catalogue.has("benchmark", protocol.benchmark):
            problems.append(
                f"{_where(protocol.origin, 'protocol', protocol.id)}: unknown benchmark '{protocol.benchmark}'"
            )
    for dataset in catalogue.datasets:
        problems += _check_dataset(dataset, catalogue)
    for config in catalogue.configurations:
        if not catalogue.has("benchmark", config.benchmark):
            problems.append(
                f"{_where(config.origin, 'configuration', config.id)}: unknown benchmark '{config.benchmark}'"
            )
    return problems


def _label_clashes(kind: str, entries: Iterable[tuple[str, str, Iterable[str]]]) -> list[str]:
    owners: dict[tuple[str, str], set[str]] = defaultdict(set)
    for benchmark, item_id, names in entries:
        for name in names:
            owners[(benchmark, compact_label(name))].add(item_id)
    return [
        f"benchmark '{benchmark}': label '{label}' names several {kind}s: {', '.join(sorted(ids))}"
        for (benchmark, label), ids in sorted(owners.items())
        if len(ids) > 1
    ]


def check_aliases(catalogue: Catalogue) -> list[str]:
    """Two datasets (or configurations) of one benchmark answering to the same printed label are ambiguous."""
    datasets = ((d.benchmark, d.id, catalogue.dataset_forms(d)) for d in catalogue.datasets)
    configurations = ((c.benchmark, c.id, c.names) for c in catalogue.configurations)
    return _label_clashes("dataset", datasets) + _label_clashes("configuration", configurations)


def check_probe_links(catalogue: Catalogue, links: Mapping[str, Iterable[str]]) -> list[str]:
    """The protocols' ``catalogue:`` maps (protocol name -> the catalogue dataset names it links to its data, the
    one place that link is made): each name must be a catalogue dataset's, and no dataset may be linked twice
    (a reproduction would not know which data to run)."""
    names = {" ".join(d.name.split()).casefold(): d.name for d in catalogue.datasets}
    owners: dict[str, list[str]] = defaultdict(list)
    problems = []
    for protocol, linked in sorted(links.items()):
        for name in linked:
            found = names.get(" ".join(name.split()).casefold())
            if found is None:
                problems.append(f"protocol '{protocol}': catalogue dataset '{name}' is not in the catalogue")
            else:
                owners[found].append(protocol)
    problems += [
        f"catalogue dataset '{name}': linked to the data of several protocols ({', '.join(protocols)})"
        for name, protocols in sorted(owners.items())
        if len(protocols) > 1
    ]
    return problems


def check_catalogue(catalogue: Catalogue) -> list[str]:
    """Every problem found, one line each (empty when the catalogue is sound)."""
    return check_ids(catalogue) + check_metrics(catalogue) + check_references(catalogue) + check_aliases(catalogue)
