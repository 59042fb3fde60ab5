"""The shipped catalogue and its checks: real names, units, directions, ranges and references."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from conftest import SHARED, json_out, needs_shared

from pipeline.catalogue import check_catalogue, load_catalogue, normalize_label
from pipeline.catalogue.load import BUNDLED_DIR
from pipeline.errors import ConfigError

GENERATOR_GOLD = SHARED / "corpus/gold/biorxiv_2026.01.27.702015_generator_v2_functional_icl_genomic_lm__Table2.json"


@pytest.fixture(scope="module")
def shipped():
    return load_catalogue(BUNDLED_DIR)


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def read_tsv(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(path.read_text(encoding="utf-8").splitlines(), delimiter="\t"))


def test_shipped_catalogue_has_no_problems(shipped) -> None:
    assert check_catalogue(shipped) == []
    assert {b.id for b in shipped.benchmarks} == {"genbench", "genomic-benchmarks", "gue", "nt-revised", "geneb"}


def test_find_metric_ignores_case_and_punctuation(shipped) -> None:
    assert shipped.find_metric("MCC").id == "mcc"
    assert shipped.find_metric("acc.").id == "accuracy"
    assert shipped.find_metric("Spearman ρ").id == "spearman"
    assert shipped.find_metric("top-1").id == "top-1"
    assert shipped.find_metric("AUC-ROC").id == "auroc"
    assert shipped.find_metric("Bulk RNA expression") is None
    assert normalize_label("  Top-1 (%) ") == "top 1"


def test_metric_facts(shipped) -> None:
    assert shipped.metric("top-1").standard is False
    assert shipped.metric("mse").direction == "lower"
    assert shipped.metric("mse").range == (0.0, None)
    assert shipped.metric("accuracy").unit == "fraction"
    assert shipped.metric("mcc").range == (-1.0, 1.0)
    assert {m.unit for m in shipped.metrics} <= {"fraction", "unitless", "percent"}
    assert {m.direction for m in shipped.metrics} == {"higher", "lower"}


def test_gue_has_28_datasets_in_7_tasks_with_mcc_and_covid_f1(shipped) -> None:
    gue = shipped.datasets_of("gue")
    assert len(gue) == 28
    assert len({d.task for d in gue}) == 7
    covid = [d for d in gue if d.part == "covid"]
    assert [d.metrics for d in covid] == [("f1",)]
    assert all(d.metrics == ("mcc",) for d in gue if d.part != "covid")


def test_genomic_benchmarks_datasets_by_package_id(shipped) -> None:
    names = {d.name for d in shipped.datasets_of("genomic-benchmarks")}
    for ident in (
        "human_enhancers_cohn",
        "human_enhancers_ensembl",
        "human_nontata_promoters",
        "human_ocr_ensembl",
        "demo_coding_vs_intergenomic_seqs",
        "demo_human_or_worm",
        "dummy_mouse_enhancers_ensembl",
        "drosophila_enhancers_stark",
    ):
        assert f"Genomic Benchmarks {ident}" in names
    cohn = shipped.dataset("gb-human-enhancers-cohn")
    assert "Human Enhancers Cohn" in cohn.aliases


def test_genbench_lookups_by_exact_name(shipped) -> None:
    notata = shipped.dataset_by_name("GenBench Human Core Promoter Detection, dataset notata")
    assert notata is not None and notata.part == "notata" and notata.metrics == ("accuracy",)
    bulk = shipped.dataset_by_name("GenBench Bulk RNA expression")
    assert bulk.metrics == ("mse", "spearman")
    coding = shipped.dataset_by_name("GenBench Coding vs Intergenomic")
    assert coding.also_published_in == ("Genomic Benchmarks demo_coding_vs_intergenomic_seqs",)
    caduceus = next(c for c in shipped.configurations if c.name == "Caduceus (GenBench)")
    assert caduceus.model == "Caduceus" and "Caduceus-PS" in caduceus.aliases
    assert "Human Core Promoter Detection notata" in shipped.dataset_forms(notata)


@needs_shared
def test_genbench_matches_the_shared_tsvs(shipped) -> None:
    rows = read_tsv(SHARED / "catalogue/genbench_datasets.tsv")
    for row in rows:
        dataset = shipped.dataset_by_name(row["dataset"])
        assert dataset is not None, row["dataset"]
        metric = shipped.find_metric(row["metric"])
        assert metric.id in dataset.metrics
        assert (metric.unit, metric.direction) == (row["unit"], row["direction"])
        if row["also_published_in"]:
            assert row["also_published_in"] in dataset.also_published_in
    assert len(shipped.datasets_of("genbench")) == len({r["dataset"] for r in rows})
    models = read_tsv(SHARED / "catalogue/genbench_models.tsv")
    configurations = {c.name: c for c in shipped.configurations}
    for row in models:
        config = configurations.get(row["configuration"])
        assert config is not None and config.model == row["model"]
        assert set(a.strip() for a in row["aliases_seen_in_print"].split(";")) <= set(config.aliases)


@needs_shared
def test_nt_revised_has_the_18_tasks_of_generator_table_2(shipped) -> None:
    gold = json.loads(GENERATOR_GOLD.read_text())
    tasks = [row[0] for row in gold["cells"][gold["header_rows"] :]]
    assert len(tasks) == 18
    assert sorted(d.task for d in shipped.datasets_of("nt-revised")) == sorted(tasks)
    assert sum(c.benchmark == "nt-revised" for c in shipped.configurations) == 10


@needs_shared
def test_geneb_categories_match_the_spec(shipped) -> None:
    spec = json.loads((SHARED / "dna/geneb/benchmark_spec.json").read_text())
    categories = [d.task for d in shipped.datasets_of("geneb") if d.part is None]  # Macro and Micro are means of them
    assert categories == spec["category_order"]


def test_check_reports_each_kind_of_problem(tmp_path: Path) -> None:
    folder = tmp_path / "catalogue"
    write(
        folder,
        "a.yaml",
        """
metrics:
- {id: acc, name: Accuracy, aliases: [Acc], unit: fraction, direction: higher, range: [0, 1]}
- {id: acc, name: Accuracy again, unit: furlong, direction: up, range: [1, 0]}
- {id: other, name: Other, aliases: [ACC.], unit: unitless, direction: lower, range: [0, null]}
benchmarks:
- {id: b, name: Bench, protocols: [p, missing]}
protocols:
- {id: p, name: P, benchmark: b}
datasets:
- {id: d1, name: Bench One, benchmark: b, protocol: p, task: One, metrics: [acc]}
- {id: d2, name: Bench Two, benchmark: nope, protocol: p, task: Two, metrics: [nope], aliases: [One]}
- {id: d3, name: Bench Three, benchmark: b, protocol: p, task: Three, metrics: [],
   also_published_in: [Bench Nine, DeepSTARR], range: [2, 1]}
configurations:
- {id: c1, name: X (Bench), model: X, benchmark: b}
- {id: c2, name: X (Bench), model: X, benchmark: zzz}
""",
    )
    problems = check_catalogue(load_catalogue(folder))
    text = "\n".join(problems)
    assert "metric id 'acc' is defined 2 times" in text
    assert "unknown unit 'furlong'" in text
    assert "unknown direction 'up'" in text
    assert "range [1.0, 0.0]: minimum above maximum" in text
    assert "range [2.0, 1.0]: minimum above maximum" in text
    assert "alias 'acc' names several metrics or quantities: acc, other" in text
    assert "benchmark 'b'" in text and "unknown protocol 'missing'" in text
    assert "dataset 'd2': unknown benchmark 'nope'" in text
    assert "dataset 'd2': unknown metric 'nope'" in text
    assert "dataset 'd3': lists no metric" in text
    assert "also_published_in 'Bench Nine' names no dataset of that benchmark" in text
    assert "DeepSTARR" not in text
    assert "configuration name 'X (Bench)' is defined 2 times" in text
    assert "configuration 'c2': unknown benchmark 'zzz'" in text
    assert f"{folder / 'a.yaml'}: metric 'acc': unknown unit 'furlong' (known: fraction, percent, unitless)" in problems


def test_alias_shared_by_two_datasets_of_one_benchmark_is_a_problem(tmp_path: Path) -> None:
    folder = tmp_path / "catalogue"
    write(
        folder,
        "a.yaml",
        """
metrics: [{id: acc, name: Accuracy, unit: fraction, direction: higher, range: [0, 1]}]
benchmarks: [{id: b, name: Bench, protocols: [p]}]
protocols: [{id: p, name: P, benchmark: b}]
datasets:
- {id: d1, name: Bench Promoters, benchmark: b, protocol: p, task: Promoters, metrics: [acc]}
- {id: d2, name: Bench Enhancers, benchmark: b, protocol: p, task: Enhancers, metrics: [acc], aliases: [PROMOTERS]}
""",
    )
    assert check_catalogue(load_catalogue(folder)) == [
        "benchmark 'b': label 'promoters' names several datasets: d1, d2"
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("metrics: [\n", "not valid YAML (line 2"),
        ("metrics:\n- {id: x, nam: X}\n", "metrics/0: Additional properties are not allowed ('nam' was unexpected)"),
        ("datasets: {id: x}\n", "datasets: {'id': 'x'} is not of type 'array'"),
        ("- just a list\n", "top level: ['just a list'] is not of type 'object'"),
    ],
)
def test_malformed_file_is_a_config_error_naming_it(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path / "catalogue", "broken.yaml", text)
    with pytest.raises(ConfigError) as caught:
        load_catalogue(tmp_path)
    assert str(caught.value).startswith(f"{path}: ")
    assert message in str(caught.value)


def test_workspace_without_catalogue_uses_the_shipped_one(tmp_path: Path) -> None:
    assert load_catalogue(tmp_path / "config").files == load_catalogue(BUNDLED_DIR).files


def test_empty_catalogue_folder_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "catalogue").mkdir()
    with pytest.raises(ConfigError, match="no catalogue files"):
        load_catalogue(tmp_path)


def test_cli_check_ok_problems_and_unreadable(invoke, workspace) -> None:
    result = invoke("catalogue", "check", "--json")
    assert result.exit_code == 0, result.output
    payload = json_out(result)
    assert payload["ok"] is True and payload["counts"]["datasets"] > 100 and payload["problems"] == []

    folder = workspace.config_dir / "catalogue"
    write(folder, "m.yaml", "metrics: [{id: m, name: M, unit: furlong, direction: higher, range: [0, 1]}]\n")
    result = invoke("catalogue", "check", "--json")
    assert result.exit_code == 1
    assert json_out(result)["problems"] == [
        f"{folder / 'm.yaml'}: metric 'm': unknown unit 'furlong' (known: fraction, percent, unitless)"
    ]

    write(folder, "m.yaml", "metrics: [\n")
    result = invoke("catalogue", "check")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"litaudit: error: {folder / 'm.yaml'}: not valid YAML")
    assert "Traceback" not in result.output


@pytest.mark.parametrize("name", ["empty", "missing"])
def test_cli_check_of_a_folder_without_catalogue_files_is_bad_input(invoke, tmp_path: Path, name: str) -> None:
    folder = tmp_path / name
    if name == "empty":
        folder.mkdir()
    result = invoke("catalogue", "check", "--dir", str(folder))
    assert result.exit_code == 2
    problem = "no catalogue files (*.yaml)" if name == "empty" else "not a folder"
    assert result.stderr == f"litaudit: error: {folder}: {problem}\n"
