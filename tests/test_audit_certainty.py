"""The evidence rule: every finding states its certainty, carries its table's extraction confidence, and an
error is only ever a proof on a table the extractor read with confidence."""

from __future__ import annotations

from pathlib import Path

import pytest
from grids import table_from_grid

from pipeline.audit.checks import run_checks
from pipeline.audit.checks.base import DEFAULT_BAR, settle
from pipeline.audit.context import AuditInput
from pipeline.audit.text import paper_text_from_string
from pipeline.catalogue import Catalogue, load_catalogue
from pipeline.model import Finding, Table

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return load_catalogue(ROOT / "config")


def broken_mean(confidence: float) -> Table:
    table = table_from_grid(
        [
            ["Dataset", "NT", "DNABERT2", "HyenaDNA"],
            ["notata", "0.702", "0.716", "0.688"],
            ["tata", "0.781", "0.803", "0.769"],
            ["Mean", "0.742", "0.760", "0.790"],
        ],
        caption="Accuracy of three models.",
    )
    table.confidence = confidence
    return table


def aggregate_findings(table: Table, catalogue: Catalogue) -> list[Finding]:
    inp = AuditInput("local:t", "ab" * 32, [table], catalogue=catalogue)
    return [f for f in run_checks(inp).findings if f.check == "aggregate-row" and f.severity != "info"]


def test_a_proof_on_a_confident_table_is_an_error_without_excuse(catalogue: Catalogue) -> None:
    [finding] = aggregate_findings(broken_mean(1.0), catalogue)
    assert (finding.severity, finding.certainty, finding.reason, finding.confidence) == ("error", "proved", "", 1.0)


def test_a_doubted_table_gives_needs_check_and_says_why(catalogue: Catalogue) -> None:
    [finding] = aggregate_findings(broken_mean(0.43), catalogue)
    assert (finding.severity, finding.certainty, finding.confidence) == ("needs-check", "unsure", 0.43)
    assert "confidence in this table is 0.43" in finding.reason


def test_a_middling_table_turns_an_error_into_a_warning(catalogue: Catalogue) -> None:
    [finding] = aggregate_findings(broken_mean(0.7), catalogue)
    assert finding.severity == "warning" and f"< {DEFAULT_BAR.proof_confidence:g} needed for an error" in finding.reason


@pytest.mark.parametrize(
    ("severity", "certainty", "confidence", "expected"),
    [
        ("error", "likely", 1.0, ("warning", "likely")),  # no error without a proof
        ("error", "declined", 1.0, ("info", "declined")),  # a check that cannot judge only notes
        ("warning", "unsure", 1.0, ("needs-check", "unsure")),
        ("warning", None, DEFAULT_BAR.needs_check_below - 0.01, ("needs-check", "unsure")),
        ("info", None, 0.1, ("info", "likely")),  # notes stay notes
        ("error", None, None, ("error", "proved")),
    ],
)
def test_settle(severity: str, certainty: str | None, confidence: float | None, expected: tuple[str, str]) -> None:
    settled = settle(severity, certainty, "", confidence)
    assert (settled.severity, settled.certainty) == expected


def test_a_claim_about_every_table_rests_on_the_least_confident_one(catalogue: Catalogue) -> None:
    """No table prints a spread: on a table the extractor doubts, the spread may be what it misread."""
    sure, doubted = broken_mean(1.0), broken_mean(1.0)
    doubted.index, doubted.label, doubted.confidence = 1, "Table 2", 0.3
    text = paper_text_from_string("Error bars show the standard deviation over five seeds.")
    for tables, severity in (([sure], "warning"), ([sure, doubted], "needs-check")):
        inp = AuditInput("local:t", "ab" * 32, tables, text=text, catalogue=catalogue)
        [finding] = [f for f in run_checks(inp).findings if f.check == "error-bars-claimed"]
        assert finding.severity == severity
