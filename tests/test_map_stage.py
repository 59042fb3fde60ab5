"""`litaudit map` on a workspace: mapping.json, exit codes, pins from config/overrides.yaml, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import json_out
from stage_doubles import mark_written

from pipeline.catalogue import load_catalogue
from pipeline.catalogue.load import BUNDLED_DIR
from pipeline.errors import ConfigError
from pipeline.mapping.overrides import load_overrides
from pipeline.model import Source, Table, TablesFile
from pipeline.shipped import SHIPPED_CONFIG
from pipeline.store import Workspace, write_json

SID = "local:paper"
SHA = "cd" * 32
REPO_OVERRIDES = Path(__file__).resolve().parents[1] / "config" / "overrides.yaml"

RESULTS = [
    ["Dataset", "NT", "Caduceus", "MyNewModel"],
    ["Human Core Promoter Detection notata", "0.70", "0.72", "0.74"],
    ["Human Core Promoter Detection tata", "0.78", "0.80", "0.81"],
]
SETTINGS_TABLE = [["Setting", "Value"], ["Learning rate", "0.001"], ["Epochs", "10"]]


def tables_file(*tables: Table) -> TablesFile:
    return TablesFile({"id": SID, "sha256": SHA}, {"version": "test"}, list(tables))


def add_source(ws: Workspace, tables: TablesFile) -> None:
    source = Source(SID, SHA, 1, "sources/local_paper/source.pdf", "2026-01-01T00:00:00Z")
    write_json(ws.source_record_path(SID), source.to_dict())
    write_json(ws.extracted_dir(SID) / "tables.json", tables.to_dict())
    mark_written(ws, SID, "fetch", "extract")


def results_table(**kw) -> Table:
    return Table.from_grid(RESULTS, 1, 1, label="Table 2", caption="Accuracy on GenBench.", **kw)


def mapping_json(ws: Workspace) -> dict:
    return json.loads((ws.extracted_dir(SID) / "mapping.json").read_text())


def test_map_writes_mapping_and_exits_1_for_unmapped_cells(invoke, workspace) -> None:
    add_source(workspace, tables_file(results_table()))
    result = invoke("map", SID, "--json")
    assert result.exit_code == 1, result.output
    payload = json_out(result)
    summary = payload["results"][0]["summary"]
    assert summary["cells_mapped"] == 4 and summary["cells_unmapped"] == 2
    assert payload["results"][0]["problems"] == 2
    mapping = mapping_json(workspace)
    assert mapping["catalogue"]["dir"] == "shipped with litaudit"
    assert mapping["tables"][0]["unmapped"][0]["locator_readable"] == (
        "Table 2, row 'Human Core Promoter Detection notata', column 'MyNewModel'"
    )


def test_rerun_is_skipped_and_forced_rerun_is_byte_identical(invoke, workspace) -> None:
    add_source(workspace, tables_file(results_table()))
    invoke("map", SID)
    path = workspace.extracted_dir(SID) / "mapping.json"
    first = path.read_bytes()
    again = invoke("map", SID, "--json")
    assert json_out(again)["results"][0]["status"] == "skipped"
    forced = invoke("map", SID, "--force")
    assert forced.exit_code == 1
    assert path.read_bytes() == first


def test_an_edited_model_registry_makes_the_map_redo(invoke, workspace) -> None:
    """Models of config/models.yaml are configurations the map links to: a changed registry is a changed input."""
    add_source(workspace, tables_file(results_table()))
    assert invoke("map", SID).exit_code in (0, 1)
    assert json_out(invoke("map", SID, "--json"))["results"][0]["status"] == "skipped"
    shipped = SHIPPED_CONFIG / "models.yaml"
    (workspace.config_dir / "models.yaml").write_text(shipped.read_text(encoding="utf-8") + "\n# edited\n")
    assert json_out(invoke("map", SID, "--json"))["results"][0]["status"] != "skipped"


def test_pins_win_and_are_reported_as_manual(invoke, workspace) -> None:
    add_source(workspace, tables_file(results_table(), Table.from_grid(SETTINGS_TABLE, 1, 1, label="Table 1", index=1)))
    (workspace.config_dir / "overrides.yaml").write_text(
        f"""
sources:
  "{SID}":
    tables:
      "Table 2":
        configurations:
          MyNewModel: genbench-caduceus
        datasets:
          "human core promoter detection TATA": genbench-human-core-promoter-detection-dataset-all
      "Table 1":
        ignore: true
      "Table 9":
        metric: mcc
    cells:
      "{SHA[:12]}:p1:Table2:r1:c1":
        metric: f1
""",
        encoding="utf-8",
    )
    result = invoke("map", SID, "--json")
    assert result.exit_code == 0, result.output
    mapping = mapping_json(workspace)
    table1, table2 = sorted(mapping["tables"], key=lambda t: t["label"])
    assert table1["status"] == "ignored" and table1["cells"] == []
    cells = {(c["row"], c["col"]): c for c in table2["cells"]}
    pinned = cells[(1, 3)]["configuration"]
    assert (pinned["id"], pinned["method"], pinned["manual"]) == ("genbench-caduceus", "manual", True)
    assert cells[(2, 1)]["dataset"]["id"] == "genbench-human-core-promoter-detection-dataset-all"
    assert cells[(1, 1)]["metric"]["id"] == "f1" and cells[(1, 1)]["metric"]["manual"]
    assert cells[(1, 2)]["metric"]["id"] == "accuracy" and not cells[(1, 2)]["metric"]["manual"]
    assert mapping["overrides"]["unused"] == ["table 'Table 9'"]
    assert mapping["summary"]["links_manual"] == 2 + 3 + 1  # a column, a row of three cells, a cell


def test_pin_to_an_unknown_id_names_the_file(invoke, workspace) -> None:
    add_source(workspace, tables_file(results_table()))
    path = workspace.config_dir / "overrides.yaml"
    path.write_text(f'sources:\n  "{SID}":\n    tables:\n      "Table 2": {{metric: nope}}\n', encoding="utf-8")
    result = invoke("map", SID, "--json")
    assert result.exit_code == 2
    message = json_out(result)["results"][0]["message"]
    assert message == f"{path}: sources/{SID}/tables/Table 2: unknown metric 'nope'"
    assert not (workspace.extracted_dir(SID) / "mapping.json").exists()


def test_bad_tables_json_is_exit_2_and_keeps_the_old_mapping(invoke, workspace) -> None:
    add_source(workspace, tables_file(results_table()))
    invoke("map", SID)
    before = (workspace.extracted_dir(SID) / "mapping.json").read_bytes()
    (workspace.extracted_dir(SID) / "tables.json").write_text('{"tables": [{"index": 0}]}', encoding="utf-8")
    refused = invoke("map", SID, "--json")  # edited by hand: not extract's work, so map does not read it
    assert refused.exit_code == 2
    assert json_out(refused)["results"][0]["message"].startswith(
        "extract is modified (extracted/local_paper/tables.json): changed since extract wrote it"
    )
    mark_written(workspace, SID, "extract")  # as if the extractor itself had written the bad file
    result = invoke("map", SID, "--json")
    assert result.exit_code == 2
    assert "tables.json: not a tables file" in json_out(result)["results"][0]["message"]
    assert "Traceback" not in result.output
    assert (workspace.extracted_dir(SID) / "mapping.json").read_bytes() == before


def test_catalogue_with_problems_stops_the_map(invoke, workspace) -> None:
    add_source(workspace, tables_file(results_table()))
    folder = workspace.config_dir / "catalogue"
    folder.mkdir()
    (folder / "m.yaml").write_text("metrics: [{id: m, name: M, unit: parsec, direction: up, range: [0, 1]}]\n")
    result = invoke("map", SID, "--json")
    assert result.exit_code == 2
    assert "2 catalogue problem(s), first:" in json_out(result)["results"][0]["message"]


def test_map_before_extract_says_what_to_run(invoke, workspace) -> None:
    source = Source(SID, SHA, 1, "sources/local_paper/source.pdf", "2026-01-01T00:00:00Z")
    write_json(workspace.source_record_path(SID), source.to_dict())
    mark_written(workspace, SID, "fetch")
    result = invoke("map", SID, "--json")
    assert result.exit_code == 2
    message = json_out(result)["results"][0]["message"]
    assert message == "extract is missing: has not run; run 'litaudit run local:paper' first"


def test_shipped_overrides_file_is_an_empty_commented_example(tmp_path: Path) -> None:
    catalogue = load_catalogue(BUNDLED_DIR)
    assert load_overrides(REPO_OVERRIDES, catalogue, "arxiv:2406.01627").tables == {}
    lines = REPO_OVERRIDES.read_text(encoding="utf-8").splitlines()
    example = tmp_path / "overrides.yaml"
    example.write_text("\n".join(line[2:] for line in lines[lines.index("# sources:") :]), encoding="utf-8")
    pins = load_overrides(example, catalogue, "arxiv:2406.01627")
    assert pins.tables["Table 1"].ignore and pins.tables["Table 8"].metric == "mse"
    assert pins.tables["Table 8"].configurations == {"NT-2.5B": "genbench-nucleotide-transformer"}


def test_malformed_overrides_is_a_config_error(tmp_path: Path) -> None:
    path = tmp_path / "overrides.yaml"
    path.write_text("sources:\n  x:\n    tabels: {}\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"overrides.yaml: sources/x: Additional properties are not allowed"):
        load_overrides(path, load_catalogue(BUNDLED_DIR), "x")
