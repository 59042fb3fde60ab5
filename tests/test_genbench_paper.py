"""A realistic GenBench paper end to end (fetch --file -> extract -> map -> emit) against its truth, and the
mapping rules it needs: label columns and rows the table's stub or header count left out, cross-table means,
GUE and Genomic Benchmarks names of GenBench datasets."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest
from papers.genbench_paper import ExpectedValue, genbench_paper, genbench_values, score_records

from pipeline.catalogue import Catalogue, load_catalogue
from pipeline.emit.schema import validate_record
from pipeline.extract.document.tables import extract_tables
from pipeline.fixtures.render import typeset
from pipeline.mapping.document import map_tables
from pipeline.mapping.equivalents import same_data
from pipeline.mapping.model import CellMapping, TableMapping
from pipeline.model import Table, TablesFile
from pipeline.store import read_jsonl

SID = "local:genbench-eval"
GB = "GenBench"
MODELS = ["NT-v2", "DNABERT-2", "HyenaDNA", "GENA-LM", "Caduceus-PH"]


@pytest.fixture(scope="module")
def catalogue(tmp_path_factory: pytest.TempPathFactory) -> Catalogue:
    return load_catalogue(tmp_path_factory.mktemp("config"))  # no catalogue there: the bundled one


@pytest.fixture(scope="module")
def pdf(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list]:
    data, truth = typeset(genbench_paper())
    path = tmp_path_factory.mktemp("paper") / "genbench.pdf"
    path.write_bytes(data)
    return path, truth.tables


def test_truth_is_what_the_tables_print_and_names_catalogue_entries(pdf, catalogue: Catalogue) -> None:
    _, tables = pdf
    grids = {(t.label, t.panel): t.cells for t in tables}
    values = genbench_values()
    assert len(values) == 250 and sum(v.dataset is not None for v in values) == 240
    assert {t.layout for t in tables} == {"single", "column"}
    for value in values:
        assert grids[value.table, value.panel][value.row][value.col] == value.printed, value
        if value.dataset is not None:
            assert catalogue.dataset_by_name(value.dataset) is not None, value.dataset
            assert value.configuration in {c.name for c in catalogue.configurations}
            assert catalogue.has("metric", str(value.metric))


def test_task_level_values_are_the_means_the_truth_says(catalogue: Catalogue) -> None:
    values = genbench_values()
    notes = [v for v in values if v.aggregation and v.aggregation.startswith("task-level")]
    assert len(notes) == 25
    for value in notes:
        task = catalogue.dataset_by_name(str(value.dataset)).task
        parts_table = value.aggregation.rsplit("mean of the ", 1)[1].split()[:2]
        parts = [
            Decimal(v.printed) / (100 if v.percent else 1)
            for v in values
            if v.table == " ".join(parts_table)
            and v.configuration == value.configuration
            and catalogue.dataset_by_name(str(v.dataset)).task == task
        ]
        mean = sum(parts) / len(parts)
        assert abs(Decimal(value.printed.rstrip("†")) - mean) <= Decimal("0.0006"), value


def test_genbench_paper_end_to_end(invoke, workspace, pdf) -> None:
    path, _ = pdf
    for args, code in ((("fetch", "--file", str(path), "--id", SID), 0), (("extract", SID), 0)):
        result = invoke(*args)
        assert result.exit_code == code, (args, result.output)
    mapped = invoke("map", SID)
    assert mapped.exit_code == 1, mapped.output  # the Average row names no catalogue dataset: listed, exit 1
    assert invoke("emit", SID).exit_code == 0
    records = read_jsonl(workspace.extracted_dir(SID) / "records.jsonl")
    for record in records:
        validate_record(record)
    expected = genbench_values()
    score = score_records(records, expected)
    assert (score.right, score.expected, score.missed, score.wrong) == (240, 240, [], [])
    by_key = {(r["table_label"], r["printed"], r["dataset"], r["configuration"]): r for r in records}

    def record(value: ExpectedValue) -> dict:
        return by_key[(value.table, value.printed, value.dataset, value.configuration)]

    for value in (v for v in expected if v.dataset is not None):
        found = record(value)
        assert found["aggregation"] == (value.aggregation or "Not reported"), value
        assert (found["rescale"] is not None) == value.percent, value
        scale = Decimal(100 if value.percent else 1)
        assert found["catalogue_value"] == pytest.approx(float(Decimal(found["value"]) / scale))
    assert {r["page"] for r in records if r["table_label"] == "Table 7"} == {4, 5}  # continued on the next page
    assert len({r["id"] for r in records}) == len(records)
    bulk = record(next(v for v in expected if v.table == "Table 3" and v.configuration == f"Caduceus ({GB})"))
    assert bulk["locator_readable"] == "Table 3 (a), row 'Bulk RNA expression', column 'Caduceus MSE'"
    fly = record(next(v for v in expected if v.table == "Table 3" and "\u00b1" in v.printed))
    assert fly["locator_readable"] == "Table 3 (c), row 'Drosophila enhancer activity / dev', column 'NT Pearson'"
    assert fly["plus_minus"] is not None and "the caption calls it the standard deviation" in fly["uncertainty"]
    core = record(next(v for v in expected if v.table == "Table 6" and v.col == 3))
    assert core["dataset"] == f"{GB} Human Core Promoter Detection, dataset all"  # named by the panel title only
    assert core["locator_readable"] == "Table 6 (a), row 'NT-v2', column 'all'"
    emp = record(next(v for v in expected if v.table == "Table 8"))
    assert "25 of 25 Accuracy values" in emp["rescale"] and "the caption prints 'percent'" in emp["rescale"]
    top1 = record(next(v for v in expected if v.table == "Table 2" and v.dataset))
    assert top1["mapping"]["metric_printed"] == "top-1" and top1["metric"] == "accuracy"
    mapping = json.loads((workspace.extracted_dir(SID) / "mapping.json").read_text())
    average = [u for t in mapping["tables"] if t["label"] == "Table 2" for u in t["unmapped"]]
    assert len(average) == 5 and all("aggregate 'Average'" in u["reasons"][0] for u in average)
    settings = [u for t in mapping["tables"] if t["label"] == "Table 1" for u in t["skipped"]]
    assert len(settings) == 10 and all(": not a result" in u["reasons"][0] for u in settings)  # sizes and lengths
    assert sum("names Sequence length: not a result" in u["reasons"][0] for u in settings) == 5
    assert core["also_published_in"] == ["GUE prom_core"]
    _audit_and_source_record(invoke, workspace)


def _audit_and_source_record(invoke, workspace) -> None:
    """The audit finds the paper's limitations once each and writes them into the catalogue Source record."""
    assert invoke("audit", SID).exit_code in (0, 1)
    data = json.loads((workspace.audits_dir(SID) / "findings.json").read_text())
    findings = data["findings"] if isinstance(data, dict) else data
    by_check: dict[str, list[dict]] = {}
    for finding in findings:
        by_check.setdefault(finding["check"], []).append(finding)
    means = by_check["cross-table-mean"]
    assert sorted(f["details"]["parts_table"] for f in means) == ["Table 6"] * 2 + ["Table 7"] * 2 + ["Table 8"]
    assert all(f["severity"] == "info" and "within rounding" in f["message"] for f in means)
    [panels] = by_check["caption-column-count"]
    assert panels["table_label"] == "Table 3" and "names 3 models (NT, DNABERT2, HyenaDNA)" in panels["message"]
    reused = by_check["dataset-reused"]  # once per family, not once per row: eight families
    assert len(reused) == 8 and sum("Table 6" in f["message"] for f in reused) == 2
    record = json.loads((workspace.audits_dir(SID) / "source_record.json").read_text())
    assert record["stable_id"].startswith("lit-genomics-") and record["stable_id"].endswith(
        "-genbench-source-brandt2026"
    )
    assert "The Table 3 caption names 3 models while the table has 5 columns of models." in record["limitations"]
    assert "Table 2 rows for multi-dataset tasks are means of the Table 6 dataset rows." in record["limitations"]
    assert "Tables 2, 5, 6, 7 and 8 report 'Top-1' scores; the paper does not define Top-1." in record["limitations"]
    assert sum(s.startswith("Datasets published before in GUE") for s in record["limitations"]) == 1
    candidates = json.loads((workspace.extracted_dir(SID) / "candidates.json").read_text())["candidates"]
    assert len(candidates) == 5 and {c["printed_labels"]["dataset"] for c in candidates} == {"Average"}
    suggested = invoke("catalogue", "suggest", SID)
    assert suggested.exit_code == 0 and "5 candidate record(s)" in suggested.output and "Average" in suggested.output


def map_grid(catalogue: Catalogue, *tables) -> list[TableMapping]:
    return map_tables(TablesFile({"id": "t", "sha256": "ab" * 32}, {}, list(tables)), catalogue).tables


def by_row(mapping: TableMapping) -> dict[int, CellMapping]:
    return {c.row: c for c in mapping.cells}


def test_a_words_column_beside_a_multirow_stub_labels_its_rows(catalogue: Catalogue) -> None:
    """An extractor that takes one stub column where two are printed leaves 'dataset 0' in the body."""
    grid = [
        ["Task", "Dataset", *MODELS],
        ["Mouse Transcription Factor Prediction", "dataset 0", "0.65", "0.67", "0.64", "0.65", "0.68"],
        [None, "dataset 1", "0.77", "0.79", "0.76", "0.77", "0.80"],
    ]
    spans = [{"row": 1, "col": 0, "row_span": 2, "col_span": 1}]
    (mapping,) = map_grid(catalogue, Table.from_grid(grid, 1, 1, label="Table 9", caption="Top-1.", spans=spans))
    assert by_row(mapping)[2].dataset.name == f"{GB} Mouse Transcription Factor Prediction, dataset 1"
    assert "row 'Mouse Transcription Factor Prediction / dataset 1'" in by_row(mapping)[2].locator_readable


def test_a_words_row_under_a_spanning_task_labels_its_columns(catalogue: Catalogue) -> None:
    """A header row the extractor counted as body: the datasets under the task spanning them."""
    grid = [
        ["Model", "Yeast Epigenetic Marks Prediction", None, None],
        [None, "H3", "H3K4me1", "H3K9ac"],
        ["NT-v2", "47.6", "59.2", "55.6"],
        ["Caduceus-PH", "47.6", "59.5", "57.4"],
    ]
    spans = [{"row": 0, "col": 1, "row_span": 1, "col_span": 3}, {"row": 0, "col": 0, "row_span": 2, "col_span": 1}]
    table = Table.from_grid(grid, 1, 1, label="Table 10", caption="Top-1 (%) on GenBench.", spans=spans)
    (mapping,) = map_grid(catalogue, table)
    names = {c.col: c.dataset.name for c in mapping.cells}
    assert names == {
        c: f"{GB} Yeast Epigenetic Marks Prediction, dataset {p}" for c, p in ((1, "H3"), (2, "H3K4me1"), (3, "H3K9ac"))
    }
    assert all(c.scale.printed == "percent" for c in mapping.cells)


def _task_and_parts(task_value: str, parts: tuple[str, str, str], percent: bool = False):
    task = Table.from_grid(
        [["Task", "NT-v2", "Caduceus-PH"], ["Human Core Promoter Detection", task_value, "0.700"]],
        1, 1, label="Table 2", caption="Top-1 on GenBench.",
    )  # fmt: skip
    rows = [["Dataset", "NT-v2", "Caduceus-PH"], ["Human Core Promoter Detection", None, None]]
    rows += [
        [name, value, "70.0" if percent else "0.700"]
        for name, value in zip(("notata", "tata", "all"), parts, strict=True)
    ]
    spans = [{"row": 1, "col": 0, "row_span": 1, "col_span": 3}]
    caption = "Top-1 (%) on GenBench datasets." if percent else "Top-1 on GenBench datasets."
    return task, Table.from_grid(rows, 1, 1, label="Table 8", caption=caption, index=1, spans=spans)


@pytest.mark.parametrize(
    ("task_value", "parts", "percent", "note"),
    [
        ("0.712", ("0.702", "0.781", "0.654"), False, "; mean of the Table 8 dataset rows"),  # mean 0.71233
        ("0.712", ("70.2", "78.1", "65.4"), True, "; mean of the Table 8 dataset rows"),  # the same, in percent
        ("0.730", ("0.702", "0.781", "0.654"), False, ""),  # not their mean: the note does not claim it
    ],
)
def test_cross_table_note_only_when_the_value_is_the_mean(catalogue, task_value, parts, percent, note) -> None:
    task, parts_table = _task_and_parts(task_value, parts, percent)
    task_mapping, _ = map_grid(catalogue, task, parts_table)
    nt = next(c for c in task_mapping.cells if c.col == 1)
    assert nt.aggregation == "task-level value as printed in Table 2" + note


def test_gue_names_of_genbench_datasets_link_to_genbench_in_a_genbench_table(catalogue: Catalogue) -> None:
    grid = [["Dataset", *MODELS]] + [
        [label, "0.70", "0.71", "0.69", "0.70", "0.72"]
        for label in ("prom_core_notata", "EMP H3", "Core Promoter Detection", "Promoter Detection")
    ]
    (mapping,) = map_grid(catalogue, Table.from_grid(grid, 1, 1, label="Table 3", caption="Top-1 of five models."))
    assert mapping.benchmark.name == GB
    assert {r: c.dataset.name for r, c in by_row(mapping).items()} == {
        1: f"{GB} Human Core Promoter Detection, dataset notata",
        2: f"{GB} Yeast Epigenetic Marks Prediction, dataset H3",
        3: f"{GB} Human Core Promoter Detection",
        4: f"{GB} Human Promoter Detection",  # the task, not its dataset "all" (a fuzzy 90 once)
    }
    assert "of dataset 'GUE Core Promoter Detection, dataset notata'" in by_row(mapping)[1].dataset.reason
    assert (
        "the same data as 'GenBench Human Core Promoter Detection, dataset notata'" in by_row(mapping)[1].dataset.reason
    )


def test_a_caption_naming_gue_keeps_gue_names_in_gue(catalogue: Catalogue) -> None:
    grid = [["Dataset", "DNABERT-2", "HyenaDNA"], ["EMP H3", "0.52", "0.50"], ["prom_core_notata", "0.68", "0.66"]]
    (mapping,) = map_grid(catalogue, Table.from_grid(grid, 1, 1, label="Table 3", caption="MCC on the GUE tasks."))
    assert mapping.benchmark.name == "GUE"
    assert {c.dataset.name for c in mapping.cells} == {
        "GUE Epigenetic Marks Prediction, dataset H3",
        "GUE Core Promoter Detection, dataset notata",
    }


def test_a_blank_stub_cell_continues_the_label_above(catalogue: Catalogue) -> None:
    grid = [
        ["Dataset", "Metric", "NT", "Caduceus"],
        ["Bulk RNA expression", "MSE", "0.43", "0.41"],
        ["", "Spearman", "0.55", "0.56"],
        ["Drosophila enhancer activity (dev)", "PCC", "0.62", "0.64"],
    ]
    (mapping,) = map_grid(catalogue, Table.from_grid(grid, 1, 2, label="Table 4", caption="GenBench regression."))
    rows = by_row(mapping)
    assert (rows[2].dataset.name, rows[2].metric.id) == (f"{GB} Bulk RNA expression", "spearman")
    assert rows[2].locator_readable == "Table 4, row 'Bulk RNA expression / Spearman', column 'Caduceus'"
    assert (rows[3].dataset.name, rows[3].metric.id) == (f"{GB} Drosophila enhancer activity (dev)", "pearson")


def test_same_data_is_read_off_also_published_in(catalogue: Catalogue) -> None:
    same = same_data(catalogue)
    assert same["genbench-human-core-promoter-detection-dataset-notata"] == ("gue-prom-core-notata",)
    assert same["gue-prom-core-notata"] == ("genbench-human-core-promoter-detection-dataset-notata",)
    assert same["genbench-mouse-enhancers"] == (
        "gb-dummy-mouse-enhancers-ensembl",
    )  # "Genomic Benchmarks mouse enhancers"
    assert "genbench-drosophila-enhancer-activity-dev" not in same  # DeepSTARR is not in the catalogue


def test_a_multirow_name_wrapped_onto_two_lines_names_all_its_rows(tmp_path: Path) -> None:
    """Each line of the name sits half-way between two rows; the row of values between the lines stays a row."""
    data, _ = typeset(genbench_paper(wrapped_multirow=True))
    path = tmp_path / "wrapped.pdf"
    path.write_bytes(data)
    (table,) = [t for t in extract_tables(path).tables if t.label == "Table 7"]
    paths = [c.row_path for c in sorted(table.cells, key=lambda c: c.row) if c.kind == "body" and c.col == 2]
    assert len(paths) == 10
    assert {p[0] for p in paths[:5]} == {"Human Transcription Factor Prediction"}
    assert {p[0] for p in paths[5:]} == {"Mouse Transcription Factor Prediction"}


@pytest.mark.parametrize(
    ("title", "benchmark"),
    [("A new DNA language model", "GUE"), ("GenBench: A Benchmarking Suite for Genomic Foundation Models", GB)],
)
def test_the_benchmark_a_paper_introduces_wins_over_another_benchmarks_names(catalogue, title, benchmark) -> None:
    """GUE's names and GUE's models alone say GUE; in the paper that introduces GenBench they are GenBench's
    copies of the data, and the record names GUE as where the data also appear."""
    grid = [
        ["Dataset", "DNABERT-2", "HyenaDNA"],
        ["prom_core_all", "0.70", "0.71"],
        ["prom_core_notata", "0.69", "0.72"],
    ]
    table = Table.from_grid(grid, 1, 1, label="Table 10", caption="MCC of the models.")
    source = {"id": "t", "sha256": "ab" * 32, "title": title}
    (mapping,) = map_tables(TablesFile(source, {}, [table]), catalogue).tables
    assert mapping.benchmark.name == benchmark
    all_rows = {c.dataset.name for c in mapping.cells if c.row == 1}
    if benchmark == GB:
        assert all_rows == {f"{GB} Human Core Promoter Detection, dataset all"}
        assert "the paper introduces it" in mapping.benchmark.reason
        assert by_row(mapping)[1].facts.also_published_in == ("GUE prom_core",)
    else:
        assert all_rows == {"GUE Core Promoter Detection, dataset all"}
