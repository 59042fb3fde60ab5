"""``litaudit probe run`` end to end, on generated data in a temporary workspace (reproduce: test_probe_reproduce)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import SHARED, Invoke, json_out, needs_shared

from pipeline.probe.synthetic import planted_motif, write_sequences
from pipeline.store import Workspace

PROJECT_CONFIG = Path(__file__).resolve().parents[1] / "config"
PROTOCOL = """
name: tiny-probe
description: A small protocol for tests.
seeds: [7]
probe: {scaler: true, c_grid: [0.1, 1.0, 10.0], cv_folds: 3, max_iter: 500}
metrics: [accuracy, macro_f1]
bootstrap: {resamples: 200, confidence: 0.95}
holdout: {train_fraction: 0.4, seed: 7}
variants:
  default: {train_size: 120}
  n50: {train_size: 120, test_size: 50}
datasets:
  motif: {path: motif.csv.gz, min_length: 80, max_length: 80, labels: [0, 1], overlap: generated sequences}
  motif_tsv: {path: motif.tsv}
catalogue:
  "Motif benchmark": [motif, motif_tsv]
  "Motif benchmark, dataset csv": [motif]
"""


@pytest.fixture
def data_root(workspace: Workspace, tmp_path: Path) -> Path:
    (workspace.config_dir / "protocols").mkdir(parents=True)
    (workspace.config_dir / "protocols" / "tiny-probe.yaml").write_text(PROTOCOL)
    root = tmp_path / "data"
    root.mkdir()
    sequences, labels = planted_motif(400, length=80, seed=5)
    splits = ["train" if i < 250 else "test" for i in range(400)]
    write_sequences(root / "motif.csv.gz", sequences, labels, splits)
    sequences, labels = planted_motif(300, length=80, seed=6)
    write_sequences(root / "motif.tsv", sequences, labels)
    return root


def test_run_reports_each_dataset_with_intervals_and_provenance(invoke: Invoke, data_root: Path) -> None:
    result = invoke(
        "probe", "run", "--protocol", "tiny-probe", "--model", "kmer:4", "--data-root", str(data_root), "--json"
    )
    assert result.exit_code == 0, result.stderr
    out = json_out(result)
    motif, tsv = out["datasets"]
    assert motif["n_test"] == 150 and motif["split"]["kind"] == "file"
    assert tsv["split"]["kind"] == "holdout" and tsv["split"]["train_fraction"] == 0.4 and tsv["n_test"] == 180
    for dataset in out["datasets"]:
        accuracy = dataset["metrics"]["accuracy"]
        assert accuracy["value"] > 0.8 and accuracy["interval"][0] <= accuracy["value"] <= accuracy["interval"][1]
        assert dataset["train_subsets"][0]["n"] == 120 and dataset["train_subsets"][0]["id"].startswith("sub-")
        assert dataset["test_subset"]["disjoint_by"] == "sequence" and len(dataset["embedding_hash"]) == 64
        assert dataset["fits"][0]["seed"] == 7 and dataset["fits"][0]["C"] in (0.1, 1.0, 10.0)
    aggregate = out["aggregate"]["accuracy"]
    means = (motif["metrics"]["accuracy"]["value"] + tsv["metrics"]["accuracy"]["value"]) / 2
    assert aggregate["value"] == pytest.approx(means) and aggregate["n_datasets"] == 2
    assert out["model"]["id"] == "kmer:4" and len(out["model"]["revision"]) == 64
    assert out["protocol"]["probe"]["scaler"] == "StandardScaler" and out["protocol"]["seeds"] == [7]
    assert out["versions"]["scikit-learn"] and out["versions"]["numpy"]
    assert out["timing"]["sequences_embedded"] > 0

    again = json_out(
        invoke("probe", "run", "--protocol", "tiny-probe", "--model", "kmer:4", "--data-root", str(data_root), "--json")
    )
    assert again["datasets"][0]["test_subset"]["id"] == motif["test_subset"]["id"]
    assert again["datasets"][0]["embedding_hash"] == motif["embedding_hash"]
    assert again["aggregate"] == out["aggregate"]


def test_run_on_given_files_with_the_null_control_and_a_variant(
    invoke: Invoke, data_root: Path, tmp_path: Path
) -> None:
    out_file = tmp_path / "result.json"
    result = invoke(
        "probe",
        "run",
        "--protocol",
        "tiny-probe",
        "--model",
        "null:32",
        "--variant",
        "n50",
        "--data",
        str(data_root / "motif.csv.gz"),
        "--out",
        str(out_file),
    )
    assert result.exit_code == 0, result.stderr
    assert "motif" in result.stdout and "mean of 1 datasets" in result.stdout
    dataset = json.loads(out_file.read_text())["datasets"][0]
    assert dataset["n_test"] == 50 and dataset["test_subset"]["per_label"] == {"0": 25, "1": 25}
    low, high = dataset["metrics"]["accuracy"]["interval"]
    assert low <= 0.5 <= high


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--protocol", "nope", "--model", "kmer:3"), "protocol 'nope'"),
        (("--protocol", "tiny-probe", "--model", "kmer:99"), "whole number from 1 to 8"),
        (("--protocol", "tiny-probe", "--model", "kmer:3", "--variant", "n7"), "no variant 'n7'"),
        (("--protocol", "tiny-probe", "--model", "kmer:3", "--dataset", "zzz"), "no dataset zzz"),
    ],
)
def test_run_bad_usage_exits_2_with_one_line(
    invoke: Invoke, data_root: Path, args: tuple[str, ...], message: str
) -> None:
    result = invoke("probe", "run", *args, "--data-root", str(data_root))
    assert result.exit_code == 2 and message in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_run_with_an_unwritable_out_file_exits_2_with_one_line(invoke: Invoke, data_root: Path, tmp_path: Path) -> None:
    (tmp_path / "taken").write_text("a file, not a folder")
    out = tmp_path / "taken" / "result.json"
    args = ("--protocol", "tiny-probe", "--model", "kmer:2", "--variant", "n50", "--data-root", str(data_root))
    result = invoke("probe", "run", *args, "--data", str(data_root / "motif.csv.gz"), "--out", str(out))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"litaudit: error: {out}: cannot write the result")
    assert len(result.stderr.splitlines()) == 1


def test_run_reports_a_bad_row_with_its_line(invoke: Invoke, data_root: Path) -> None:
    bad = data_root / "bad.tsv"
    bad.write_text("seq\tlabel\nACGT\t0\nACGU\t1\n")
    result = invoke("probe", "run", "--protocol", "tiny-probe", "--model", "kmer:2", "--data", str(bad), "--json")
    assert result.exit_code == 2
    assert f"{bad}:3: characters 'U' outside ACGTN" in json_out(result)["error"]


@needs_shared
def test_kmer_beats_the_null_control_on_real_data(invoke: Invoke, workspace: Workspace) -> None:
    name = "genomic-benchmarks-probe.yaml"
    (workspace.config_dir / "protocols").mkdir(parents=True)
    (workspace.config_dir / "protocols" / name).write_text((PROJECT_CONFIG / "protocols" / name).read_text())
    args = (
        "probe",
        "run",
        "--protocol",
        "genomic-benchmarks-probe",
        "--variant",
        "n100",
        "--dataset",
        "gue_mouse_3",
        "--data-root",
        str(SHARED / "dna"),
        "--json",
    )
    kmer = json_out(invoke(*args, "--model", "kmer:4"))["datasets"][0]["metrics"]["accuracy"]
    null = json_out(invoke(*args, "--model", "null"))["datasets"][0]["metrics"]["accuracy"]
    assert null["interval"][0] <= 0.5 <= null["interval"][1]
    assert kmer["interval"][0] > null["value"]
