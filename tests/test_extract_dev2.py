"""The extractor on the second hand-checked set (benchmarks/gold_dev2; the PDFs live in ../shared, so
these tests skip without it): tables from papers the extractor was not built on."""

from __future__ import annotations

import json
import unicodedata
from functools import cache
from pathlib import Path

import pytest
from conftest import SHARED, needs_shared

from pipeline.extract.document.tables import extract_tables
from pipeline.model import TablesFile

pytestmark = [needs_shared, pytest.mark.shared]

GOLD = Path(__file__).resolve().parents[1] / "benchmarks" / "gold_dev2"
PAPERS = SHARED / "corpus" / "papers"


def _gold(name: str) -> dict:
    return json.loads((GOLD / f"{name}.json").read_text())


def _as_scored(grid: list[list[str | None]]) -> list[list[str | None]]:
    """Cell texts as the benchmark compares them: glyphs the PDF gives no unicode for ('ϵ', '×' printed
    from symbol fonts) fall away, as do spaces."""

    def norm(text: str) -> str:
        text = unicodedata.normalize("NFKD", text).replace("\u2212", "-").replace("\u00b1", "+-")
        return "".join(unicodedata.normalize("NFKC", text).encode("ascii", "ignore").decode().split())

    return [[None if t is None else norm(t) for t in row] for row in grid]


@cache
def _extract(pdf: str) -> TablesFile:
    return extract_tables(PAPERS / pdf)


@pytest.mark.parametrize(
    "name",
    [
        "1706.03762_attention_is_all_you_need__Table2",  # stub centred over two header rows, values across 2 cols
        "1706.03762_attention_is_all_you_need__Table3",  # sparse, row groups between rows, wrapped header cells
        "2203.14465_star__Table1",  # partial header rule, italic reference row above the full rule
        "2205.14135_flashattention__Table6",  # side by side with Table 5
        "2305.13048_rwkv__Table3",  # two header lines in different fonts
        "2410.07839v2_semantic_self_consistency__Table1",  # group labels in their own column
        "doi_10.1093_bioinformatics_btl246_contrafold__Table4",  # glyphs without unicode, exponents
    ],
)
def test_dev2_tables_come_out_exactly(name: str) -> None:
    gold = _gold(name)
    found = [t for t in _extract(gold["pdf"]).tables if t.label == gold["label"] and t.page == gold["page"]]
    assert len(found) == 1
    table = found[0]
    assert _as_scored(table.grid()) == _as_scored(gold["cells"])
    spans = sorted((c.row, c.col, c.row_span, c.col_span) for c in table.cells if c.row_span > 1 or c.col_span > 1)
    assert spans == sorted((s["row"], s["col"], s["row_span"], s["col_span"]) for s in gold["spans"])
    assert table.header_rows == gold["header_rows"]
    assert sorted([c.row, c.col] for c in table.cells if c.bold) == sorted(gold["bold"])


def test_every_dev2_table_is_found_with_its_label_on_its_page() -> None:
    for path in sorted(GOLD.glob("*.json")):
        gold = json.loads(path.read_text())
        tables = _extract(gold["pdf"]).tables
        assert any(t.label == gold["label"] and t.page == gold["page"] for t in tables), path.name


@pytest.mark.parametrize(
    "pdf", ["1803.02999_first_order_meta_learning_reptile.pdf", "2410.07839v2_semantic_self_consistency.pdf"]
)
def test_no_table_is_emitted_twice_or_under_another_tables_label(pdf: str) -> None:
    tables = _extract(pdf).tables
    boxes = [(t.page, t.bbox) for t in tables]
    assert len(set(boxes)) == len(boxes)
    labelled = [t.label for t in tables if t.label]
    assert len(set(labelled)) == len(labelled)


def test_captions_below_stacked_tables_label_each_table() -> None:
    """Reptile p9: Table 1 above its caption, which sits above Table 2 (also captioned below)."""
    tables = {t.label: t for t in _extract("1803.02999_first_order_meta_learning_reptile.pdf").tables if t.page == 9}
    assert set(tables) == {"Table 1", "Table 2"}
    assert tables["Table 1"].n_cols == 3 and tables["Table 2"].n_cols == 5
    assert tables["Table 1"].bbox[3] < tables["Table 2"].bbox[1]
    assert all(t.caption_position == "below" and t.header_rows == 1 for t in tables.values())
