"""Each audit check on small tables built from grids: it finds the planted problem, and nothing on the clean one."""

from __future__ import annotations

from pathlib import Path

import pytest
from grids import table_from_grid

from pipeline.audit.checks import CHECKS, run_checks
from pipeline.audit.context import AuditInput
from pipeline.audit.text import PaperText, paper_text_from_string
from pipeline.catalogue import Catalogue, load_catalogue
from pipeline.model import Finding, Record, Table

ROOT = Path(__file__).resolve().parents[1]
MODELS = ["NT", "DNABERT2", "HyenaDNA", "GENA-LM", "Caduceus"]
PLAIN_TEXT = "We fine-tune every model with the same recipe. Table 1 reports the results."


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return load_catalogue(ROOT / "config")


def audit(
    tables: list[Table],
    catalogue: Catalogue | None,
    text: str | PaperText | None = PLAIN_TEXT,
    records: list[Record] | None = None,
) -> list[Finding]:
    paper = paper_text_from_string(text) if isinstance(text, str) else text
    inp = AuditInput("local:t", "ab" * 32, tables, text=paper, catalogue=catalogue, records=records)
    return run_checks(inp).findings


def problems(findings: list[Finding], check: str | None = None) -> list[Finding]:
    return [f for f in findings if f.severity in ("error", "warning") and (check is None or f.check == check)]


def test_checks_have_ids_severities_and_summaries() -> None:
    ids = [c.id for c in CHECKS]
    # 17 audit checks (range-nesting, text-unit-scale, text-comparison-swapped, identifier-truncated among them), 9
    # derived-* (derived-sum and derived-ratio the newest)
    assert len(ids) == len(set(ids)) == 26
    assert sum(i.startswith("derived-") for i in ids) == 9
    assert all(c.severity in ("error", "warning", "info") and c.summary for c in CHECKS)


# aggregate-row --------------------------------------------------------------------------------------------


def mean_table(mean_row: list[str]) -> Table:
    return table_from_grid(
        [
            ["Dataset", *MODELS],
            ["notata", "0.702", "0.716", "0.688", "0.695", "0.721"],
            ["tata", "0.781", "0.803", "0.769", "0.774", "0.795"],
            ["all", "0.694", "0.711", "0.683", "0.690", "0.718"],
            ["Mean", *mean_row],
        ],
        caption="Accuracy of the five models.",
    )


def test_broken_mean_row_is_an_error_at_its_cell(catalogue: Catalogue) -> None:
    findings = audit([mean_table(["0.726", "0.743", "0.713", "0.720", "0.757"])], catalogue)
    [error] = problems(findings, "aggregate-row")
    assert error.severity == "error"
    assert error.locators[0].endswith(":Table1:r4:c5")
    assert "0.7447" in error.expected["computation"]
    assert "0.757" in error.found["printed"]
    assert error.tolerance and "[0.7565, 0.7575]" in error.tolerance


def test_mean_within_rounding_is_only_noted(catalogue: Catalogue) -> None:
    findings = audit([mean_table(["0.726", "0.743", "0.713", "0.720", "0.745"])], catalogue)
    assert not problems(findings)
    [note] = [f for f in findings if f.check == "aggregate-row"]
    assert note.severity == "info" and "consistent within rounding" in note.message


def test_average_column_under_a_group_header(catalogue: Catalogue) -> None:
    grid = [
        ["", "Accuracy", None, None, None],
        ["Method", "R", "V2", "Sketch", "Avg."],
        ["A", "59.5", "75.4", "44.9", "59.9"],
        ["B", "63.9", "75.2", "49.1", "62.7"],
        ["C", "63.8", "75.4", "49.9", "65.0"],
    ]
    spans = [{"row": 0, "col": 1, "row_span": 1, "col_span": 4}]
    findings = audit([table_from_grid(grid, header_rows=2, spans=spans)], catalogue)
    [error] = problems(findings, "aggregate-row")
    assert error.locators[0].endswith(":r4:c4")


def promoter_parts() -> Table:
    return table_from_grid(
        [
            ["Dataset", "NT", "Caduceus", "HyenaDNA"],
            ["Human Core Promoter Detection, dataset notata", "0.70", "0.72", "0.70"],
            ["Human Core Promoter Detection, dataset tata", "0.78", "0.80", "0.78"],
            ["Human Core Promoter Detection, dataset all", "0.69", "0.71", "0.69"],
        ],
        label="Table 10",
        index=1,
    )


def test_task_level_row_is_checked_against_its_dataset_rows_elsewhere(catalogue: Catalogue) -> None:
    task = table_from_grid(
        [["Task", "NT", "Caduceus", "HyenaDNA"], ["Human Core Promoter Detection", "0.72", "0.74", "0.90"]],
        label="Table 4",
    )
    findings = audit([task, promoter_parts()], catalogue, text="The short-range tasks come from GUE.")
    [warning] = problems(findings, "aggregate-row")
    assert warning.severity == "warning" and "Table 10" in warning.message
    assert warning.locators[0].endswith(":Table4:r1:c3")
    assert all(":Table10:" in loc for loc in warning.locators[1:]) and len(warning.locators) == 4
    [note] = [f for f in findings if f.check == "aggregate-row" and f.severity == "info"]
    assert "consistent within rounding" in note.message


def test_task_level_row_that_is_not_a_mean_is_left_alone(catalogue: Catalogue) -> None:
    task = table_from_grid(
        [["Task", "NT", "Caduceus", "HyenaDNA"], ["Human Core Promoter Detection", "0.80", "0.61", "0.90"]],
        label="Table 4",
    )
    findings = audit([task, promoter_parts()], catalogue, text="The short-range tasks come from GUE.")
    assert [f for f in findings if f.check == "aggregate-row"] == []


# bold-not-best --------------------------------------------------------------------------------------------


def bold_table(bold: set[tuple[int, int]], caption: str = "MSE and Spearman on Bulk RNA expression.") -> Table:
    grid = [
        ["Model", "MSE", "Spearman"],
        ["NT", "0.412", "0.561"],
        ["DNABERT2", "0.425", "0.548"],
        ["HyenaDNA", "0.438", "0.532"],
        ["Caduceus", "0.397", "0.578"],
    ]
    return table_from_grid(grid, bold=bold, caption=caption)


def test_bold_on_the_worst_mse_is_flagged(catalogue: Catalogue) -> None:
    findings = audit([bold_table({(3, 1), (4, 2)}, "MSE and Spearman. Best values in bold.")], catalogue)
    [warning] = problems(findings, "bold-not-best")
    assert warning.locators[0].endswith(":r3:c1")
    assert "lower is better" in warning.message and "0.397" in warning.message


def test_bold_on_the_best_values_is_clean(catalogue: Catalogue) -> None:
    assert not problems(audit([bold_table({(4, 1), (4, 2)}, "Best values in bold.")], catalogue))


def test_best_left_plain_when_the_caption_says_bold_is_best(catalogue: Catalogue) -> None:
    grid = [["Task", "NT", "Caduceus", "HyenaDNA"]]
    grid += [[f"Task {i}", "0.70", f"0.8{i}", "0.60"] for i in range(1, 6)]
    bold = {(r, 2) for r in range(1, 5)}  # row 5's best is left plain
    findings = audit([table_from_grid(grid, bold=bold, caption="Accuracy. Best values in bold.")], catalogue)
    [warning] = problems(findings, "bold-not-best")
    assert warning.locators[0].endswith(":r5:c2") and "printed plain" in warning.message


# caption-column-count -------------------------------------------------------------------------------------


def test_caption_counting_five_models_over_four_columns(catalogue: Catalogue) -> None:
    grid = [["Cell line", "NT", "DNABERT2", "HyenaDNA", "GENA-LM"], ["H1-ESC", "0.61", "0.63", "0.59", "0.62"]]
    grid.append(["HFF", "0.58", "0.60", "0.57", "0.59"])
    wrong = table_from_grid(grid, caption="Pearson correlation of five models on genomic structure prediction.")
    [warning] = problems(audit([wrong], catalogue), "caption-column-count")
    assert warning.expected["models"] == 5 and warning.found["models"] == 4
    right = table_from_grid(grid, caption="Pearson correlation of the four models.")
    assert not problems(audit([right], catalogue))


# caption-text-contradiction -------------------------------------------------------------------------------


def contradiction_findings(catalogue: Catalogue, sentence: str) -> list[Finding]:
    table = table_from_grid(
        [["Task", "NT", "Caduceus"], ["Long-range Promoters Prediction", "0.82", "0.87"]],
        label="Table 3",
        caption="Accuracy of the models on the long-range tasks.",
    )
    return problems(audit([table], catalogue, text=f"Some intro. {sentence} More text."), "caption-text-contradiction")


def test_caption_says_long_range_text_says_short_range(catalogue: Catalogue) -> None:
    [warning] = contradiction_findings(catalogue, "Table 3 reports short-range tasks, where models differ most.")
    assert warning.found["text"] == "short-range" and warning.expected["caption"] == "long-range"
    assert "Table 3 reports short-range tasks" in warning.message


@pytest.mark.parametrize(
    "sentence",
    [
        "Table 3 reports long-range tasks.",
        "Table 3 reports long-range tasks, unlike short-range ones.",
        "Table 2 reports short-range tasks and Table 3 the long-range ones.",
        "Table 3 is not about short-range tasks.",
    ],
)
def test_agreeing_mixed_or_negated_citations_are_clean(catalogue: Catalogue, sentence: str) -> None:
    assert contradiction_findings(catalogue, sentence) == []


# error-bars-claimed ---------------------------------------------------------------------------------------


def test_error_bars_claimed_without_any_printed(catalogue: Catalogue) -> None:
    plain = table_from_grid([["Task", "NT"], ["A", "0.71"], ["B", "0.64"]])
    text = "Every model is fine-tuned five times. Error bars show standard deviation over five seeds."
    [warning] = problems(audit([plain], catalogue, text=text), "error-bars-claimed")
    assert warning.details["scope"]["kind"] == "paper" and warning.found["claims"][0]["page"] == 1
    spread = table_from_grid([["Task", "NT"], ["A", "0.71 ± 0.02"], ["B", "0.64 ± 0.01"]])
    assert not problems(audit([spread], catalogue, text=text), "error-bars-claimed")
    negated = "We do not report error bars. Did you report error bars? [No]"
    assert not problems(audit([plain], catalogue, text=negated), "error-bars-claimed")
    figure = "In Figure 3, error bars show the standard deviation."
    assert not problems(audit([plain], catalogue, text=figure), "error-bars-claimed")


# value-out-of-range ---------------------------------------------------------------------------------------


def test_accuracy_above_one_and_negative_mse(catalogue: Catalogue) -> None:
    grid = [["Dataset", "Metric", "NT", "HyenaDNA"], ["Coding vs Intergenomic", "Accuracy", "0.912", "1.07"]]
    grid += [["Human vs Worm", "Accuracy", "0.951", "0.962"], ["Bulk RNA expression", "MSE", "0.41", "-0.02"]]
    findings = problems(audit([table_from_grid(grid, stub_cols=2)], catalogue), "value-out-of-range")
    assert sorted(tuple(f.locators[0].split(":")[-2:]) for f in findings) == [("r1", "c3"), ("r3", "c3")]
    assert {f.found["printed"] for f in findings} == {"1.07", "-0.02"}
    assert all(f.severity == "error" for f in findings)


def test_percentages_are_read_on_the_percent_scale(catalogue: Catalogue) -> None:
    grid = [["Model", "Accuracy (%)"], ["A", "85.3"], ["B", "91.2"], ["C", "100.4"]]
    [error] = problems(audit([table_from_grid(grid)], catalogue), "value-out-of-range")
    assert error.found["printed"] == "100.4" and "[0, 100]" in error.message


# undefined-metric -----------------------------------------------------------------------------------------


def top1_table() -> Table:
    return table_from_grid(
        [["Dataset", "Metric", "NT", "Caduceus"], ["Human Enhancers Cohn", "Top-1", "0.742", "0.766"]], stub_cols=2
    )


def test_top1_never_defined(catalogue: Catalogue) -> None:
    text = "On the new dataset we report Top-1 for every model."
    [warning] = problems(audit([top1_table()], catalogue, text=text), "undefined-metric")
    assert warning.locators[0].endswith(":r1:c1") and "'Top-1'" in warning.message


@pytest.mark.parametrize(
    "definition",
    [
        "Top-1 is the fraction of sequences whose highest-scoring class is correct.",
        "We report top-1 accuracy (the fraction of sequences whose best class is right), or Top-1.",
        "Top-1 denotes the share of correct first predictions.",
        "The first-prediction hit rate (Top-1) is reported.",
        "We report Top-1 [12] for every model.",
    ],
)
def test_top1_defined_in_the_text(catalogue: Catalogue, definition: str) -> None:
    assert not problems(audit([top1_table()], catalogue, text=definition), "undefined-metric")


def test_standard_metrics_need_no_definition(catalogue: Catalogue) -> None:
    table = table_from_grid([["Model", "MCC", "AUROC"], ["NT", "0.41", "0.88"]])
    assert not problems(audit([table], catalogue, text="Nothing about metrics."), "undefined-metric")


# dataset-reused -------------------------------------------------------------------------------------------


def reuse_table() -> Table:
    return table_from_grid(
        [
            ["Dataset", "NT", "Caduceus"],
            ["Human Enhancers Cohn", "0.742", "0.766"],
            ["Bulk RNA expression", "0.41", "0.44"],
        ]
    )


def test_dataset_presented_as_new_is_a_warning(catalogue: Catalogue) -> None:
    text = "We introduce a new enhancer dataset, Human Enhancers Cohn, which we collected for this study."
    [warning] = problems(audit([reuse_table()], catalogue, text=text), "dataset-reused")
    assert warning.locators[0].endswith(":r1:c0") and "Genomic Benchmarks" in warning.message
    assert warning.details["evidence"]["sentence"].startswith("We introduce")


def test_dataset_credited_to_its_benchmark_is_a_note(catalogue: Catalogue) -> None:
    text = "Human Enhancers Cohn comes from Genomic Benchmarks and is used as published."
    findings = [f for f in audit([reuse_table()], catalogue, text=text) if f.check == "dataset-reused"]
    assert [f.severity for f in findings] == ["info"] and findings[0].details["limitation"] is True


# duplicate-values -----------------------------------------------------------------------------------------


def test_duplicated_model_column(catalogue: Catalogue) -> None:
    grid = [["Dataset", "NT", "DNABERT2", "HyenaDNA", "GENA-LM"]]
    grid += [[f"dataset {i}", f"0.6{i}1", f"0.7{i}2", f"0.5{i}3", f"0.7{i}2"] for i in range(5)]
    [warning] = problems(audit([table_from_grid(grid)], catalogue), "duplicate-values")
    assert "'DNABERT2' and 'GENA-LM'" in warning.message


def test_shared_counts_do_not_make_rows_duplicates(catalogue: Catalogue) -> None:
    grid = [["Model", "N_pos", "N_neg", "N_total", "AUROC", "AUPRC"]]
    grid += [[m, "831", "405", "1236", a, b] for m, a, b in (("A", "0.914", "0.949"), ("B", "0.914", "0.949"))]
    grid += [["C", "831", "405", "1236", "0.916", "0.953"], ["D", "831", "405", "1236", "0.809", "0.920"]]
    assert not problems(audit([table_from_grid(grid)], catalogue), "duplicate-values")


# inputs ---------------------------------------------------------------------------------------------------


def test_checks_without_their_inputs_are_skipped() -> None:
    inp = AuditInput("local:t", "ab" * 32, [reuse_table()])
    run = run_checks(inp)
    assert set(run.skipped) == {
        "undefined-metric",
        "caption-text-contradiction",
        "error-bars-claimed",
        "value-out-of-range",
        "dataset-reused",
        "cross-table-mean",
        "text-claim-mismatch",
        "text-unit-scale",
        "text-comparison-swapped",
        "identifier-truncated",
        "reproduction-differs",
    }
    assert "catalogue" in run.skipped["value-out-of-range"]
    assert {"aggregate-row", "bold-not-best", "caption-column-count", "duplicate-values"} <= set(run.ran)


def test_finding_ids_are_stable(catalogue: Catalogue) -> None:
    table = mean_table(["0.726", "0.743", "0.713", "0.720", "0.757"])
    first = [f.id for f in audit([table], catalogue)]
    assert first, "the planted mean must be found, or there is nothing to compare"
    assert first == [f.id for f in audit([table], catalogue)]
    other = mean_table(["0.726", "0.743", "0.713", "0.720", "0.758"])
    assert [f.id for f in audit([other], catalogue)] != first  # the id depends on what was found


# guards learned on real tables -----------------------------------------------------------------------------


def test_weighted_averages_and_unlike_parts_are_not_checked(catalogue: Catalogue) -> None:
    grid = [["Split", "A", "B"], ["x", "64.53", "53.32"], ["y", "61.20", "49.90"], ["Avg. W.", "56.88", "44.31"]]
    assert not problems(audit([table_from_grid(grid)], catalogue), "aggregate-row")
    grid = [["Setting", "7B", "40B"], ["LR", "3.0e-4", "2.0e-4"], ["Steps", "4.2M", "16.8M"], ["Total", "500K", "516K"]]
    assert not problems(audit([table_from_grid(grid)], catalogue), "aggregate-row")


def test_settings_and_constant_lines_are_not_duplicates(catalogue: Catalogue) -> None:
    grid = [["Model", "Layers", "Dim", "LR", "Steps"], ["A (80M)", "12", "1024", "1e-4", "10,000"]]
    grid += [["B (200M)", "12", "1024", "1e-4", "10,000"], ["C (1B)", "24", "2048", "3e-4", "20,000"]]
    assert not problems(audit([table_from_grid(grid)], catalogue), "duplicate-values")


def test_differences_are_not_scores(catalogue: Catalogue) -> None:
    grid = [["Metric", "Ablation", "Base", "Difference"], ["AUROC", "0.851", "0.829", "-0.022"]]
    grid += [["AUPRC", "0.910", "0.927", "+0.017"]]
    assert not problems(audit([table_from_grid(grid)], catalogue), "value-out-of-range")


def test_model_names_with_numbers_are_not_counts(catalogue: Catalogue) -> None:
    table = table_from_grid(
        [["Setting", "7B", "40B"], ["Layers", "32", "50"]], caption="Configurations of Evo 2 models."
    )
    assert not problems(audit([table], catalogue), "caption-column-count")


def test_deviations_of_a_method_are_not_error_bars(catalogue: Catalogue) -> None:
    table = table_from_grid([["Task", "NT"], ["A", "0.71"], ["B", "0.64"]])
    text = "We use the settings provided in the codebase, a normal distribution with standard deviation 0.006."
    assert not problems(audit([table], catalogue, text=text), "error-bars-claimed")


def test_bold_that_no_reading_explains_is_left_alone(catalogue: Catalogue) -> None:
    grid = [["Model", "A", "B", "C"], ["m1", "0.50", "0.90", "0.10"], ["m2", "0.60", "0.20", "0.80"]]
    grid += [["m3", "0.70", "0.40", "0.30"], ["m4", "0.10", "0.30", "0.95"]]
    bold = {(1, 1), (2, 2), (3, 3), (4, 1)}  # accuracy: neither the best per row nor per column
    table = table_from_grid(grid, bold=bold, caption="Accuracy of four models.")
    assert not problems(audit([table], catalogue), "bold-not-best")
