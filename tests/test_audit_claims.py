"""text-claim-mismatch: numbers in the prose against the cells of the table they quote."""

from __future__ import annotations

from pathlib import Path

import pytest
from grids import table_from_grid

from pipeline.audit.checks import run_checks
from pipeline.audit.context import AuditInput
from pipeline.audit.text import paper_text_from_string
from pipeline.catalogue import Catalogue, load_catalogue
from pipeline.model import Finding, Table

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return load_catalogue(ROOT / "config")


def results() -> Table:
    return table_from_grid(
        [
            ["Model", "Splice sites", "Promoters", "Enhancers"],
            ["NT", "0.612", "0.739", "0.581"],
            ["DNABERT2", "0.625", "0.774", "0.603"],
            ["HyenaDNA", "0.598", "0.751", "0.644"],
        ],
        caption="MCC of three models on three tasks.",
    )


def claims(text: str, catalogue: Catalogue) -> list[Finding]:
    inp = AuditInput("local:t", "ab" * 32, [results()], text=paper_text_from_string(text), catalogue=catalogue)
    return [f for f in run_checks(inp).findings if f.check == "text-claim-mismatch"]


def test_a_misquoted_cell_named_by_its_row_and_column(catalogue: Catalogue) -> None:
    [finding] = claims("On splice sites, DNABERT2 reaches an MCC of 0.652 (Table 1).", catalogue)
    assert finding.severity == "warning" and finding.certainty == "likely"
    assert "0.652" in finding.message and "prints 0.625" in finding.message
    assert finding.locators[0].endswith(":Table1:r2:c1")


def test_a_number_beside_quoted_cells_of_a_cited_table(catalogue: Catalogue) -> None:
    [finding] = claims("Table 1 shows that the best score rises from 0.581 to 0.684.", catalogue)
    assert "0.684" in finding.message and "0.581" in finding.message


@pytest.mark.parametrize(
    "text",
    [
        "On splice sites, DNABERT2 reaches an MCC of 0.625 (Table 1).",  # as printed
        "On splice sites, DNABERT2 reaches 62.5% (Table 1).",  # percent for a fraction
        "Table 1 shows MCC between 0.739 and 0.774 across promoters.",  # a range of cells
        "Table 1: HyenaDNA improves enhancers from 0.581 to 0.644, a gain of 0.063.",  # a difference
        "Table 1: HyenaDNA gains 10.8% over NT on enhancers (0.644 vs 0.581).",  # a relative difference
        "In Table 1 the mean MCC on promoters is 0.755 with NT at 0.739.",  # a column mean
        "Table 1 uses γ = 1.25 and p < 0.051, with NT at 0.739.",  # settings and bounds
        "Table 1 ran 12.5 hours on 7.5B tokens, NT reaching 0.739.",  # sizes and times
        "HyenaDNA reaches 0.664 on a task of its own.",  # names no column of the table
        "Table 1 DNABERT2 splice sites 0.600 0.652 0.700 Accuracy",  # a figure's axis leaked into the text
        "On splice sites, DNABERT2 reached 0.652 in our earlier study.",  # cites no table
        "NT reaches 0.739 on promoters (Table 1), and 0.802 after pre-training on more data.",  # cites one number
        "We reach 0.612 (Table 1) and 0.913 on the other benchmark (Table 2).",  # each table its own number
    ],
)
def test_supported_or_not_a_quote(text: str, catalogue: Catalogue) -> None:
    assert claims(text, catalogue) == []
