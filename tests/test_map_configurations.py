"""The models commonly evaluated on GUE and Genomic Benchmarks map without pins, and a table whose labels fit two
benchmarks goes to the one the paper's other tables report."""

from __future__ import annotations

import pytest

from pipeline.catalogue import load_catalogue
from pipeline.catalogue.load import BUNDLED_DIR
from pipeline.mapping.document import map_tables
from pipeline.mapping.model import TableMapping
from pipeline.model import Table, TablesFile

SHA = "cd" * 32
PARTS = ("notata", "tata", "all")


@pytest.fixture(scope="module")
def catalogue():
    return load_catalogue(BUNDLED_DIR)


def grid_table(models: list[str], rows: list[str], caption: str, label: str = "Table 1") -> Table:
    grid = [
        ["Dataset", *models],
        *([row, *(f"0.{50 + i + j}" for j in range(len(models)))] for i, row in enumerate(rows)),
    ]
    return Table.from_grid(grid, 1, 1, label=label, caption=caption)


def map_all(catalogue, *tables: Table) -> list[TableMapping]:
    return map_tables(TablesFile({"id": "test:paper", "sha256": SHA}, {}, list(tables)), catalogue).tables


def configurations(mapping: TableMapping) -> dict[str, str]:
    """Printed column label -> configuration id, for a table with models in columns."""
    return {c.configuration.label: c.configuration.id for c in mapping.cells}


def test_gue_table_of_common_models_maps_every_cell(catalogue) -> None:
    models = ["DNABERT-2", "NT-2500M-multi", "HyenaDNA", "Caduceus", "CNN"]
    table = grid_table(
        models, ["EMP H3", "prom_core_notata", "tf mouse 2", "virus covid"], "MCC (F1 for Covid) on GUE."
    )
    (mapping,) = map_all(catalogue, table)
    assert mapping.benchmark.id == "gue"
    assert mapping.unmapped == [] and len(mapping.cells) == 20
    assert configurations(mapping) == {
        "DNABERT-2": "gue-dnabert-2",
        "NT-2500M-multi": "gue-nt-2500m-multi",
        "HyenaDNA": "gue-hyenadna",
        "Caduceus": "gue-caduceus",
        "CNN": "gue-cnn",
    }
    assert {c.dataset.id for c in mapping.cells if c.col == 1} == {
        "gue-emp-h3",
        "gue-prom-core-notata",
        "gue-tf-mouse-2",
        "gue-virus-covid",
    }
    assert {c.metric.id for c in mapping.cells if c.dataset.id == "gue-virus-covid"} == {"f1"}
    assert all(c.configuration.method == "exact" for c in mapping.cells)  # no pin needed


@pytest.mark.parametrize(
    ("printed", "expected"),
    [
        ("NT-2500M-multi", "gue-nt-2500m-multi"),
        ("NT-500M-1000g", "gue-nt-500m-1000g"),
        ("NT-v2-500M", "gue-nt-v2-500m"),
        ("NT-v2 (100M)", "gue-nt-v2-100m"),
        ("DNABERT (6-mer)", "gue-dnabert-6-mer"),
        ("Caduceus-Ph (7.7M)", "gue-caduceus-ph"),
        ("HyenaDNA (1.6M)", "gue-hyenadna"),
    ],
)
def test_size_suffixed_variants_map_to_their_own_configuration(catalogue, printed: str, expected: str) -> None:
    (mapping,) = map_all(catalogue, grid_table(["DNABERT-2", printed], ["EMP H3K4me3", "tf human 0"], "MCC on GUE."))
    assert mapping.unmapped == []
    link = next(c.configuration for c in mapping.cells if c.col == 2)
    assert (link.id, link.method) == (expected, "exact")


def test_size_without_a_catalogued_variant_stays_unmapped(catalogue) -> None:
    """GUE lists NT-v2 only by size: a bare 'NT-v2' could be any of four, so it is listed, not guessed."""
    (mapping,) = map_all(catalogue, grid_table(["DNABERT-2", "NT-v2"], ["EMP H3"], "MCC on GUE."))
    assert [u.locator_readable for u in mapping.unmapped] == ["Table 1, row 'EMP H3', column 'NT-v2'"]


def test_genomic_benchmarks_table_of_common_models(catalogue) -> None:
    models = ["CNN", "DNABERT", "DNABERT-2", "NT-2500M-multi", "HyenaDNA", "Caduceus-Ph", "Caduceus-PS", "GPN"]
    rows = ["Human Enhancers Cohn", "Human OCR Ensembl", "Demo Human or Worm"]
    (mapping,) = map_all(catalogue, grid_table(models, rows, "Top-1 accuracy on Genomic Benchmarks."))
    assert mapping.benchmark.id == "genomic-benchmarks"
    assert mapping.unmapped == [] and len(mapping.cells) == 24
    assert set(configurations(mapping).values()) == {
        "gb-cnn",
        "gb-dnabert",
        "gb-dnabert-2",
        "gb-nt-2500m-multi",
        "gb-hyenadna",
        "gb-caduceus-ph",
        "gb-caduceus-ps",
        "gb-gpn",
    }


def test_a_near_tie_goes_to_the_benchmark_of_the_papers_other_tables(catalogue) -> None:
    """GenBench's copies of GUE's promoter datasets printed with GUE's names: alone the table reads as GUE, in a
    paper whose other tables report GenBench it is GenBench."""
    models = ["NT-v2", "DNABERT-2", "HyenaDNA", "GENA-LM", "Caduceus-PH"]
    grid: list[list[str | None]] = [["Dataset", *models]]
    spans = []
    for group in ("Core promoter", "Promoter detection"):
        spans.append({"row": len(grid), "col": 0, "row_span": 1, "col_span": 6})
        grid += [[group, *[None] * 5], *([part, "0.61", "0.62", "0.63", "0.64", "0.65"] for part in PARTS)]
    caption = "Top-1 on the datasets of the two promoter detection tasks."
    promoters = Table.from_grid(grid, 1, 1, label="Table 8", caption=caption, spans=spans)
    (alone,) = map_all(catalogue, promoters)
    assert alone.benchmark.id == "gue"
    others = [
        grid_table(models, [task], "MSE of the five models.", label=f"Table {i}")
        for i, task in enumerate(["Bulk RNA expression", "Genomic structure prediction (HFF)"], start=2)
    ]
    mapped = map_all(catalogue, *others, promoters)
    assert [m.benchmark.id for m in mapped] == ["genbench", "genbench", "genbench"]
    assert "most other tables of the paper report it" in mapped[2].benchmark.reason
    assert {c.dataset.id for c in mapped[2].cells} == {
        f"genbench-human-{task}-detection-dataset-{part}" for task in ("core-promoter", "promoter") for part in PARTS
    }
