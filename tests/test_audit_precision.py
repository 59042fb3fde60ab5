"""The false-alarm causes seen on real papers, each as a rule: the layout that fooled a check, and the same
table with the problem a reviewer wants found."""

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
TEXT = "Table 1 compares the methods. All runs use the same data."


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return load_catalogue(ROOT / "config")


def found(table: Table, catalogue: Catalogue, check: str, text: str = TEXT) -> list[Finding]:
    inp = AuditInput("local:t", "ab" * 32, [table], text=paper_text_from_string(text), catalogue=catalogue)
    return [f for f in run_checks(inp).findings if f.check == check]


def problems(findings: list[Finding]) -> list[Finding]:
    return [f for f in findings if f.severity in ("error", "warning")]


# bold-not-best ----------------------------------------------------------------------------------------------

PRUNING = [["Method", "MNLI", "SST2", "QNLI", "RTE"], ["FT", "87.6", "94.0", "90.0", "70.0"], ["", "", "", "", ""],
           ["Prune", "84.0", "93.0", "92.0", "71.0"], ["Ours", "86.4", "94.1", "91.7", "72.5"]]  # fmt: skip


def test_bold_scoped_to_the_block_below_a_rule(catalogue: Catalogue) -> None:
    caption = "Accuracy under 60% sparsity. The best-pruned results are bold."
    bold = {(4, 1), (4, 2), (3, 3), (4, 4)}
    assert not problems(found(table_from_grid(PRUNING, bold=bold, caption=caption), catalogue, "bold-not-best"))
    one_block = [row for row in PRUNING if any(row)]  # no rule: the baseline competes, and beats a bold value
    bold = {(3, 1), (3, 2), (2, 3), (3, 4)}
    table = table_from_grid(one_block, bold=bold, caption="Accuracy under 60% sparsity.")
    [flagged] = problems(found(table, catalogue, "bold-not-best"))
    assert flagged.severity == "warning" and flagged.certainty == "likely" and "86.4" in flagged.message


def test_bold_not_best_declines_without_a_named_direction_or_a_confident_reading(catalogue: Catalogue) -> None:
    """The direction must come from the metric's name or the caption, not from the bold cells alone, and the
    table must be read at the confidence a finding about its layout needs; otherwise: info, with the reason."""
    one_block = [row for row in PRUNING if any(row)]
    bold = {(3, 1), (3, 2), (2, 3), (3, 4)}
    [unnamed] = found(table_from_grid(one_block, bold=bold), catalogue, "bold-not-best")
    assert unnamed.severity == "info" and unnamed.certainty == "declined" and "direction" in unnamed.reason
    unsure = table_from_grid(one_block, bold=bold, caption="Accuracy under 60% sparsity.")
    unsure.confidence = 0.7
    [doubted] = found(unsure, catalogue, "bold-not-best")
    assert doubted.severity == "info" and "confidence 0.70" in doubted.reason
    hits = [["Method", "Hit rate", "Hit rate@10"], ["A", "0.41", "0.62"], ["B", "0.47", "0.66"]]
    [higher] = found(table_from_grid(hits, bold={(1, 1), (1, 2)}, caption="Hit rates."), catalogue, "bold-not-best")
    assert higher.severity == "warning" and "higher is better" in higher.message  # a hit rate: higher is better


def test_each_block_may_bold_its_own_best(catalogue: Catalogue) -> None:
    grid = [["Method", "Sensitivity", "Specificity"], ["A (g=6)", "0.7377", "0.6686"], ["B", "0.6943", "0.6063"],
            ["", "", ""], ["A (g=0.75)", "0.5540", "0.7920"], ["D", "0.4906", "0.7535"]]  # fmt: skip
    bold = {(1, 1), (1, 2), (4, 1), (4, 2)}
    assert not problems(found(table_from_grid(grid, bold=bold), catalogue, "bold-not-best"))


def test_settings_rows_quantities_and_emphasis_are_not_compared(catalogue: Catalogue) -> None:
    settings = [["Applications", "Hopper", "Walker", "Malware"], ["Num. of samples", "3e5", "3e5", "32349"],
                ["StateMask", "15393", "2240", "50775"], ["Ours", "12426", "1899", "41340"]]  # fmt: skip
    table = table_from_grid(settings, bold={(3, 1), (3, 2), (3, 3)}, caption="Seconds to train the mask.")
    assert not problems(found(table, catalogue, "bold-not-best"))
    params = [["Method", "Params (M)", "Accuracy", "Params (M)", "Accuracy"],
              ["L2P", "0.123", "77.87", "0.200", "62.90"], ["CODA-P", "3.917", "86.11", "3.994", "70.02"],
              ["Ours", "0.645", "86.98", "0.617", "74.53"]]  # fmt: skip
    table = table_from_grid(params, bold={(3, 1), (3, 2), (3, 3), (3, 4)}, caption="Parameters and accuracy.")
    assert not problems(found(table, catalogue, "bold-not-best"))


# duplicate-values -------------------------------------------------------------------------------------------


def test_a_copied_column_group_is_reported_once(catalogue: Catalogue) -> None:
    grid = [["γ", "CodeGen-2B", None, "CodeGen-6B", None], [None, "k=1", "k=10", "k=1", "k=10"],
            ["1.0", "19.5%", "25.5%", "19.5%", "25.5%"], ["1.1", "20.4%", "25.4%", "20.4%", "25.4%"],
            ["1.5", "20.9%", "26.7%", "20.9%", "26.7"], ["2.0", "16.5%", "22.4%", "16.5%", "22.4%"]]  # fmt: skip
    spans = [{"row": 0, "col": 1, "col_span": 2}, {"row": 0, "col": 3, "col_span": 2}]
    table = table_from_grid(grid, header_rows=2, spans=spans)
    [finding] = problems(found(table, catalogue, "duplicate-values"))
    assert "'CodeGen-2B' and 'CodeGen-6B'" in finding.message and "8 positions" in finding.message


@pytest.mark.parametrize(
    "grid",
    [
        [["Optimizer", "Loss", "L2RE", "Loss"], ["Adam+L-BFGS", "5.95e-6", "4.19e-3", "5.26e-6"],
         ["Adam+L-BFGS+NNCG", "3.63e-7", "1.94e-3", "2.89e-7"], ["Adam+L-BFGS+GD", "5.95e-6", "4.19e-3", "5.26e-6"]],
        [["Size", "172M", "425M", "1.5B", "7.5B"], ["9B", "0.96", "0.91", "0.83", "0.77"],
         ["4B", "0.97", "0.91", "0.84", "0.78"], ["2B", "0.97", "0.91", "0.84", "0.78"]],
        [["Method", "Babies", "Sunglasses", "Paintings"], ["Baseline", "33.3%", "20.0%", "33.3%"],
         ["Ours", "66.7%", "80.0%", "66.7%"]],
    ],
    ids=["label-extends", "saturating-sweep", "vote-shares"],
)  # fmt: skip
def test_likely_coincidences_are_not_flagged(grid: list[list[str]], catalogue: Catalogue) -> None:
    assert not problems(found(table_from_grid(grid), catalogue, "duplicate-values"))


# aggregate-row ----------------------------------------------------------------------------------------------


def test_an_average_over_unread_parts_declines(catalogue: Catalogue) -> None:
    grid = [["Model", "Avg", "BoolQ", "CB", "CoPA", "RTE"], ["X", "71.8", "76.4", "52.0/75.6", "92.0", "69.0"],
            ["Y", "90.4", "91.9", "94.4/96.0", "99.0", "95.9"]]  # fmt: skip
    findings = found(table_from_grid(grid), catalogue, "aggregate-row")
    assert not problems(findings)
    assert any(f.certainty == "declined" and "parts unread" in f.reason for f in findings)


def test_an_overall_of_counts_is_their_total(catalogue: Catalogue) -> None:
    grid = [["Publication", "Liu", "Su", "Ventham", "Overall"], ["N", "689", "253", "383", "1325"],
            ["Never smokers", "193", "81", "171", "445"], ["Current smokers", "228", "172", "99", "539"]]  # fmt: skip
    [finding] = problems(found(table_from_grid(grid), catalogue, "aggregate-row"))
    assert "539 is not the sum" in finding.message and "228 + 172 + 99 = 499" in finding.message


# value-out-of-range and undefined-metric --------------------------------------------------------------------


def test_counts_under_a_metric_and_objectives_named_like_one(catalogue: Catalogue) -> None:
    signs = [["Method", "Sensitivity", None, "p-value"], [None, "+", "−", None], ["Mfold", "34", "69", "0.00081"],
             ["ILM", "20", "101", "3.6e-13"], ["Pfold", "38", "72", "0.0017"]]  # fmt: skip
    table = table_from_grid(signs, header_rows=2, spans=[{"row": 0, "col": 1, "col_span": 2}])
    assert not problems(found(table, catalogue, "value-out-of-range"))
    objectives = [["k", "Objectives", "ϵ = 0.2", "ϵ = 0.3"], ["200", "f1(m)", "1.92", "2.26"],
                  ["200", "f2(m)", "190.7", "185.0"]]  # fmt: skip
    caption = "Results to illustrate optimizing the objectives f1(m) and f2(m)."
    assert not found(table_from_grid(objectives, stub_cols=2, caption=caption), catalogue, "value-out-of-range")


def test_a_top_k_that_ranks_items_is_no_metric(catalogue: Catalogue) -> None:
    words = table_from_grid([["Rank", "Words"], ["1", "good"]], caption="Top-10 most common descriptive words.")
    assert not found(words, catalogue, "undefined-metric")
    method = table_from_grid([["Method", "Acc"], ["Top-1 Sel.", "62.0"], ["Rand. Sel.", "61.7"]])
    assert not found(method, catalogue, "undefined-metric")
    metric = table_from_grid([["Model", "Top-1"], ["A", "62.0"], ["B", "61.7"]])
    assert problems(found(metric, catalogue, "undefined-metric"))


@pytest.mark.parametrize(
    "grid",
    [
        [["Age", "No.", "Rate"], ["45-54", "47", "21.8"], ["55-64", "116", "85.5"], ["≥85", "208", "1,271.7"],
         ["Total", "371", "163.8"]],  # a total rate, below its largest part: no sum
        [["Country", "2009", "2010"], ["DE", "640", "650"], ["FR", "400", "402"], ["IT", "240", "250"],
         ["Total EU", "1.280", "1.302"]],  # a point for a thousands separator
        [["Variable", "Min", "Max", "Mean", "SD"], ["Age", "18", "90", "47.2", "12.1"],
         ["Income", "0", "9", "2.43", "1.8"]],  # a Mean among descriptive statistics
    ],
    ids=["rates", "thousands-point", "descriptive"],
)  # fmt: skip
def test_lines_that_are_no_aggregate_of_their_neighbours(grid: list[list[str]], catalogue: Catalogue) -> None:
    assert not problems(found(table_from_grid(grid), catalogue, "aggregate-row"))
