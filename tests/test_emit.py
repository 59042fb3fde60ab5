"""`litaudit emit`: records.jsonl from tables.json + mapping.json, schema-checked, byte-stable, CSV export."""

from __future__ import annotations

import csv
import dataclasses
import json

import pytest
from conftest import json_out
from stage_doubles import mark_written

from pipeline.emit.export_csv import write_records_csv
from pipeline.emit.schema import SCHEMA_FILE, InvalidRecordError, validate_record
from pipeline.model import Record, Source, Table, TablesFile
from pipeline.store import Workspace, read_jsonl, write_json
from pipeline.yamlio import schema_validator

SID = "local:emit"
SHA = "ef" * 32

GRID = [
    ["Dataset", "NT", "Caduceus", "Unknown-LM"],
    ["Human Core Promoter Detection", None, None, None],
    ["notata", "0.702 (0.011)", "0.721 (0.009)", "0.700"],
    ["tata", "0.781 (0.020)", "0.795 (0.015)", "0.790"],
    ["Mean", "0.742 (0.012)", "0.758 (0.010)", "0.745"],
]
SPANS = ({"row": 1, "col": 0, "row_span": 1, "col_span": 4},)
CAPTION = "Table 2: Accuracy on Human Core Promoter Detection (GenBench), standard deviation in parentheses."


def setup_source(ws: Workspace, grid=GRID, caption=CAPTION, spans=SPANS) -> None:
    table = Table.from_grid(grid, 1, 1, label="Table 2", caption=caption, page=4, spans=spans)
    source = Source(SID, SHA, 1, "sources/local_emit/source.pdf", "2026-01-01T00:00:00Z")
    write_json(ws.source_record_path(SID), source.to_dict())
    write_json(ws.extracted_dir(SID) / "tables.json", TablesFile({"id": SID, "sha256": SHA}, {}, [table]).to_dict())
    mark_written(ws, SID, "fetch", "extract")


def records(ws: Workspace) -> list[dict]:
    return read_jsonl(ws.extracted_dir(SID) / "records.jsonl")


def test_emit_writes_one_valid_record_per_mapped_cell(invoke, workspace) -> None:
    setup_source(workspace)
    assert invoke("map", SID).exit_code == 1  # the Unknown-LM column maps to nothing
    result = invoke("emit", SID, "--json")
    assert result.exit_code == 0, result.output
    assert json_out(result)["results"][0]["summary"]["records"] == 6
    rows = records(workspace)
    assert len(rows) == 6
    for row in rows:
        validate_record(row)
    first = rows[0]
    assert first["id"] == f"rec:{SHA[:12]}:p4:Table2:r2:c1"
    assert first["locator"] == f"{SHA[:12]}:p4:Table2:r2:c1"
    assert first["locator_readable"] == "Table 2, row 'Human Core Promoter Detection / notata', column 'NT'"
    assert (first["printed"], first["value"], first["plus_minus"]) == ("0.702 (0.011)", 0.702, 0.011)
    assert first["dataset"] == "GenBench Human Core Promoter Detection, dataset notata"
    assert (first["configuration"], first["model"]) == ("NT (GenBench)", "Nucleotide Transformer")
    assert (first["metric"], first["unit"], first["direction"]) == ("accuracy", "fraction", "higher")
    assert (first["benchmark"], first["protocol"]) == ("GenBench", "GenBench fine-tuning per dataset")
    assert (first["source_id"], first["source_sha256"], first["page"]) == (SID, SHA, 4)
    assert first["uncertainty"] == "±0.011 as printed ('0.702 (0.011)'); the caption calls it the standard deviation"
    assert first["aggregation"] == "Not reported"
    assert first["evidence_origin"].startswith("Independent external evaluation")
    assert first["review_status"] == "catalogued"
    assert first["mapping"]["ids"]["dataset"] == "genbench-human-core-promoter-detection-dataset-notata"
    assert first["mapping"]["dataset"]["method"] == "exact"
    mean = next(r for r in rows if r["locator"].endswith("r4:c2"))
    assert mean["dataset"] == "GenBench Human Core Promoter Detection"
    assert mean["aggregation"] == "mean of the Human Core Promoter Detection dataset rows as printed in Table 2"


def test_emit_rerun_is_byte_identical(invoke, workspace) -> None:
    setup_source(workspace)
    invoke("map", SID)
    invoke("emit", SID)
    path = workspace.extracted_dir(SID) / "records.jsonl"
    first = path.read_bytes()
    assert json_out(invoke("emit", SID, "--json"))["results"][0]["status"] == "skipped"
    assert invoke("emit", SID, "--force").exit_code == 0
    assert invoke("map", SID, "--force").exit_code == 1
    assert invoke("emit", SID, "--force").exit_code == 0
    assert path.read_bytes() == first


def test_percent_values_are_rescaled_and_recorded(invoke, workspace) -> None:
    grid = [["Dataset", "NT", "Caduceus"], ["Human Core Promoter Detection notata", "70.2", "72.1"]]
    setup_source(workspace, grid, caption="Accuracy (%) on GenBench.", spans=())
    invoke("map", SID)
    invoke("emit", SID)
    row = records(workspace)[1]
    assert (row["value"], row["catalogue_value"]) == (72.1, 0.721)
    assert "divided by 100 into the catalogue's unit 'fraction'" in row["rescale"]
    assert row["uncertainty"] == "Not reported by the source"


def test_emit_refuses_a_mapping_made_from_other_tables(invoke, workspace) -> None:
    setup_source(workspace)
    invoke("map", SID)
    setup_source(workspace, caption=CAPTION + " Revised.")
    refused = invoke("emit", SID, "--json")
    assert refused.exit_code == 2
    assert json_out(refused)["results"][0]["message"] == (
        "map is stale (extracted/local_emit/tables.json): its inputs changed since it ran; "
        "run 'litaudit run local:emit' first"
    )
    mark_written(workspace, SID, "map")  # even a mapping recorded as done is checked against the tables it names
    result = invoke("emit", SID, "--json")
    assert result.exit_code == 2
    assert "made from another tables.json; run 'litaudit map' again" in json_out(result)["results"][0]["message"]
    assert not (workspace.extracted_dir(SID) / "records.jsonl").exists()


def test_emit_before_map_says_what_to_run(invoke, workspace) -> None:
    setup_source(workspace)
    result = invoke("emit", SID, "--json")
    assert result.exit_code == 2
    assert (
        json_out(result)["results"][0]["message"] == "map is missing: has not run; run 'litaudit run local:emit' first"
    )


def test_schema_covers_every_record_field_and_rejects_bad_records(invoke, workspace) -> None:
    schema = schema_validator("pipeline.emit", SCHEMA_FILE).schema
    assert set(schema["properties"]) == {f.name for f in dataclasses.fields(Record)}
    setup_source(workspace)
    invoke("map", SID)
    invoke("emit", SID)
    good = records(workspace)[0]
    for field, value, message in [
        ("unit", "furlong", "unit: 'furlong' is not one of"),
        ("review_status", "done", "review_status: 'done' is not one of"),
        ("value", None, "value: None is not of type 'number'"),
        ("locator", "p4:r2:c1", "locator: 'p4:r2:c1' does not match"),
    ]:
        with pytest.raises(InvalidRecordError, match=message):
            validate_record({**good, field: value})


def test_csv_export_has_the_same_records(invoke, workspace) -> None:
    setup_source(workspace)
    invoke("map", SID)
    invoke("emit", SID)
    path = write_records_csv(workspace, SID)
    assert path == workspace.extracted_dir(SID) / "records.csv"
    rows = list(csv.DictReader(path.read_text(encoding="utf-8").splitlines()))
    emitted = records(workspace)
    assert [r["id"] for r in rows] == [r["id"] for r in emitted]
    assert rows[0]["printed"] == "0.702 (0.011)" and rows[0]["value"] == "0.702"
    assert rows[0]["bbox"] == "" and rows[0]["rescale"] == ""
    assert rows[0]["dataset_method"] == "exact" and rows[0]["manual"] == "False"
    assert "mapping" not in rows[0] and json.loads(json.dumps(rows[0]))
