"""A README as a source: fetched, read by the Markdown reader, mapped, emitted, audited and frozen."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import Invoke, json_out
from papers.geneb_readme import MODELS, PLANTED_BOLD, PLANTED_CLAIM, PLANTED_COUNT, configurations_yaml, readme

from pipeline.audit.checks import run_checks
from pipeline.audit.context import AuditInput
from pipeline.audit.text import PaperText, Sentence, split_sentences
from pipeline.model import TablesFile
from pipeline.readers import read_artifact
from pipeline.readers.markdown import read_markdown
from pipeline.store import Workspace

SID = "local:geneb"


def test_markdown_reader_keeps_bold_captions_and_places(tmp_path: Path) -> None:
    path = tmp_path / "README.md"
    path.write_text(readme())
    reading = read_markdown(path, "source.md")
    board, categories = reading.tables
    assert board.caption == "GENEB mean accuracy over all tasks (higher is better)."
    assert categories.caption.startswith("GENEB accuracy per task category")
    bold = {(c.row, c.text) for c in categories.cells if c.bold}
    assert (2, "0.799") in bold and (1, "0.881") in bold  # the planted bold and a true best
    header = [c.text for c in categories.cells if c.row == 0]
    assert header == ["Category", *MODELS]
    first = next(c for c in board.cells if c.text == "Caduceus")
    assert first.place == "source.md:11:3"
    assert any("0.915" in p for p in reading.prose)


def test_a_count_some_table_fits_is_not_flagged(tmp_path: Path) -> None:
    for said, flagged in ((6, False), (3, False), (PLANTED_COUNT, True)):  # 6 columns; the leaderboard's 3 rows
        path = _write(tmp_path, "README.md", readme(said))
        tables, reading = read_artifact("markdown", path, "0" * 64)
        text = PaperText([Sentence(0, s) for p in reading.prose for s in split_sentences(p)])
        findings = run_checks(AuditInput("local:r", "0" * 64, tables, text=text)).findings
        assert any(f.check == "caption-column-count" for f in findings) is flagged, said


def test_ragged_markdown_table_is_read_with_a_note(tmp_path: Path) -> None:
    path = tmp_path / "r.md"
    path.write_text("| a | b |\n|---|---|\n| 1 | 2 | 3 |\n| 4 |\n")
    [table] = read_markdown(path, "r.md").tables
    assert len(table.notes) == 2 and "ragged row at r.md:3" in table.notes[0]
    assert read_markdown(_write(tmp_path, "none.md", "# Nothing\n\nNo tables here.\n"), "none.md").tables == []


def by_key_message(findings: list[dict], check: str) -> str:
    [finding] = [f for f in findings if f["check"] == check]
    return finding["message"]


def _write(folder: Path, name: str, text: str) -> Path:
    (folder / name).write_text(text)
    return folder / name


def test_readme_runs_end_to_end(invoke: Invoke, workspace: Workspace, tmp_path: Path) -> None:
    path = _write(tmp_path, "README.md", readme())
    catalogue = workspace.config_dir / "catalogue"
    shutil.copytree(Path(__file__).parents[1] / "config" / "catalogue", catalogue)
    (catalogue / "geneb_models.yaml").write_text(configurations_yaml())
    fetched = invoke("fetch", "--file", str(path), "--id", SID, "--json")
    assert fetched.exit_code == 0, fetched.output
    record = json.loads(workspace.source_record_path(SID).read_text())
    [artifact] = record["artifacts"]
    assert (artifact["kind"], artifact["media_type"], record["pdf_path"]) == ("markdown", "text/markdown", None)
    assert artifact["path"] == "sources/local_geneb/source.md" and artifact["sha256"] == record["sha256"]

    ran = invoke("run", SID, "--json")
    assert ran.exit_code in (0, 1), ran.output
    tables = TablesFile.from_dict(json.loads((workspace.extracted_dir(SID) / "tables.json").read_text()))
    assert [t.engine for t in tables.tables] == ["litaudit-markdown"] * 2
    records = [json.loads(line) for line in (workspace.extracted_dir(SID) / "records.jsonl").read_text().splitlines()]
    assert records and all(":source.md:" in r["locator"] for r in records)
    audit = json.loads((workspace.audits_dir(SID) / "findings.json").read_text())
    by_check = {f["check"]: f for f in audit["findings"]}
    assert PLANTED_BOLD[0] in by_check["bold-not-best"]["locators_readable"][0]
    claim = by_key_message(audit["findings"], "text-claim-mismatch")
    assert f"quotes {PLANTED_CLAIM} for row 'Promoters', column 'NT'" in claim  # from the README's key findings
    count = by_key_message(audit["findings"], "caption-column-count")
    assert f"'{PLANTED_COUNT} models'" in count and "6 model columns" in count
    report = (workspace.audits_dir(SID) / "report.html").read_text()
    assert "No page image: read from source.md" in report

    status = json_out(invoke("status", SID, "--json"))
    assert "done" in json.dumps(status)
    frozen = invoke("freeze", "--date", "2026-12-02", "--json")
    assert frozen.exit_code == 0, frozen.output
    assert json_out(invoke("verify", json_out(frozen)["archive"], "--json"))["ok"]
    workspace.root.joinpath("sources/local_geneb/source.md").write_text(readme().replace("0.870", "0.871"))
    stale = json.dumps(json_out(invoke("status", SID, "--json")))
    assert "modified" in stale or "stale" in stale
