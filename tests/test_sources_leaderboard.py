"""A README leaderboard in GENEB's published shapes: every printed score a candidate (dataset, metric, regime,
model as printed), a record once `catalogue suggest --entries` is added to the catalogue, key numbers, ranks and
parameter counts never results, no finding on the correct README and each planted problem found once."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import Invoke, json_out
from papers.readme_leaderboard import MODELS, PLANTED_QUOTE, VALUES, readme

from pipeline.audit.checks import run_checks
from pipeline.audit.checks.claims import _named_at
from pipeline.audit.context import AuditInput
from pipeline.audit.text import PaperText, Sentence
from pipeline.mapping.regime import regimes_in
from pipeline.mapping.table import prose_columns
from pipeline.model import Table
from pipeline.readers import read_artifact
from pipeline.readers.markdown import read_markdown
from pipeline.store import Workspace

SID = "local:board"
SHARED_README = Path(__file__).parents[2] / "shared" / "corpus" / "leaderboards" / "geneb_README.md"


def _run(invoke: Invoke, workspace: Workspace, text: str, tmp_path: Path) -> list[dict]:
    path = tmp_path / "README.md"
    path.write_text(text)
    assert invoke("fetch", "--file", str(path), "--id", SID).exit_code == 0
    ran = invoke("run", SID, "--json")
    assert ran.exit_code in (0, 1), ran.output
    return json.loads((workspace.audits_dir(SID) / "findings.json").read_text())["findings"]


def _problems(findings: list[dict]) -> list[dict]:
    return [f for f in findings if f["severity"] in ("error", "warning", "needs-check")]


def test_every_score_is_a_candidate_then_a_record(invoke: Invoke, workspace: Workspace, tmp_path: Path) -> None:
    catalogue = workspace.config_dir / "catalogue"
    shutil.copytree(Path(__file__).parents[1] / "config" / "catalogue", catalogue)
    findings = _run(invoke, workspace, readme(), tmp_path)
    assert _problems(findings) == []
    candidates = json.loads((workspace.extracted_dir(SID) / "candidates.json").read_text())["candidates"]
    assert len(candidates) == VALUES
    labels = [c["printed_labels"] for c in candidates]
    assert {p["configuration"] for p in labels} == set(MODELS)
    assert {p["regime"] for p in labels} == {"full-shot"}
    assert {p["metric"] for p in labels} == {"Matthews correlation coefficient"}
    assert {c["linked"]["dataset"] for c in candidates} >= {"GENEB all categories (Macro)", "GENEB Splice Sites"}
    printed = {c["printed"] for c in candidates}
    assert not printed & {"12", "100", "13", "1", "3B"}  # key numbers, ranks, parameter counts

    entries = invoke("catalogue", "suggest", "--entries")
    assert entries.exit_code == 0, entries.output
    (catalogue / "board_models.yaml").write_text(entries.output)
    assert invoke("catalogue", "check").exit_code == 0
    assert invoke("run", SID).exit_code == 0
    records = [json.loads(line) for line in (workspace.extracted_dir(SID) / "records.jsonl").read_text().splitlines()]
    assert len(records) == VALUES
    assert {(r["metric"], r["regime"], r["benchmark"]) for r in records} == {("mcc", "full-shot", "GENEB")}
    assert json_out(invoke("status", SID, "--json"))


def test_each_planted_problem_is_found_once(invoke: Invoke, workspace: Workspace, tmp_path: Path) -> None:
    findings = _problems(_run(invoke, workspace, readme(planted=True), tmp_path))
    assert sorted(f["check"] for f in findings) == ["bold-not-best", "caption-column-count", "text-claim-mismatch"]
    [claim] = [f for f in findings if f["check"] == "text-claim-mismatch"]
    assert f"quotes {PLANTED_QUOTE} for row 'Dorado-2.5B-MS', column 'Splice sites (7)'" in claim["message"]


@pytest.mark.skipif(not SHARED_README.is_file(), reason="../shared is absent")
def test_the_published_geneb_readme(invoke: Invoke, workspace: Workspace, tmp_path: Path) -> None:
    findings = _run(invoke, workspace, SHARED_README.read_text(), tmp_path)
    assert _problems(findings) == []
    candidates = json.loads((workspace.extracted_dir(SID) / "candidates.json").read_text())["candidates"]
    assert len(candidates) == 48 and {c["printed_labels"]["regime"] for c in candidates} == {"full-shot"}


def test_a_line_without_a_pipe_ends_a_table(tmp_path: Path) -> None:
    path = tmp_path / "r.md"
    path.write_text(
        "| a | b |\n|---|---|\n| x | 1 |\nA paragraph | with a pipe is a row.\nProse ends it.\n"
        "| c | d |\n|---|---|\n| y | 2 |\n```\n| e | f |\n|---|---|\nno row\n```\n"
    )
    first, second = read_markdown(path, "r.md").tables  # the fenced one is code, not a table
    assert [c.text for c in first.cells][-2:] == ["A paragraph", "with a pipe is a row."]
    assert first.caption == "" and second.caption == "Prose ends it."
    assert [c.place for c in second.cells if c.text == "y"] == ["r.md:8:3"]


def test_ranks_are_labels_and_counts_after_a_label_are_no_part_of_it(tmp_path: Path) -> None:
    path = tmp_path / "r.md"
    path.write_text("| # | k | MCC |\n|---|---|---|\n| 1 | 3 | 0.5 |\n| 2 | 5 | 0.6 |\n| 3 | 9 | 0.7 |\n")
    [table], _ = read_artifact("markdown", path, "0" * 64)
    assert table.stub_cols == 1  # 1, 2, 3 counts the rows; 3, 5, 9 does not
    assert {c.text for c in table.cells if c.kind == "body"} == {"3", "5", "9", "0.5", "0.6", "0.7"}
    assert _named_at("strongest on splice sites (0.652)", "Splice sites (7)") == [13]
    assert _named_at("on histone modification", "Histone mod.") == [3]
    assert _named_at("on histone marks", "Histone mod.") == []


def test_regimes_are_read_as_printed_and_look_alikes_are_not() -> None:
    assert regimes_in("Full-shot, MCC.") == ["full-shot"]
    assert regimes_in("full-data, 10-shot, and one-shot") == ["full-shot", "10-shot", "1-shot"]
    assert regimes_in("a screenshot of 100 data points, shot noise") == []


def test_a_fact_sheet_column_holds_no_results_but_marks_in_a_results_column_do_not_make_one() -> None:
    sheet = Table.from_grid(
        [["", ""], ["Models", "40"], ["Regimes", "full, 10-shot, 1-shot"], ["Metric", "Matthews correlation (MCC)"]]
    )
    assert prose_columns(sheet) == {1: "2 of 3"}
    results = Table.from_grid([["Model", "MCC"], ["A", "0.51"], ["B", "OOM"], ["C", "N/A"], ["D", "not run"]])
    assert prose_columns(results) == {}


# Bold marks each column's best (0.80 in A, 0.97 in B); along rows, M3's bold 0.80 is below its 0.95.
_BOLD_GRID = [
    ["Model", "Task A (MCC)", "Task B (MCC)"],
    ["M1", "0.50", "0.60"],
    ["M2", "0.40", "0.97"],
    ["M3", "0.80", "0.95"],
]
_BOLD_AT = [(3, 1), (2, 2)]


def _bold_findings(statement: str, where: str) -> list[str]:
    caption = statement if where == "caption" else "Scores of three models."
    table = Table.from_grid(_BOLD_GRID, caption=caption, bold=_BOLD_AT)
    if where == "section":  # a README: the statement is a paragraph of the table's section, not its caption
        table.artifact, table.context = "source.md", statement
    text = PaperText([Sentence(0 if where == "section" else 1, statement)])
    findings = run_checks(AuditInput("local:b", "0" * 64, [table], text=text)).findings
    return [f.check for f in findings if f.check == "bold-not-best"]


@pytest.mark.parametrize("where", ["caption", "section"])
def test_the_stated_scope_of_bold_is_honoured(where: str) -> None:
    assert _bold_findings("Bold marks the best model in a column.", where) == []
    assert _bold_findings("Bold marks the best of these models in each row.", where) == ["bold-not-best"]
    assert _bold_findings("Bold marks the best value.", where) == []  # unsaid: the reading that explains it


def test_a_readme_sentence_outside_the_tables_section_sets_no_scope() -> None:
    table = Table.from_grid(_BOLD_GRID, caption="Scores of three models.", bold=_BOLD_AT)
    table.artifact = "source.md"
    text = PaperText([Sentence(0, "Bold marks the best of these models in each row.")])  # said of another table
    assert [f.check for f in run_checks(AuditInput("local:b", "0" * 64, [table], text=text)).findings] == []


def test_a_misquote_repeated_in_a_heading_and_a_list_item_is_one_finding(
    invoke: Invoke, workspace: Workspace, tmp_path: Path
) -> None:
    repeated = f"## Dorado-2.5B-MS is the strongest on splice sites ({PLANTED_QUOTE})\n"
    repeated += f"- Dorado-2.5B-MS: strongest on splice sites ({PLANTED_QUOTE}).\n"
    findings = _problems(_run(invoke, workspace, readme(planted=True) + repeated, tmp_path))
    [claim] = [f for f in findings if f["check"] == "text-claim-mismatch"]
    assert [s.startswith("Dorado-2.5B-MS") for s in claim["details"]["also_said"]] == [True, True]
