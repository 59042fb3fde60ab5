"""The protocol files: the project's two load and say what the issue and GENEB's spec say; bad ones fail clearly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import SHARED, needs_shared

from pipeline.errors import ConfigError
from pipeline.probe.protocols import get_protocol, load_protocol, load_protocols

PROJECT_CONFIG = Path(__file__).resolve().parents[1] / "config"
MINIMAL = "name: bad\nseeds: [1]\nmetrics: [accuracy]\nvariants: {a: {}}\ndatasets: {d: {path: x}}\n"


def test_project_protocols_load_with_the_issues_settings() -> None:
    protocols = load_protocols(PROJECT_CONFIG)
    gb = protocols["genomic-benchmarks-probe"]
    assert gb.seeds == (20261006,) and gb.variant(None).train_size == 500 and gb.variant("n100").test_size == 100
    assert gb.probe.scaler and gb.probe.cv_folds == 5 and gb.probe.cv_scoring == "log_loss" and gb.probe.c_grid
    assert gb.metrics == ("accuracy", "macro_f1") and gb.resamples == 1000 and gb.confidence == 0.95
    assert gb.drop_train_identical_to_test
    assert gb.datasets_for("GenBench  human enhancers cohn") == ("gb_human_enhancers_cohn",)
    assert len(gb.datasets_for("GenBench Human Transcription Factor Prediction") or ()) == 5
    assert len([d for d in gb.datasets.values() if d.path.startswith("gue/")]) == 13


@needs_shared
def test_geneb_protocol_matches_genebs_spec_and_every_data_path_exists() -> None:
    spec = json.loads((SHARED / "dna" / "geneb" / "benchmark_spec.json").read_text())
    geneb = load_protocols(PROJECT_CONFIG)["geneb-probe"]
    assert list(geneb.seeds) == spec["protocol"]["seeds"]
    assert geneb.probe.max_iter == spec["protocol"]["logreg"]["max_iter"] and not geneb.probe.scaler
    assert sorted(geneb.variants) == sorted(spec["regimes"])
    assert {geneb.variant(f"{k}shot").train_per_label for k in spec["protocol"]["few_shot_k"]} == {1, 10}
    assert geneb.primary_metric == "mcc" == spec["primary_metric"].lower()
    task_ids = {t["id"] for t in spec["tasks"]}
    assert set(geneb.datasets) <= task_ids
    for protocol in load_protocols(PROJECT_CONFIG).values():
        for entry in protocol.datasets.values():
            assert (SHARED / "dna" / entry.path).is_file(), entry.path


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("name: bad\nseeds: [1]\n", "top level: 'probe' is a required property"),
        (MINIMAL + "probe: {sclaer: true}", "probe: Additional properties are not allowed ('sclaer' was unexpected)"),
        (MINIMAL.replace("[accuracy]", "[auroc]") + "probe: {}", "metrics/0: 'auroc' is not one of"),
        (MINIMAL.replace("name: bad", "name: other") + "probe: {}", "must match the file name"),
        (MINIMAL + "probe: {c: -1}", "C values must be positive"),
        (MINIMAL + "probe: {}\ncatalogue: {'Some name': [e]}", "names unknown datasets e"),
        (MINIMAL.replace("a: {}", "a: {train_size: 5, train_per_label: 1}") + "probe: {}", "not both"),
        ("name: bad\nseeds: [1\n", "not valid YAML (line 3"),
    ],
)
def test_bad_protocol_files_fail_with_the_file_and_the_problem(tmp_path: Path, text: str, expected: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError) as info:
        load_protocol(path)
    assert str(info.value).startswith(str(path)) and expected in str(info.value)


def test_unknown_protocol_lists_the_known_ones(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="protocols found: geneb-probe, genomic-benchmarks-probe"):
        get_protocol(PROJECT_CONFIG, "nope")
    with pytest.raises(ConfigError, match="protocols found: geneb-probe, genomic-benchmarks-probe"):
        get_protocol(tmp_path, "nope")  # a workspace without protocols/ uses those shipped with litaudit
    (tmp_path / "protocols").mkdir()
    with pytest.raises(ConfigError, match="protocols found: none"):
        get_protocol(tmp_path, "nope")  # its own (empty) protocols/ wins
