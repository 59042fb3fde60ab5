"""What the catalogue holds: benchmarks, their protocols and datasets, metrics and model configurations.

Plain dataclasses read from config/catalogue/*.yaml; the :class:`Catalogue` adds lookups by id, by name and
by printed alias.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field

UNITS = frozenset({"fraction", "unitless", "percent"})
DIRECTIONS = frozenset({"higher", "lower"})

Range = tuple[float | None, float | None]

_NON_WORD = re.compile(r"[\W_]+")


def normalize_label(text: str) -> str:
    """Case-, punctuation- and spacing-insensitive form of a printed label ("Acc." -> "acc", "Top-1" -> "top 1")."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return _NON_WORD.sub(" ", folded).strip()


# "Promoters (22)", "Enhancers (n = 8)": a count printed after a label (tasks, samples) is no part of its name
_COUNT_NOTE = re.compile(r"\s*\(\s*(?:n\s*=\s*)?\d[\d,]*\s*\)\s*$", re.IGNORECASE)


def without_count(label: str) -> str:
    """The label without a count printed after it ("Promoters (22)" -> "Promoters")."""
    return _COUNT_NOTE.sub("", label) or label


def slug(text: str) -> str:
    """An id made of a printed name ("GENERator-eukaryote-1.2b" -> "generator-eukaryote-1-2b")."""
    return re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-")


def compact_label(text: str) -> str:
    """:func:`normalize_label` without spaces, so "DNABERT-2", "DNABERT2" and "DNA-BERT2" compare equal."""
    return normalize_label(text).replace(" ", "")


@dataclass(frozen=True)
class MetricDef:
    id: str
    name: str
    aliases: tuple[str, ...]
    unit: str
    direction: str
    range: Range
    standard: bool = True
    definition: str = ""
    same_as: str | None = None  # a name the catalogue records as another metric ("Top-1" -> accuracy)
    origin: str = field(default="", compare=False)  # the YAML file it came from

    @property
    def names(self) -> tuple[str, ...]:
        """Every printed form: id, name and aliases."""
        return (self.id, self.name, *self.aliases)


@dataclass(frozen=True)
class BenchmarkDef:
    id: str
    name: str
    protocols: tuple[str, ...]
    description: str = ""
    aliases: tuple[str, ...] = ()
    origin: str = field(default="", compare=False)

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)


@dataclass(frozen=True)
class ProtocolDef:
    id: str
    name: str
    benchmark: str
    description: str = ""
    origin: str = field(default="", compare=False)


@dataclass(frozen=True)
class DatasetDef:
    id: str
    name: str  # the catalogue's exact name, e.g. "GenBench Human Core Promoter Detection, dataset notata"
    benchmark: str
    protocol: str
    task: str
    part: str | None = None
    aliases: tuple[str, ...] = ()
    metrics: tuple[str, ...] = ()  # MetricDef ids, the first is the dataset's primary metric
    also_published_in: tuple[str, ...] = ()
    range: Range | None = None  # overrides the metric's valid range
    description: str = ""
    origin: str = field(default="", compare=False)


@dataclass(frozen=True)
class ConfigurationDef:
    id: str
    name: str  # "Caduceus (GenBench)"
    model: str  # "Caduceus"
    benchmark: str
    aliases: tuple[str, ...] = ()
    origin: str = field(default="", compare=False)

    @property
    def names(self) -> tuple[str, ...]:
        """The configuration's own printed forms (the model name alone may fit several configurations)."""
        return (self.name, *self.aliases)


@dataclass(frozen=True)
class QuantityDef:
    """Something papers print in tables that is not a result (learning rate, batch size, parameter count):
    a label naming one tells the mapper the numbers under it are settings, not scores."""

    id: str
    name: str
    aliases: tuple[str, ...] = ()
    origin: str = field(default="", compare=False)

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)


@dataclass
class Catalogue:
    benchmarks: list[BenchmarkDef] = field(default_factory=list)
    protocols: list[ProtocolDef] = field(default_factory=list)
    datasets: list[DatasetDef] = field(default_factory=list)
    metrics: list[MetricDef] = field(default_factory=list)
    configurations: list[ConfigurationDef] = field(default_factory=list)
    quantities: list[QuantityDef] = field(default_factory=list)
    files: tuple[str, ...] = ()  # the YAML files read, in order
    digest: str = ""  # SHA-256 over the files' bytes: which catalogue a mapping was made with

    def __post_init__(self) -> None:
        self._benchmarks = {b.id: b for b in self.benchmarks}
        self._protocols = {p.id: p for p in self.protocols}
        self._datasets = {d.id: d for d in self.datasets}
        self._datasets_by_name = {d.name: d for d in self.datasets}
        self._metrics = {m.id: m for m in self.metrics}
        self._configurations = {c.id: c for c in self.configurations}
        self._metric_aliases: dict[str, MetricDef] = {}
        for metric in self.metrics:
            for alias in metric.names:
                self._metric_aliases.setdefault(compact_label(alias), metric)

    def benchmark(self, benchmark_id: str) -> BenchmarkDef:
        return self._benchmarks[benchmark_id]

    def protocol(self, protocol_id: str) -> ProtocolDef:
        return self._protocols[protocol_id]

    def dataset(self, dataset_id: str) -> DatasetDef:
        return self._datasets[dataset_id]

    def metric(self, metric_id: str) -> MetricDef:
        return self._metrics[metric_id]

    def configuration(self, configuration_id: str) -> ConfigurationDef:
        return self._configurations[configuration_id]

    def dataset_by_name(self, name: str) -> DatasetDef | None:
        """Records carry the dataset's exact catalogue name; this finds it again."""
        return self._datasets_by_name.get(name)

    def has(self, kind: str, item_id: str) -> bool:
        """Whether an id of a kind ("benchmark", "protocol", "dataset", "metric", "configuration") exists."""
        indexes: dict[str, Mapping[str, object]] = {
            "benchmark": self._benchmarks,
            "protocol": self._protocols,
            "dataset": self._datasets,
            "metric": self._metrics,
            "configuration": self._configurations,
        }
        return item_id in indexes[kind]

    def dataset_forms(self, dataset: DatasetDef) -> tuple[str, ...]:
        """Every way a paper may print a dataset: its name with and without the benchmark's name in front,
        its task (when it has no part), task and part ("Core Promoter Detection notata", "... (notata)",
        "..., dataset notata") and its aliases."""
        forms = [dataset.name, *dataset.aliases]
        benchmark = self._benchmarks.get(dataset.benchmark)
        for prefix in benchmark.names if benchmark else ():
            if dataset.name.startswith(prefix + " "):
                forms.append(dataset.name[len(prefix) + 1 :])
        if dataset.part:
            forms += [f"{dataset.task} {dataset.part}", f"{dataset.task} ({dataset.part})"]
            forms.append(f"{dataset.task}, dataset {dataset.part}")
        else:
            forms.append(dataset.task)
        return tuple(dict.fromkeys(forms))

    @functools.cached_property
    def _datasets_by_form(self) -> dict[str, list[DatasetDef]]:
        """Compact printed form -> the datasets printed that way; built once, and gone with the catalogue."""
        found: dict[str, list[DatasetDef]] = {}
        for dataset in self.datasets:
            for form in self.dataset_forms(dataset):
                named = found.setdefault(compact_label(form), [])
                if dataset not in named:
                    named.append(dataset)
        return found

    def datasets_printed_as(self, label: str) -> list[DatasetDef]:
        """Every dataset one of whose printed forms is this label (several benchmarks may share a name)."""
        return list(self._datasets_by_form.get(compact_label(label), [])) if label.strip() else []

    def find_metric(self, text: str) -> MetricDef | None:
        """The metric a printed label names ("MCC", "Acc.", "Spearman ρ"), ignoring case and punctuation."""
        return self._metric_aliases.get(compact_label(text))

    def datasets_of(self, benchmark_id: str) -> list[DatasetDef]:
        return [d for d in self.datasets if d.benchmark == benchmark_id]

    def valid_range(self, dataset: DatasetDef | None, metric: MetricDef) -> Range:
        """The range a value must lie in: the dataset's override, else the metric's."""
        return dataset.range if dataset is not None and dataset.range is not None else metric.range
