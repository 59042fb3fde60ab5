"""A paper that introduces a benchmark reports its own runs on the datasets it took from another: its tables
name them as the other benchmark does ("tf human 0", "on the GUE datasets"), yet the values are the paper's
(the catalogue's ``also_published_in``). A paper that introduces none reports the other benchmark's datasets."""

from __future__ import annotations

import pytest

from pipeline.catalogue import Catalogue, load_catalogue
from pipeline.mapping.document import map_tables
from pipeline.model import Table, TablesFile
from pipeline.shipped import SHIPPED_CONFIG

SHA = "ab" * 32
GRID = [["Dataset", "DNABERT2", "HyenaDNA"], ["tf human 0", "0.71", "0.62"], ["tf human 1", "0.69", "0.66"]]
GRID += [["tf human 2", "0.58", "0.55"], ["tf human 3", "0.47", "0.41"]]


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return load_catalogue(SHIPPED_CONFIG)


def _benchmarks(catalogue: Catalogue, title: str, caption: str) -> set[str | None]:
    table = Table.from_grid(GRID, label="Table 10", caption=caption)
    mapping = map_tables(TablesFile({"id": "t:p", "sha256": SHA, "title": title}, {}, [table]), catalogue)
    return {c.facts.benchmark for m in mapping.tables for c in m.cells}


def test_the_introduced_benchmark_keeps_its_datasets_when_a_caption_names_their_source(catalogue: Catalogue) -> None:
    title = "GenBench: A Benchmarking Suite for Genomic Foundation Models"
    assert _benchmarks(catalogue, title, "MCC on the human transcription factor datasets.") == {"genbench"}
    assert _benchmarks(catalogue, title, "MCC on the GUE human transcription factor datasets.") == {"genbench"}


def test_a_paper_introducing_no_benchmark_reports_the_named_one(catalogue: Catalogue) -> None:
    title = "A Better Tokenizer for DNA Language Models"
    assert _benchmarks(catalogue, title, "MCC on the GUE human transcription factor datasets.") == {"gue"}
