"""Models of the probe registry (config/models.yaml) as configurations: a leaderboard row printing "4-mer
spectrum" or "null embedding" names a model ``litaudit probe reproduce`` can re-run, so it becomes a record
whether or not the catalogue lists that configuration. Reference embedders belong to no benchmark, so each
registry model stands for a configuration of every benchmark that has none of its names already."""

from __future__ import annotations

import dataclasses

from pipeline.catalogue import Catalogue, ConfigurationDef, slug
from pipeline.mapping.links import Linker
from pipeline.probe.models import ModelRegistry

ORIGIN = "config/models.yaml"


def with_registry_models(catalogue: Catalogue, registry: ModelRegistry) -> Catalogue:
    """The catalogue with a configuration per registry model and benchmark where no configuration of the
    catalogue answers to one of the model's names as the mapper matches them (a catalogue entry always wins)."""
    linker = Linker(catalogue)
    added = []
    for entry in registry.entries:
        ranked = [s for name in entry.names for s in linker.rank_configurations((name,)) if s.exact]
        taken = {s.candidate.benchmark for s in ranked}
        for benchmark in catalogue.benchmarks:
            if benchmark.id in taken:
                continue
            added.append(
                ConfigurationDef(
                    id=f"{benchmark.id}-{slug(entry.configuration)}",
                    name=f"{entry.configuration} ({benchmark.name})",
                    model=entry.configuration,
                    benchmark=benchmark.id,
                    aliases=entry.names,
                    origin=ORIGIN,
                )
            )
    return dataclasses.replace(catalogue, configurations=[*catalogue.configurations, *added]) if added else catalogue
