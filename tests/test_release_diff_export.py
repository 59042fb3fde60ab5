"""litaudit diff and export: what changed between two releases, and the catalogue as queryable tables."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pandas as pd
import pytest
from conftest import json_out

from pipeline.release.sample import SamplePaper, add_paper, write_catalogue
from pipeline.store import Workspace, read_jsonl, write_jsonl

SID = "arxiv:2401.00001"


@pytest.fixture
def records(workspace: Workspace) -> list:
    write_catalogue(workspace)
    add_paper(workspace, SamplePaper("arxiv:2401.00002", seed=2, n_models=2))
    return add_paper(workspace, SamplePaper(SID, seed=1))


def freeze(invoke, date: str) -> Path:
    result = invoke("freeze", "--date", date, "--json")
    assert result.exit_code == 0, result.stderr
    return Path(json_out(result)["path"])


def test_diff_lists_added_removed_and_changed_records(invoke, workspace, records) -> None:
    a = freeze(invoke, "2025-03-01")
    ids = [r.id for r in records]
    invoke("review", SID, ids[0], "--accept", "--reviewer", "ann")
    invoke("review", SID, ids[1], "--correct", "0.5", "--reviewer", "ann")
    path = workspace.audits_dir(SID) / "records.jsonl"
    rows = read_jsonl(path)
    rows[2]["dataset"] = "Human Nontata Promoters"  # re-mapped
    removed = rows.pop(3)
    write_jsonl(path, rows)
    add_paper(workspace, SamplePaper("local:new", seed=7, n_datasets=1, n_models=1))
    b = freeze(invoke, "2025-03-02")

    result = invoke("diff", str(a), str(b), "--json")
    assert result.exit_code == 0, result.stderr
    out = json_out(result)
    assert out["a"] == a.name and out["b"] == b.name
    assert out["counts"] == {"added": 1, "removed": 1, "changed": 3}
    assert out["added"][0]["source_id"] == "local:new"
    assert out["removed"][0]["id"] == removed["id"]
    changed = {c["record_id"]: c["changes"] for c in out["changed"]}
    assert changed[ids[0]] == {"review": {"review_status": ["catalogued", "source checked"]}}
    assert changed[ids[1]] == {
        "value": {"corrected_value": [None, 0.5]},
        "review": {"review_status": ["catalogued", "corrected"]},
    }
    assert changed[ids[2]] == {"mapping": {"dataset": ["Human Enhancers Cohn", "Human Nontata Promoters"]}}

    text = invoke("diff", str(a), str(b)).stdout.splitlines()
    assert text[0] == f"{a.name} -> {b.name}: 1 added, 1 removed, 3 changed"
    assert any(line.startswith("+ local:new") for line in text)
    assert any(line.startswith(f"- {SID}  {removed['id']}") for line in text)
    assert f"~ {SID}  {ids[0]}  {records[0].locator_readable}: review_status 'catalogued' -> 'source checked'" in text


def test_diff_reads_archives_and_same_release_has_no_changes(invoke, records) -> None:
    a = freeze(invoke, "2025-03-01")
    result = invoke("diff", str(a), str(a.with_name(a.name + ".tar.gz")), "--json")
    assert result.exit_code == 0
    assert json_out(result)["counts"] == {"added": 0, "removed": 0, "changed": 0}


def test_export_csv_tables(invoke, workspace, records) -> None:
    invoke("review", SID, records[0].id, "--reject", "--reviewer", "ann")
    release = freeze(invoke, "2025-03-01")
    result = invoke("export", str(release), "--format", "csv", "--json")
    assert result.exit_code == 0, result.stderr
    out = json_out(result)
    folder = release.with_name(f"{release.name}-csv")
    assert out["files"] == [
        str(folder / f"{n}.csv") for n in ("results", "sources", "protocol_coverage", "evaluation_matrix")
    ]
    results = pd.read_csv(folder / "results.csv", dtype={"printed": str})
    assert len(results) == out["rows"]["results"] == 12 + 8
    first = results[results["record_id"] == records[0].id].iloc[0]
    assert first["review_status"] == "rejected" and first["printed"] == records[0].printed
    assert first["locator_readable"] == records[0].locator_readable and first["findings"] == 1
    sources = pd.read_csv(folder / "sources.csv")
    assert sorted(sources["source_id"]) == ["arxiv:2401.00001", "arxiv:2401.00002"]

    kept = results[results["review_status"] != "rejected"]  # the summaries leave rejected records out
    coverage = pd.read_csv(folder / "protocol_coverage.csv")
    enhancers = coverage[coverage["dataset"] == "Human Enhancers Cohn"].iloc[0]
    expected = kept[kept["dataset"] == "Human Enhancers Cohn"]
    assert enhancers["results"] == len(expected) == 4
    assert enhancers["sources"] == 2 and enhancers["configurations"] == expected["configuration"].nunique() == 3
    matrix = pd.read_csv(folder / "evaluation_matrix.csv")
    cell = matrix[(matrix["model"] == "Caduceus") & (matrix["protocol"] == "gb-classification")].iloc[0]
    assert cell["results"] == len(kept[(kept["model"] == "Caduceus") & (kept["protocol"] == "gb-classification")])
    assert cell["metrics"] == "mcc"
    assert invoke("verify", str(release)).exit_code == 0  # nothing was written inside the release


def test_export_duckdb_answers_the_cross_paper_question_in_one_query(invoke, workspace, records, tmp_path) -> None:
    duckdb = pytest.importorskip("duckdb")
    release = freeze(invoke, "2025-03-01")
    target = tmp_path / "catalogue.duckdb"
    archive = release.with_name(release.name + ".tar.gz")
    result = invoke("export", str(archive), "--format", "duckdb", "--output", str(target))
    assert result.exit_code == 0, result.stderr
    con = duckdb.connect(str(target), read_only=True)
    rows = con.execute(
        "SELECT source_id, printed, locator_readable FROM results "
        "WHERE model = 'Caduceus' AND dataset = 'Human Enhancers Cohn' ORDER BY source_id"
    ).fetchall()
    papers = {r.source_id: r for r in records if r.model == "Caduceus" and r.dataset == "Human Enhancers Cohn"}
    assert [r[0] for r in rows] == [SID, "arxiv:2401.00002"]
    assert rows[0] == (SID, papers[SID].printed, papers[SID].locator_readable)
    tables = {t for (t,) in con.execute("SELECT table_name FROM information_schema.tables").fetchall()}
    assert tables == {"results", "sources", "protocol_coverage", "evaluation_matrix"}
    con.close()


def test_export_parquet_round_trips(invoke, records) -> None:
    pytest.importorskip("pyarrow")
    release = freeze(invoke, "2025-03-01")
    assert invoke("export", str(release), "--format", "parquet").exit_code == 0
    results = pd.read_parquet(release.with_name(f"{release.name}-parquet") / "results.parquet")
    assert len(results) == 20 and results["value"].dtype == "float64"


def test_missing_extra_is_a_one_line_exit_2(invoke, records, monkeypatch) -> None:
    release = freeze(invoke, "2025-03-01")
    monkeypatch.setitem(sys.modules, "duckdb", None)  # what an install without litaudit[export] looks like
    result = invoke("export", str(release), "--format", "duckdb")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "litaudit: error: export --format duckdb needs duckdb, which is not installed: pip install 'litaudit[export]'"
    ]


@pytest.mark.parametrize(("fmt", "kind"), [("csv", "file"), ("duckdb", "folder")])
def test_export_to_the_wrong_kind_of_path_is_exit_2(invoke, records, tmp_path, fmt: str, kind: str) -> None:
    release = freeze(invoke, "2025-03-01")
    out = tmp_path / "out"
    if kind == "folder":
        out.mkdir()
    else:
        out.write_text("keep me")
    result = invoke("export", str(release), "--format", fmt, "--output", str(out))
    assert result.exit_code == 2 and result.stderr.startswith(f"litaudit: error: {out}: ")
    assert len(result.stderr.splitlines()) == 1
    assert list(out.iterdir()) == [] if kind == "folder" else out.read_text() == "keep me"


def test_diff_of_a_non_release_is_exit_2(invoke, records, tmp_path) -> None:
    release = freeze(invoke, "2025-03-01")
    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / "release.json").write_text(json.dumps({"id": "x"}))
    result = invoke("diff", str(release), str(tmp_path / "junk"))
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1
