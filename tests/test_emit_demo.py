"""End to end on the generated demo paper: fetch (local file) -> extract -> map -> emit, every value cell of
its GenBench-named tables mapped to the right dataset, configuration and metric, with its printed value."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from pipeline import fixtures
from pipeline.emit.schema import validate_record
from pipeline.store import read_jsonl

SID = "local:demo"
GB = "GenBench"
CORE = f"{GB} Human Core Promoter Detection"
SPLICE = f"{GB} Long-range splice site prediction"
MOUSE = f"{GB} Mouse Transcription Factor Prediction, dataset"

# The truth a catalogue editor would write for each row label of the demo tables: dataset name and metric.
ROWS: dict[str, dict[str, tuple[str, str]]] = {
    "Table 1": {
        "Splice acceptor": (f"{SPLICE} (Splice acceptor)", "auroc"),
        "Splice donor": (f"{SPLICE} (Splice donar)", "auroc"),
        "Average": (f"{SPLICE} (Mean)", "auroc"),
    },
    "Table 2": {
        "notata": (f"{CORE}, dataset notata", "accuracy"),
        "tata": (f"{CORE}, dataset tata", "accuracy"),
        "all": (f"{CORE}, dataset all", "accuracy"),
        "Mean": (CORE, "accuracy"),
    },
    "Table 3": {
        "Long-range Promoters Prediction": (f"{GB} Long-range Promoters Prediction", "accuracy"),
        "Long-range Species Classification": (f"{GB} Long-range Species Classification", "accuracy"),
    },
    "Table 4": {
        "H1-ESC": (f"{GB} Genomic structure prediction (H1-ESC)", "pearson"),
        "HFF": (f"{GB} Genomic structure prediction (HFF)", "pearson"),
    },
    "Table 6": {
        "Human Enhancers Cohn": (f"{GB} Human Enhancers Cohn", "accuracy"),  # "Top-1" as printed
        "Coding vs Intergenomic": (f"{GB} Coding vs Intergenomic", "accuracy"),
        "Human vs Worm": (f"{GB} Human vs Worm", "accuracy"),
    },
    "Table 7": {f"dataset {i}": (f"{MOUSE} {i}", "accuracy") for i in range(5)},
}
BULK_METRICS = {"MSE": "mse", "Spearman": "spearman"}  # Table 5 has models in rows, metrics in columns


def expected_cells(truth) -> Counter:
    """(table, printed value, dataset, configuration, metric) for every numeric cell of the truth grids."""
    expected: Counter = Counter()
    for table in truth.tables:
        header = table.cells[0]
        for row in table.cells[table.header_rows :]:
            for col, text in enumerate(row):
                if col < table.stub_cols or not text:
                    continue
                if table.label == "Table 5":
                    key = (f"{GB} Bulk RNA expression", f"{row[0]} ({GB})", BULK_METRICS[header[col]])
                else:
                    dataset, metric = ROWS[table.label][row[0]]
                    key = (dataset, f"{header[col]} ({GB})", metric)
                expected[(table.label, text, *key)] += 1
    return expected


def test_demo_paper_end_to_end(invoke, workspace, tmp_path: Path) -> None:
    pdf = fixtures.write_demo_paper(tmp_path / "demo.pdf")
    for args in (("fetch", "--file", str(pdf), "--id", SID), ("extract", SID), ("map", SID), ("emit", SID)):
        result = invoke(*args)
        assert result.exit_code == 0, (args, result.output)
    records = read_jsonl(workspace.extracted_dir(SID) / "records.jsonl")
    for record in records:
        validate_record(record)
    found = Counter((r["table_label"], r["printed"], r["dataset"], r["configuration"], r["metric"]) for r in records)
    expected = expected_cells(fixtures.demo_truth())
    assert sum(expected.values()) == 103
    assert found == expected
    out_of_range = next(r for r in records if r["printed"] == "1.07")
    assert out_of_range["catalogue_value"] == 1.07 and out_of_range["rescale"] is None
    cohn = next(r for r in records if r["dataset"] == f"{GB} Human Enhancers Cohn")
    assert cohn["mapping"]["metric_printed"] == "top-1" and cohn["mapping"]["metric_standard"] is False
    assert "not a standard metric name; recorded as Accuracy." in cohn["limitations"][0]
    mean = next(r for r in records if r["table_label"] == "Table 2" and r["dataset"] == CORE)
    assert mean["aggregation"] == "mean of the Human Core Promoter Detection dataset rows as printed in Table 2"
