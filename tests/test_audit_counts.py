"""Counts against their totals: every planted slip found and no error or warning on the look-alikes, through the
real CLI (fetch --file -> extract -> map -> emit -> audit) on one generated paper per kind of count relation;
and the relations themselves on hand-built tables."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import SHARED, Invoke, needs_shared
from papers.counts_paper import COUNTS_PAPERS, counts_paper
from planted import assert_found_exactly, audit_planted

from pipeline.audit.checks.aggregates import check_aggregates
from pipeline.audit.checks.base import Issue
from pipeline.audit.checks.derived.partitions import check_partitions
from pipeline.audit.checks.derived.shares import check_shares
from pipeline.audit.context import AuditInput
from pipeline.extract.document.tables import extract_tables
from pipeline.model import Table
from pipeline.store import Workspace

CHECKED = ("derived-shares", "derived-sum", "aggregate-row")


@pytest.mark.parametrize("kind", list(COUNTS_PAPERS))
def test_every_planted_count_slip_is_found_and_no_look_alike_is_flagged(
    kind: str, invoke: Invoke, workspace: Workspace, tmp_path: Path
) -> None:
    spec = counts_paper(kind)
    planted, problems = audit_planted(spec, f"counts-{kind}", invoke, workspace, tmp_path, CHECKED.__contains__)
    assert_found_exactly(planted, problems)
    for finding in problems:  # every number of the finding traceable: its cells, and the computation
        assert finding["locators_readable"]
        assert "=" in finding["message"]


def _issues(check: Callable[[AuditInput], list[Issue]], rows: list[list[str]], caption: str = "") -> list[Issue]:
    table = Table.from_grid(rows, label="Table 1", caption=caption)
    return [i for i in check(AuditInput("s", "h", [table])) if i.severity in ("error", "warning")]


def test_a_share_no_whole_number_of_cases_gives_is_an_error_and_one_some_n_gives_is_not() -> None:
    rows = [["Event", "n (%)"], ["Fever", "2 (45)"], ["Rash", "1 (3)"]]
    (issue,) = _issues(check_shares, rows)
    assert issue.severity == "error" and "2/4 = 50.00, 2/5 = 40.00" in issue.message
    assert _issues(check_shares, [["Event", "n (%)"], ["Fever", "23 (71)"], ["Rash", "1 (3)"]]) == []  # 23/32 cut


def test_a_math_italic_n_row_is_the_n_of_the_rows_below_it() -> None:
    rows = [["Group", "Value"], ["𝑁", "33"], ["Chemotherapy (%)", "23 (71%)"], ["Radiation (%)", "7 (21%)"],
            ["𝑁", "20"], ["Busulfan (n)", "9 (45%)"], ["TBI (n)", "6 (30%)"], ["GvHD (n)", "14 (70%)"]]  # fmt: skip
    (issue,) = _issues(check_shares, rows)
    assert issue.cells[0] == (2, 1) and "23 / 33 = 69.70" in issue.message and issue.severity == "warning"


def test_labelled_counts_in_a_cell_add_up_to_the_block_n_and_a_subgroup_is_no_partition() -> None:
    rows = [["Group", "Value"], ["N", "20"], ["Sex", "Boys 14, girls 7"], ["Sex (M/F)", "12/8"]]
    (issue,) = _issues(check_partitions, rows)
    assert issue.cells[0] == (2, 1) and "= 21" in issue.message
    assert _issues(check_partitions, [["Group", "Value"], ["N", "20"], ["Smokers", "Current 3, former 4"]]) == []
    measures = [["Group", "Value"], ["N", "150"], ["Cells", "CD4 350, CD8 600"], ["Systolic/diastolic BP", "120/80"]]
    assert _issues(check_partitions, measures) == []  # measures, not counts that split the block


def test_a_total_of_counts_is_added_exactly_and_a_total_of_seconds_within_rounding() -> None:
    counts = [["Source", "Sequences", "Genomes"], ["A", "1,280", "12"], ["B", "4", "3"], ["C", "1", "1"],
              ["Total", "1,283", "16"]]  # fmt: skip
    (issue,) = _issues(check_aggregates, counts, caption="Number of sequences per source.")
    assert issue.severity == "error" and "1285 (whole counts, added exactly)" in issue.message
    seconds = [["Stage", "CPU (s)", "GPU (s)"], ["A", "1,280", "12"], ["B", "4", "3"], ["C", "1", "1"],
               ["Total", "1,286", "16"]]  # fmt: skip
    assert _issues(check_aggregates, seconds, caption="Time per stage.") == []


@needs_shared
def test_the_hsct_paper_shows_its_share_off_its_n_and_its_sexes_beyond_its_n() -> None:
    """Known problems P2 and P3 of journals2: 23 (71%) under N = 33, "Boys 14, girls 7" under N = 20; the
    values centred beside wrapped labels stay on their labels' rows."""
    tables = extract_tables(SHARED / "corpus" / "journals2" / "papers" / "hindawi_sci_hsct_genetics.pdf").tables
    table = next(t for t in tables if t.label == "Table 2")
    grid = table.grid()
    row = {cells[0]: r for r, cells in enumerate(grid)}
    busulfan, irradiation = (
        "Conditioning regimen based on busulfan (𝑛)",
        "Total body irradiation, 12 Gy/6 fractions (𝑛)",
    )
    assert (grid[row[busulfan]][1], grid[row[irradiation]][1]) == ("9 (45%)", "6 (30%)")
    inp = AuditInput("s", "h", [table])
    (share,) = [i for i in check_shares(inp) if i.severity == "warning"]
    assert share.cells[0] == (row["Chemotherapy before HSCT (%)"], 1) and "23 / 33 = 69.70" in share.message
    (sexes,) = [i for i in check_partitions(inp) if i.severity == "warning"]
    assert grid[sexes.cells[0][0]][1] == "Boys 14, girls 7" and "= 21" in sexes.message


@needs_shared
def test_the_virus_paper_totals_miss_the_marks_counted_in_four_columns() -> None:
    """frontiers_plant_virus_detection Table 1: each total is the plants of the rows marked '+' (their Nc); PepMV,
    TSWV and ToTV fit, ToCV (32 for 31), CMV, ToMV and TICV do not."""
    tables = extract_tables(SHARED / "corpus" / "journals" / "papers" / "frontiers_plant_virus_detection.pdf").tables
    table = next(t for t in tables if t.label == "Table 1")
    found = {i.cells[0][1]: i.message for i in check_partitions(AuditInput("s", "h", [table]))}
    assert sorted(found) == [5, 6, 7, 8] and found[5].endswith("= 31")
