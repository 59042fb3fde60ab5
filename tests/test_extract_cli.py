"""``litaudit tables`` on bare PDFs and the extract stage over fetched sources."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import Invoke, json_out
from papers import FEATURE_PAPERS

from pipeline.errors import ConfigError
from pipeline.extract.settings import ExtractionSettings
from pipeline.fixtures import render_paper
from pipeline.model import Source, TablesFile
from pipeline.store import Workspace, sha256_file, write_json


@pytest.fixture(scope="module")
def papers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("papers")
    out = {}
    for name in ("booktabs", "captions"):
        out[name] = folder / f"{name}.pdf"
        render_paper(FEATURE_PAPERS[name], out[name])
    return out


def test_tables_writes_one_json_per_pdf(invoke: Invoke, papers: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = invoke("tables", "--json", "--out", str(out), str(papers["booktabs"]), str(papers["captions"]))
    assert result.exit_code == 0, result.stderr
    payload = json_out(result)
    assert payload["ok"] is True
    assert sorted(f["tables"] for f in payload["files"]) == [1, 4]
    data = TablesFile.from_dict(json.loads((out / "captions.json").read_text()))
    assert [t.label for t in data.tables] == ["Table 3", "Table 4", "Table S1", "Supplementary Table 2"]
    assert data.source["id"] == "file:captions"
    assert data.source["sha256"] == sha256_file(papers["captions"])
    assert data.extractor["settings"] == ExtractionSettings().to_dict()
    cell = data.tables[0].cells[-1]
    assert cell.locator is not None and cell.locator.readable.startswith("Table 3, row '")


def test_a_broken_pdf_fails_alone_with_one_line(invoke: Invoke, papers: dict[str, Path], tmp_path: Path) -> None:
    bad = tmp_path / "broken.pdf"
    bad.write_bytes(b"%PDF-1.4\nthis is not a pdf at all")
    out = tmp_path / "out"
    result = invoke("tables", "--out", str(out), str(bad), str(papers["booktabs"]))
    assert result.exit_code == 2
    errors = [line for line in result.stderr.splitlines() if "broken.pdf" in line]
    assert len(errors) == 1 and "Traceback" not in result.stderr
    assert (out / "booktabs.json").is_file()
    assert not (out / "broken.json").exists()
    assert not [p for p in out.iterdir() if p.name.startswith(".")]  # no temporary file left behind


def test_reruns_are_byte_identical(invoke: Invoke, papers: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert invoke("tables", "--out", str(out), str(papers["booktabs"])).exit_code == 0
    first = (out / "booktabs.json").read_bytes()
    assert invoke("tables", "--jobs", "2", "--out", str(out), str(papers["booktabs"])).exit_code == 0
    assert (out / "booktabs.json").read_bytes() == first


def test_missing_file_is_bad_input(invoke: Invoke, tmp_path: Path) -> None:
    result = invoke("tables", "--out", str(tmp_path), str(tmp_path / "nope.pdf"))
    assert result.exit_code == 2
    assert "nope.pdf" in result.stderr


def _store_source(ws: Workspace, sid: str, pdf: Path) -> None:
    folder = ws.source_dir(sid)
    folder.mkdir(parents=True)
    (folder / "source.pdf").write_bytes(pdf.read_bytes())
    source = Source(
        sid, sha256_file(pdf), pdf.stat().st_size, f"sources/{folder.name}/source.pdf", "2026-01-01T00:00:00Z"
    )
    write_json(folder / "source.json", source.to_dict())


def test_extract_stage_writes_tables_json(invoke: Invoke, workspace: Workspace, papers: dict[str, Path]) -> None:
    _store_source(workspace, "local:captions", papers["captions"])
    result = invoke("extract", "--json", "local:captions")
    assert result.exit_code == 0, result.stderr
    data = TablesFile.from_dict(json.loads((workspace.extracted_dir("local:captions") / "tables.json").read_text()))
    assert data.source["id"] == "local:captions"
    assert len(data.tables) == 4
    assert all(t.engine and 0 < t.confidence <= 1 for t in data.tables)
    status = json_out(invoke("status", "--json"))
    assert status["sources"][0]["stages"]["extract"] == "done"


def test_extraction_settings_are_validated() -> None:
    with pytest.raises(ConfigError):
        ExtractionSettings(cell_gap=0)
    with pytest.raises(ConfigError):
        ExtractionSettings.from_dict({"no_such_knob": 1})


def test_extract_stage_reports_a_broken_pdf_and_goes_on(
    invoke: Invoke, workspace: Workspace, papers: dict[str, Path], tmp_path: Path
) -> None:
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4\n1 0 obj <<>> endobj\ntruncated")
    _store_source(workspace, "local:broken", broken)
    _store_source(workspace, "local:booktabs", papers["booktabs"])
    result = invoke("extract", "--json")
    assert result.exit_code == 2
    by_id = {r["source_id"]: r for r in json_out(result)["results"]}
    assert by_id["local:broken"]["status"] == "failed"
    assert "source.pdf" in by_id["local:broken"]["message"]
    assert by_id["local:booktabs"]["status"] == "done"
    assert not (workspace.extracted_dir("local:broken") / "tables.json").exists()
    assert (workspace.extracted_dir("local:booktabs") / "tables.json").is_file()
