"""The extractor on real papers against hand-checked gold grids (skipped without ../shared)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import SHARED, needs_shared

from pipeline.extract.document.tables import extract_tables

pytestmark = [needs_shared, pytest.mark.shared]

GOLD = SHARED / "corpus" / "gold"


def _gold(name: str) -> dict:
    return json.loads((GOLD / f"{name}.json").read_text())


def _grid_with_spans(gold: dict) -> list[list[str | None]]:
    grid = [list(row) for row in gold["cells"]]
    return grid


@pytest.mark.parametrize(
    "name",
    [
        "biorxiv_2026.01.27.702015_generator_v2_functional_icl_genomic_lm__Table2",  # 18 tasks x 10 models, MCC
        "biorxiv_2026.01.27.702015_generator_v2_functional_icl_genomic_lm__TableS1",  # cmidrule spanning header
        "1512.03385_resnet__Table4",  # in one column of a two-column page, caption below
        "2204.10628_seal_autoregressive_search_engines__Table3",  # labels spanning two header lines
        "2404.01650v2_forward_only_tta__Table3",  # group headers end at a vertical rule through the body
        "2405.03064v3_rice_rl_explanation__Table1",  # a rule under both groups at mid-height of the stub labels
    ],
)
def test_gold_tables_come_out_exactly(name: str) -> None:
    gold = _gold(name)
    pdf = SHARED / "corpus" / "papers" / gold["pdf"]
    found = [t for t in extract_tables(Path(pdf)).tables if t.label == gold["label"] and t.page == gold["page"]]
    assert len(found) == 1
    table = found[0]
    assert table.grid() == _grid_with_spans(gold)
    spans = sorted((c.row, c.col, c.row_span, c.col_span) for c in table.cells if c.row_span > 1 or c.col_span > 1)
    assert spans == sorted((s["row"], s["col"], s["row_span"], s["col_span"]) for s in gold["spans"])
    assert sorted([c.row, c.col] for c in table.cells if c.bold) == sorted(gold["bold"])


def test_every_gold_table_is_found_with_its_label_on_its_page() -> None:
    for path in sorted(GOLD.glob("*.json")):
        gold = json.loads(path.read_text())
        tables = extract_tables(SHARED / "corpus" / "papers" / gold["pdf"]).tables
        assert any(t.label == gold["label"] and t.page == gold["page"] for t in tables), path.name
