"""The audit stage end to end: demo paper -> fetch -> extract -> map -> emit -> audit, through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import litaudit
from stage_doubles import mark_written

from pipeline.fixtures import PaperTruth, demo_truth
from pipeline.reviews import record_decision
from pipeline.store import Workspace

SID = "local:demo"
FOLDER = "local_demo"
OUTPUTS = ("findings.json", "records.jsonl", "report.html", "report.md")


def findings(root: Path) -> list[dict]:
    return json.loads((root / "audits" / FOLDER / "findings.json").read_text())["findings"]


def rows_of(finding: dict) -> set[int]:
    return {int(loc.rsplit(":r", 1)[1].split(":")[0]) for loc in finding["locators"]}


@pytest.fixture(scope="module")
def truth() -> PaperTruth:
    return demo_truth()


def test_every_planted_problem_is_found_at_its_table_and_row(demo_root: Path, truth: PaperTruth) -> None:
    problems = [f for f in findings(demo_root) if f["severity"] in ("error", "warning")]
    for planted in truth.planted:
        hits = [f for f in problems if f["check"] == planted.check and f["table_label"] == planted.table]
        if planted.row is not None:
            hits = [f for f in hits if planted.row in rows_of(f)]
        assert hits, f"not found: {planted}"


def test_clean_tables_have_no_error_or_warning(demo_root: Path, truth: PaperTruth) -> None:
    assert truth.clean_tables
    on_clean = [f for f in findings(demo_root) if f["table_label"] in truth.clean_tables and f["severity"] != "info"]
    assert on_clean == []


def test_records_carry_their_limitations(demo_root: Path) -> None:
    extracted = (demo_root / "extracted" / FOLDER / "records.jsonl").read_text().splitlines()
    audited = [json.loads(line) for line in (demo_root / "audits" / FOLDER / "records.jsonl").read_text().splitlines()]
    assert len(audited) == len(extracted) > 0
    by_id = {f["id"]: f for f in findings(demo_root)}
    [mean] = [r for r in audited if r["locator"].endswith(":Table2:r4:c5")]
    checks = {by_id[i]["check"] for i in mean["findings"]}
    assert {"aggregate-row", "error-bars-claimed"} <= checks
    assert any("0.757 is not the mean" in text for text in mean["limitations"])
    paper_level = next(f for f in by_id.values() if f["check"] == "error-bars-claimed")
    assert len(paper_level["record_ids"]) == len(audited)
    clean = [r for r in audited if ":Table1:" in r["locator"]]
    assert clean and all(len(r["limitations"]) == 1 for r in clean)  # only the paper-level claim


def test_stage_exit_code_and_summary(root: Path) -> None:
    result = litaudit(root, "audit", SID, "--force", "--json")
    assert result.exit_code == 1
    [job] = json.loads(result.stdout)["results"]
    assert job["summary"]["error"] == 2 and job["summary"]["warning"] >= 7
    assert job["problems"] == job["summary"]["error"] + job["summary"]["warning"]


def test_rerun_gives_identical_bytes(root: Path) -> None:
    folder = root / "audits" / FOLDER
    before = {name: (folder / name).read_bytes() for name in OUTPUTS}
    assert litaudit(root, "audit", SID, "--force").exit_code == 1
    assert {name: (folder / name).read_bytes() for name in OUTPUTS} == before


def test_reviewers_latest_decision_is_shown(root: Path) -> None:
    records = (root / "audits" / FOLDER / "records.jsonl").read_text().splitlines()
    record_id = json.loads(records[0])["id"]
    ws, known = Workspace(root), {record_id}
    record_decision(
        ws, SID, record_id, "reject", known=known, note="first look", reviewer="ana", date="2026-01-01T00:00:00Z"
    )
    record_decision(
        ws,
        SID,
        record_id,
        "correct",
        known=known,
        value=0.921,
        note="typo in PDF",
        reviewer="bo",
        date="2026-01-02T00:00:00Z",
    )
    result = litaudit(root, "audit", SID, "--json")  # reviews.jsonl is an input: no --force needed
    assert result.exit_code == 1 and json.loads(result.stdout)["results"][0]["status"] == "done"
    html = (root / "audits" / FOLDER / "report.html").read_text()
    md = (root / "audits" / FOLDER / "report.md").read_text()
    assert "correct → 0.921" in html and "typo in PDF" in html and "first look" not in html
    assert "correct → 0.921 (bo, 2026-01-02T00:00:00Z)" in md


def test_an_edited_review_log_stops_the_audit_naming_file_and_line(root: Path) -> None:
    path = root / "audits" / FOLDER / "reviews.jsonl"
    record_id = json.loads((root / "audits" / FOLDER / "records.jsonl").read_text().splitlines()[0])["id"]
    for decision in ("accept", "reject"):
        record_decision(Workspace(root), SID, record_id, decision, known={record_id}, reviewer="ana")
    path.write_text(path.read_text().replace('"reject"', '"accept"'))
    result = litaudit(root, "audit", SID, "--json")
    assert result.exit_code != 0
    assert f"{path}:2: entry was edited" in json.loads(result.stdout)["results"][0]["message"]


def test_missing_records_and_catalogue_are_reported(root: Path) -> None:
    (root / "extracted" / FOLDER / "records.jsonl").unlink()
    (root / "config" / "catalogue").mkdir(parents=True, exist_ok=True)  # present but empty
    refused = litaudit(root, "audit", SID, "--force", "--json")  # emit's output is gone: nothing to trust
    assert refused.exit_code == 2
    assert json.loads(refused.stdout)["results"][0]["message"].startswith(
        "emit is missing (extracted/local_demo/records.jsonl): deleted since emit wrote it"
    )
    mark_written(Workspace(root), SID, "emit")  # as if emit itself had written no records
    result = litaudit(root, "audit", SID, "--force", "--json")
    assert result.exit_code == 1, result.output
    document = json.loads((root / "audits" / FOLDER / "findings.json").read_text())
    skipped = {c["id"] for c in document["checks"] if c["status"] == "skipped"}
    assert skipped == {
        "undefined-metric",
        "value-out-of-range",
        "dataset-reused",
        "cross-table-mean",
        "reproduction-differs",
    }
    assert any("records.jsonl not found" in note for note in document["audit"]["notes"])
    md = (root / "audits" / FOLDER / "report.md").read_text()
    assert "skipped: needs the catalogue" in md and "records.jsonl not found" in md
    assert (root / "audits" / FOLDER / "records.jsonl").read_text() == ""


def test_bad_tables_file_is_a_one_line_error_and_keeps_the_last_audit(root: Path) -> None:
    folder = root / "audits" / FOLDER
    before = {name: (folder / name).read_bytes() for name in OUTPUTS}
    (root / "extracted" / FOLDER / "tables.json").write_text("{not json")
    refused = litaudit(root, "audit", SID, "--force")
    assert refused.exit_code == 2
    assert "extract is modified (extracted/local_demo/tables.json)" in refused.stderr
    assert {name: (folder / name).read_bytes() for name in OUTPUTS} == before
    mark_written(Workspace(root), SID, "extract", "map", "emit")  # as if the extractor had written it
    result = litaudit(root, "audit", SID, "--force")
    assert result.exit_code == 2
    assert "tables.json: not valid JSON" in result.stderr and "Traceback" not in result.output
    assert {name: (folder / name).read_bytes() for name in OUTPUTS} == before


def test_every_finding_states_its_certainty_and_the_reports_show_it(demo_root: Path) -> None:
    found = findings(demo_root)
    assert all(f["certainty"] in ("proved", "likely", "unsure", "declined") for f in found)
    assert all(f["confidence"] is not None for f in found if f["table_label"])
    weaker = [f for f in found if f["certainty"] in ("likely", "unsure", "declined") and f["severity"] != "info"]
    assert all(f["reason"] for f in weaker)
    report = (demo_root / "audits" / FOLDER / "report.md").read_text()
    assert "certainty: proved" in report and "certainty: likely: " in report


def test_decisions_on_findings_reach_the_limitations(root: Path) -> None:
    folder = root / "audits" / FOLDER
    findings = json.loads((folder / "findings.json").read_text())["findings"]
    broken = next(f for f in findings if f["check"] == "aggregate-row" and f["severity"] == "error")
    fine = next(f for f in findings if f["check"] == "aggregate-row" and f["severity"] == "info" and f["record_ids"])
    ws, known = Workspace(root), {f["id"] for f in findings}
    record_decision(ws, SID, broken["id"], "dismiss", known=known, kind="finding", reviewer="ana", note="a misprint")
    record_decision(ws, SID, fine["id"], "accept", known=known, kind="finding", reviewer="ana")
    assert litaudit(root, "audit", SID).exit_code == 1  # reviews.jsonl is an input: the audit re-runs
    records = {r["id"]: r for r in map(json.loads, (folder / "records.jsonl").read_text().splitlines())}
    assert not any(broken["id"] in limit for r in records.values() for limit in r["limitations"])
    assert all(any(fine["id"] in limit for limit in records[rid]["limitations"]) for rid in fine["record_ids"])
    assert all(broken["id"] in records[rid]["findings"] for rid in broken["record_ids"])  # still linked
    limitations = json.loads((folder / "source_record.json").read_text())["limitations"]
    assert not any("0.757" in text for text in limitations)  # the dismissed mean is no limitation of the paper
    md = (folder / "report.md").read_text()
    assert "   - review: dismissed by ana (" in md and "): a misprint" in md
    rewritten = json.loads((folder / "findings.json").read_text())["findings"]
    assert next(f for f in rewritten if f["id"] == broken["id"])["details"]["review"]["note"] == "a misprint"
