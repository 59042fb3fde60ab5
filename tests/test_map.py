"""The mapper on tables with known truth: orientation, datasets, configurations, metrics, scales, aggregates."""

from __future__ import annotations

import pytest

from pipeline.catalogue import load_catalogue
from pipeline.catalogue.load import BUNDLED_DIR
from pipeline.mapping.document import map_tables
from pipeline.mapping.labels import label_score
from pipeline.mapping.model import MODELS_IN_COLUMNS, MODELS_IN_ROWS, MappingFile, TableMapping
from pipeline.mapping.overrides import SourcePins, TablePins
from pipeline.model import Table, TablesFile

SHA = "ab" * 32
MODELS = ["NT", "DNABERT2", "HyenaDNA", "GENA-LM", "Caduceus"]
CONFIGS = [f"{m} (GenBench)" for m in MODELS]


@pytest.fixture(scope="module")
def catalogue():
    return load_catalogue(BUNDLED_DIR)


def make_table(grid: list[list[str | None]], header_rows: int = 1, stub_cols: int = 1, **kw) -> Table:
    kw.setdefault("label", "Table 1")
    return Table.from_grid(grid, header_rows, stub_cols, **kw)


def map_one(catalogue, table: Table) -> TableMapping:
    return map_tables(TablesFile({"id": "test:paper", "sha256": SHA}, {}, [table]), catalogue).tables[0]


def by_position(mapping: TableMapping) -> dict[tuple[int, int], tuple[str | None, str | None, str | None]]:
    return {(c.row, c.col): (c.dataset.name, c.configuration.name, c.metric.id) for c in mapping.cells}


def test_two_level_header_with_metrics_under_models(catalogue) -> None:
    table = make_table(
        [
            ["Task", "Caduceus", None, "NT", None],
            ["", "MSE", "Spearman", "MSE", "Spearman"],
            ["Bulk RNA expression", "0.397", "0.578", "0.412", "0.561"],
        ],
        header_rows=2,
        spans=[{"row": 0, "col": 1, "row_span": 1, "col_span": 2}, {"row": 0, "col": 3, "row_span": 1, "col_span": 2}],
        label="Table 8",
    )
    mapping = map_one(catalogue, table)
    assert mapping.orientation == MODELS_IN_COLUMNS
    bulk = "GenBench Bulk RNA expression"
    assert by_position(mapping) == {
        (2, 1): (bulk, "Caduceus (GenBench)", "mse"),
        (2, 2): (bulk, "Caduceus (GenBench)", "spearman"),
        (2, 3): (bulk, "NT (GenBench)", "mse"),
        (2, 4): (bulk, "NT (GenBench)", "spearman"),
    }
    first = mapping.cells[0]
    assert first.locator_readable == "Table 8, row 'Bulk RNA expression', column 'Caduceus MSE'"
    assert first.dataset.method == "exact" and first.dataset.score == 100
    assert "matches 'Bulk RNA expression'" in first.dataset.reason
    assert first.metric.method == "printed" and first.metric.source == "column"
    assert first.facts.direction == "lower" and first.facts.unit == "unitless"
    assert mapping.unmapped == []


def test_row_groups_percent_rescale_and_mean_row(catalogue) -> None:
    table = make_table(
        [
            ["Dataset", *MODELS],
            ["Human Core Promoter Detection", None, None, None, None, None],
            ["all", "70.21", "71.62", "68.83", "69.54", "72.15"],
            ["notata", "71.02", "71.64", "68.80", "69.51", "72.10"],
            ["tata", "78.13", "80.31", "76.92", "77.43", "79.56"],
            ["Mean", "73.12", "74.52", "71.52", "72.16", "74.60"],
        ],
        spans=[{"row": 1, "col": 0, "row_span": 1, "col_span": 6}],
        caption="Accuracy of five models on GenBench.",
        label="Table 2",
    )
    mapping = map_one(catalogue, table)
    rows = {c.row: c.dataset.name for c in mapping.cells}
    assert rows == {
        2: "GenBench Human Core Promoter Detection, dataset all",
        3: "GenBench Human Core Promoter Detection, dataset notata",
        4: "GenBench Human Core Promoter Detection, dataset tata",
        5: "GenBench Human Core Promoter Detection",
    }
    assert {c.configuration.name for c in mapping.cells} == set(CONFIGS)
    caduceus_tata = next(c for c in mapping.cells if (c.row, c.col) == (4, 5))
    assert caduceus_tata.scale.printed == "percent"
    assert caduceus_tata.scale.catalogue_value == pytest.approx(0.7956)
    assert "divided by 100 into the catalogue's unit 'fraction'" in caduceus_tata.scale.note
    assert "20 of 20 Accuracy values in this table lie between 1 and 100" in caduceus_tata.scale.note
    mean = next(c for c in mapping.cells if c.row == 5)
    assert mean.aggregation == "mean of the Human Core Promoter Detection dataset rows as printed in Table 2"
    assert "aggregate row 'Mean'" in mean.dataset.reason


def test_models_in_rows(catalogue) -> None:
    table = make_table(
        [
            ["Model", "Human Enhancers Cohn", "Human Nontata Promoters"],
            ["HyenaDNA", "0.742", "0.861"],
            ["Caduceus-PS", "0.766", "0.873"],
            ["GENA-LM", "0.749", "0.858"],
        ],
        caption="Top-1 accuracy on GenBench short-range tasks.",
    )
    mapping = map_one(catalogue, table)
    assert mapping.orientation == MODELS_IN_ROWS
    assert mapping.benchmark.id == "genbench"
    cell = by_position(mapping)
    assert cell[(2, 1)] == ("GenBench Human Enhancers Cohn", "Caduceus (GenBench)", "accuracy")
    assert cell[(3, 2)] == ("GenBench Human Nontata Promoters", "GENA-LM (GenBench)", "accuracy")
    metric = mapping.cells[0].metric
    assert (metric.source, metric.printed_as) == ("caption", "top-1")
    assert "a name the catalogue records as Accuracy for this dataset" in metric.reason
    assert mapping.cells[0].facts.metric_standard is False


def test_metric_from_a_metric_column_and_lone_out_of_range_value_not_rescaled(catalogue) -> None:
    table = make_table(
        [
            ["Dataset", "Metric", *MODELS],
            ["Human Enhancers Cohn", "Top-1", "0.742", "0.758", "0.731", "0.749", "0.766"],
            ["Coding vs Intergenomic", "Accuracy", "0.912", "0.925", "1.07", "0.918", "0.931"],
        ],
        caption="Top-1 and accuracy on two tasks.",
    )
    mapping = map_one(catalogue, table)
    cell = by_position(mapping)
    assert cell[(1, 2)] == ("GenBench Human Enhancers Cohn", "NT (GenBench)", "accuracy")
    assert mapping.cells[0].metric.printed_as == "top-1" and mapping.cells[0].metric.source == "row"
    assert cell[(2, 4)] == ("GenBench Coding vs Intergenomic", "HyenaDNA (GenBench)", "accuracy")
    assert next(c for c in mapping.cells if (c.row, c.col) == (2, 4)).metric.printed_as is None
    out_of_range = next(c for c in mapping.cells if (c.row, c.col) == (2, 4))
    assert out_of_range.scale.note is None and out_of_range.scale.catalogue_value == 1.07


def test_top1_stays_top1_for_a_dataset_not_scored_by_accuracy(catalogue) -> None:
    table = make_table([["Dataset", "Metric", "DNABERT-2"], ["H3K4me1", "Top-1", "0.50"]], caption="Results on GUE.")
    link = map_one(catalogue, table).cells[0].metric
    assert (link.id, link.printed_as) == ("top-1", None)
    assert "the catalogue lists mcc for this dataset" in link.reason


def test_caption_names_the_task_and_average_is_the_mean_part(catalogue) -> None:
    table = make_table(
        [
            ["Task", *MODELS],
            ["Splice acceptor", "0.912", "0.934", "0.889", "0.905", "0.941"],
            ["Splice donor", "0.886", "0.920", "0.871", "0.895", "0.927"],
            ["Average", "0.899", "0.927", "0.880", "0.900", "0.934"],
        ],
        caption="AUROC of the five models on GenBench long-range splice site prediction.",
    )
    mapping = map_one(catalogue, table)
    rows = {c.row: (c.dataset.name, c.metric.id) for c in mapping.cells}
    assert rows == {
        1: ("GenBench Long-range splice site prediction (Splice acceptor)", "auroc"),
        2: ("GenBench Long-range splice site prediction (Splice donar)", "auroc"),
        3: ("GenBench Long-range splice site prediction (Mean)", "auroc"),
    }
    average = next(c for c in mapping.cells if c.row == 3)
    assert average.aggregation == "mean of Splice acceptor and Splice donar as printed in Table 1"
    assert "the task 'Long-range splice site prediction' is named in the caption" in mapping.cells[0].dataset.reason


def test_dataset_named_only_in_the_caption(catalogue) -> None:
    table = make_table(
        [["Model", "MSE", "Spearman"], ["NT", "0.412", "0.561"], ["Caduceus", "0.397", "0.578"]],
        caption="MSE and Spearman correlation on Bulk RNA expression.",
    )
    mapping = map_one(catalogue, table)
    assert mapping.orientation == MODELS_IN_ROWS
    assert by_position(mapping)[(2, 2)] == ("GenBench Bulk RNA expression", "Caduceus (GenBench)", "spearman")
    assert mapping.cells[0].dataset.source == "caption"


def test_benchmark_decides_between_datasets_with_the_same_printed_name(catalogue) -> None:
    grid = [["Dataset", "HyenaDNA", "CNN"], ["Human Enhancers Cohn", "0.742", "0.695"]]
    gb = map_one(catalogue, make_table(grid, caption="Accuracy on Genomic Benchmarks."))
    assert gb.benchmark.id == "genomic-benchmarks"
    assert by_position(gb)[(1, 2)] == (
        "Genomic Benchmarks human_enhancers_cohn",
        "CNN (Genomic Benchmarks)",
        "accuracy",
    )
    tie = map_one(catalogue, make_table([["Dataset", "Model X"], ["Human Enhancers Cohn", "0.742"]]))
    assert tie.benchmark.id is None and "equally" in tie.benchmark.reason
    assert tie.unmapped[0].reasons[0].startswith("dataset: ambiguous:")


def test_generator_style_table_maps_to_the_revised_nt_tasks(catalogue) -> None:
    table = make_table(
        [
            ["", "Enformer", "NT", "NT-v2", "Caduceus-Ph", "GENERator-v2"],
            ["", "(252M)", "(2.5B)", "(500M)", "(8M)", "(1.2B)"],
            ["H3K4me1", "0.504 (0.021)", "0.481 (0.012)", "0.490 (0.017)", "0.411 (0.012)", "0.518 (0.006)"],
            ["Promoter non-TATA", "0.763 (0.012)", "0.773 (0.010)", "0.785 (0.009)", "0.740 (0.012)", "0.801 (0.006)"],
        ],
        header_rows=2,
        caption="Table 2: Evaluation of the revised Nucleotide Transformer tasks. The reported values represent "
        "the Matthews correlation coefficient (MCC).",
    )
    mapping = map_one(catalogue, table)
    assert mapping.benchmark.id == "nt-revised"
    cell = by_position(mapping)
    assert cell[(2, 2)] == ("Nucleotide Transformer revised H3K4me1", "NT-2.5B (NT revised)", "mcc")
    assert cell[(3, 3)] == ("Nucleotide Transformer revised Promoter non-TATA", "NT-v2-500M (NT revised)", "mcc")
    assert cell[(3, 4)][1] == "Caduceus-Ph (NT revised)"
    assert len(mapping.cells) == 10 and not mapping.unmapped


def test_fuzzy_match_keeps_score_and_alternatives(catalogue) -> None:
    table = make_table(
        [["Dataset", *MODELS], ["Human Core Promotor Detection notata", "0.70", "0.71", "0.68", "0.69", "0.72"]],
        caption="Accuracy on GenBench.",
    )
    link = map_one(catalogue, table).cells[0].dataset
    assert link.name == "GenBench Human Core Promoter Detection, dataset notata"
    assert link.method == "fuzzy" and 90 <= link.score < 100
    assert "rapidfuzz token-sort score" in link.reason
    assert len(link.alternatives) == 3 and all(a.score <= link.score for a in link.alternatives)


def test_numbers_in_labels_must_agree() -> None:
    assert label_score("Mouse Transcription Factor Prediction 0", "Mouse Transcription Factor Prediction 1") <= 60
    assert label_score("H3K4me1", "H3K4me2") <= 60
    assert label_score("DNABERT-2", "DNABERT2") == 100


def test_unknown_model_and_dataset_are_listed_not_dropped(catalogue) -> None:
    table = make_table(
        [
            ["Dataset", "Caduceus", "MyNewModel"],
            ["Human Core Promoter Detection notata", "0.72", "0.74"],
            ["Totally unknown task", "0.50", "0.51"],
            ["Human Core Promoter Detection tata", "-", "0.80"],
        ],
        caption="Accuracy on GenBench.",
    )
    mapping = map_one(catalogue, table)
    assert by_position(mapping) == {
        (1, 1): ("GenBench Human Core Promoter Detection, dataset notata", "Caduceus (GenBench)", "accuracy"),
    }
    unmapped = {(u.row, u.col): u for u in mapping.unmapped}
    assert set(unmapped) == {(1, 2), (2, 1), (2, 2), (3, 2)}  # "-" is no value: neither mapped nor unmapped
    assert unmapped[(1, 2)].reasons == [
        "configuration: no configuration of GenBench matches column 'MyNewModel' (no candidate comes close)"
    ]
    assert len(unmapped[(2, 2)].reasons) == 2
    assert (
        unmapped[(2, 1)].reasons[0].startswith("dataset: no dataset scores 90 or more for row 'Totally unknown task'")
    )
    assert unmapped[(2, 1)].locator_readable == "Table 1, row 'Totally unknown task', column 'Caduceus'"


def test_metric_missing_for_a_dataset_with_two_metrics(catalogue) -> None:
    table = make_table([["Task", "NT"], ["Bulk RNA expression", "0.41"]], caption="Results on GenBench.")
    mapping = map_one(catalogue, table)
    assert mapping.cells == []
    assert mapping.unmapped[0].reasons == ["metric: no metric printed in the headers, row labels or caption"]


def test_metric_and_percent_in_the_table_corner(catalogue) -> None:
    table = make_table(
        [["Dataset (MCC, %)", "DNABERT-2", "NT-v2"], ["H3K4me1", "50.4", "49.0"], ["H3K27ac", "0.9", "48.8"]],
        caption="Results of the revised Nucleotide Transformer tasks.",
    )
    cells = map_one(catalogue, table).cells
    assert {c.metric.id for c in cells} == {"mcc"} and cells[0].metric.source == "table corner"
    low = next(c for c in cells if c.text == "0.9")
    assert low.scale.catalogue_value == pytest.approx(0.009)
    assert low.scale.note.startswith("printed in percent (3 of 4 Matthews correlation coefficient values")
    assert "the table corner prints '%'" in low.scale.note


def test_a_dataset_name_holding_a_metric_word_stays_a_dataset(catalogue) -> None:
    table = make_table(
        [["Category", "NT-v2"], ["Chromatin Acc.", "0.41"], ["Promoters", "0.62"]], caption="GENEB, MCC."
    )
    pins = SourcePins(tables={"Table 1": TablePins(configurations={"NT-v2": "gb-nt-v2"})})  # GENEB lists no models
    mapping = map_tables(TablesFile({"id": "t", "sha256": SHA}, {}, [table]), catalogue, pins).tables[0]
    assert mapping.benchmark.id == "geneb"
    assert by_position(mapping)[(1, 1)] == ("GENEB Chromatin Acc.", "NT-v2 (Genomic Benchmarks)", "mcc")


def test_metric_default_when_the_dataset_has_one(catalogue) -> None:
    table = make_table([["Task", "NT"], ["Long-range Species Classification", "0.61"]])
    link = map_one(catalogue, table).cells[0].metric
    assert (link.id, link.method, link.source) == ("accuracy", "default", "catalogue")


def test_table_without_catalogue_labels_is_unmapped(catalogue) -> None:
    table = make_table([["Method", "BLEU", "ROUGE"], ["Transformer", "27.3", "41.0"], ["RNN", "24.1", "38.2"]])
    mapping = map_one(catalogue, table)
    assert mapping.cells == [] and len(mapping.unmapped) == 4 and mapping.skipped == []
    assert mapping.benchmark.id is None


def test_settings_are_skipped_with_a_reason_not_linked(catalogue) -> None:
    settings = make_table(
        [["", "GENERator-v2", None], ["", "LR", "BS"], ["H2AFZ", "1e-5", "32"], ["Promoter all", "2e-5", "256"]],
        header_rows=2,
        spans=[{"row": 0, "col": 1, "row_span": 1, "col_span": 2}],
        caption="Table S1: Hyperparameter settings for the revised Nucleotide Transformer tasks.",
    )
    mapping = map_one(catalogue, settings)
    assert mapping.cells == [] and mapping.unmapped == [] and len(mapping.skipped) == 4
    assert mapping.skipped[0].reasons == ["the column label 'GENERator-v2 LR' names Learning rate: not a result"]
    by_caption = make_table(
        [["Model", "Human Enhancers Cohn"], ["HyenaDNA", "6948"]], caption="Number of parameters of each model."
    )
    skipped = map_one(catalogue, by_caption).skipped
    assert skipped[0].reasons == ["the caption names Parameters and no metric is printed: not a result"]


def test_mapping_file_round_trips(catalogue) -> None:
    table = make_table([["Task", "NT", "Caduceus"], ["Long-range Species Classification", "61.2%", "0.72"]])
    mapping = map_tables(TablesFile({"id": "t", "sha256": SHA}, {}, [table]), catalogue, tables_sha256="x")
    data = mapping.to_dict()
    assert MappingFile.from_dict(data).to_dict() == data
    assert data["summary"]["cells_mapped"] == 2 and data["summary"]["cells_rescaled"] == 1
    percent = mapping.tables[0].cells[0].scale
    assert percent.catalogue_value == pytest.approx(0.612) and "'%' printed in the cell '61.2%'" in percent.note
