"""The audit rules journal papers taught (issue #20), on a typeset paper: each look-alike stays free of errors
and warnings, each planted slip of the same kind is still found, on the exact tables and through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import Invoke
from grids import table_from_grid
from papers.journal_audit_paper import journal_audit_paper

from pipeline.audit.checks import run_checks
from pipeline.audit.context import AuditInput
from pipeline.audit.text import paper_text_from_string, read_paper_text
from pipeline.catalogue import load_catalogue
from pipeline.fixtures.render import render_paper
from pipeline.fixtures.spec import PaperTruth, Planted
from pipeline.store import Workspace, safe_id

CONFIG = Path(__file__).resolve().parents[1] / "config"


def _problems(findings: list[dict]) -> list[dict]:
    return [f for f in findings if f["severity"] in ("error", "warning")]


def _at(locator: str) -> tuple[int, int]:
    row, col = locator.rsplit(":", 2)[1:]
    return int(row[1:]), int(col[1:])


def _found(planted: Planted, problems: list[dict]) -> bool:
    return any(
        f["check"] == planted.check and f["table_label"] == planted.table and (planted.row, planted.col) in
        [_at(loc) for loc in f["locators"]]
        for f in problems
    )  # fmt: skip


def _judge(truth: PaperTruth, findings: list[dict]) -> None:
    problems = _problems(findings)
    missed = [p for p in truth.planted if not _found(p, problems)]
    assert missed == [], "\n".join(f"missed {p.check} on {p.table}: {p.note}" for p in missed)
    planted = {(p.check, p.table) for p in truth.planted}
    stray = [f"{f['check']} on {f['table_label']}: {f['message']}" for f in problems
             if (f["check"], f["table_label"]) not in planted]  # fmt: skip
    assert stray == []


def test_the_exact_tables(tmp_path: Path) -> None:
    pdf = tmp_path / "journal.pdf"
    truth = render_paper(journal_audit_paper(), pdf)
    tables = [t.to_table(i) for i, t in enumerate(truth.tables)]
    inp = AuditInput("local:j", "0" * 64, tables, text=read_paper_text(pdf, tables), catalogue=load_catalogue(CONFIG))
    _judge(truth, [f.to_dict() for f in run_checks(inp).findings])


def test_the_cli_end_to_end(invoke: Invoke, workspace: Workspace, tmp_path: Path) -> None:
    pdf = tmp_path / "journal.pdf"
    truth = render_paper(journal_audit_paper(), pdf)
    source_id = "local:journal-look-alikes"
    assert invoke("fetch", "--file", str(pdf), "--id", source_id).exit_code == 0
    for stage in ("extract", "map", "emit", "audit"):
        assert invoke(stage, source_id, "--json").exit_code in (0, 1)
    document = json.loads((workspace.root / "audits" / safe_id(source_id) / "findings.json").read_text())
    _judge(truth, document["findings"])


# The same rules on single tables, where each one's boundary shows --------------------------------------------


def _checked(grid: list[list[str]], caption: str, text: str, check: str, **kw: object) -> list[str]:
    table = table_from_grid(grid, caption=caption, label="Table 1", **kw)  # type: ignore[arg-type]
    inp = AuditInput("local:t", "0" * 64, [table], text=paper_text_from_string(text), catalogue=load_catalogue(CONFIG))
    return sorted(f.severity for f in run_checks(inp).findings if f.check == check)


@pytest.mark.parametrize(
    ("overall", "expected"),
    [
        (["All", "0.83", "0.70"], []),  # within the parts: pooled
        (["All", "0.95", "0.70"], ["warning"]),  # an overall accuracy outside its parts: likely wrong, not proved
    ],
)
def test_an_all_row_of_scores_is_an_overall_statistic(overall: list[str], expected: list[str]) -> None:
    grid = [["Group", "Accuracy", "Pearson r"], ["Male", "0.81", "0.61"], ["Female", "0.85", "0.66"], overall]
    found = _checked(grid, "Accuracy by sex.", "Table 1 gives accuracy by sex.", "aggregate-row")
    assert [s for s in found if s != "info"] == expected  # the correlation 0.70 is never judged against its parts


def test_a_metric_row_label_needs_context() -> None:
    metrics = [["Measure", "Model A", "Model B"], ["MCC", "0.61", "1.64"], ["AUC", "0.81", "0.83"]]
    assert _checked(metrics, "Scores.", "Table 1 gives the scores.", "value-out-of-range") == ["warning"]
    genes = [["Gene", "Model A", "Model B"], ["MCC", "0.61", "1.64"], ["BRCA1", "0.81", "0.83"]]
    assert _checked(genes, "Fold change per gene.", "Table 1 gives fold changes.", "value-out-of-range") == []


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("As Table 1 shows, Ours stays below 0.1 on every dataset.", ["warning"]),
        ("As Table 1 shows, Ours stays below 0.15 on every dataset.", []),
        ("As Table 1 shows, Ours stays below 0.14 on every dataset.", []),  # 0.14 may be 0.1395: rounding honoured
        ("As Table 1 shows, Ours stays below 0.1 on average.", []),
        ("As Table 1 shows, Ours beats all models at less than 1/4 of the cost.", []),  # a fraction, not a bound of 1
        # the citation's scope runs over a run-in heading and a list item, to the next citation
        ("Table 1 gives the errors. Calibration. Ours stays below 0.1 on every dataset.", ["warning"]),
        ("Table 1 gives the errors. (i) Ours stays below 0.1 on every dataset.", ["warning"]),
        ("Table 1 gives the errors. Figure 2 plots them. Ours stays below 0.1 on every dataset.", []),
        (
            "Table 1 gives the errors. We ran every model three times. The seeds were fixed in advance. Training "
            "took a day on one GPU. Ours stays below 0.1 on every dataset.",
            [],
        ),
    ],
)
def test_a_bound_over_every_cell(sentence: str, expected: list[str]) -> None:
    grid = [["Method", "D1", "D2", "D3"], ["Ours", "0.05", "0.08", "0.14"], ["Base", "0.21", "0.30", "0.25"]]
    assert _checked(grid, "RMSE.", sentence, "text-claim-mismatch") == expected


def test_a_table_leaked_into_the_text_with_minus_glyphs_quotes_nothing() -> None:
    """Minus signs drawn as glyphs without Unicode come through as control characters, and a power of ten as
    flattened digits ("9.93x10^-4" -> "9.9310\x044"): the run of numbers is the table itself, not prose."""
    grid = [["Gene", "Beta", "P"], ["AGR2", "−2.069", "0.59"], ["AHR", "−0.233", "0.42"], ["ANKMY2", "−0.078", "0.22"]]
    leaked = "Table 1 Associations Gene Beta P AGR2 \x042.069 0.59 AHR \x040.233 0.42 ANKMY2 \x040.078 9.9310\x044 0.22"
    assert _checked(grid, "Associations.", leaked, "text-claim-mismatch") == []


def test_a_bar_charts_legend_claims_no_error_bars_for_the_tables() -> None:
    legend = "Error bars indicate the range across 5 climate models, while the bars correspond to the mean estimate."
    grid = [["Species", "Risk"], ["An. gambiae", "0.61"], ["An. funestus", "0.72"]]
    assert _checked(grid, "Suitability.", legend, "error-bars-claimed") == []
    claim = "Error bars show the standard deviation over five seeds."
    assert _checked(grid, "Suitability.", claim, "error-bars-claimed") == ["warning"]
