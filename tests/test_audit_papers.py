"""The audit on kept-aside papers it was not tuned on: every planted problem found at its table and row, no error
or warning on the clean tables, nor anywhere a problem was not planted.

Two levels: the checks on the papers' exact tables (what a perfect extractor returns: the audit alone is
judged), and the real CLI end to end (fetch --file -> extract -> map -> emit -> audit). A miss only end to end
is the extractor's or the mapper's; a miss on the exact tables is the audit's.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import Invoke, json_out
from grids import table_from_grid
from papers.audit_papers import AUDIT_PAPERS, audit_paper, write_audit_paper
from papers.counts_paper import COUNTS_PAPERS, counts_paper
from papers.derived_paper import DERIVED_PAPERS, derived_paper
from papers.relations_paper import relations_paper

from pipeline.audit.checks import CHECKS, run_checks
from pipeline.audit.checks.uncertainty import claim_sentences
from pipeline.audit.context import AuditInput
from pipeline.audit.text import paper_text_from_string, read_paper_text
from pipeline.catalogue import load_catalogue
from pipeline.fixtures.spec import PaperTruth, Planted
from pipeline.model import Finding
from pipeline.store import Workspace, safe_id

PLANTED_PAPERS = ("single_column", "two_column")
CONFIG = Path(__file__).resolve().parents[1] / "config"


def _position(locator: str) -> tuple[int, int]:
    row, col = locator.rsplit(":", 2)[1:]
    return int(row[1:]), int(col[1:])


def _hits(planted: Planted, problems: list[dict]) -> list[dict]:
    """Error or warning findings of the planted check on its table, at its row (or column, for a column)."""
    hits = [f for f in problems if f["check"] == planted.check and f["table_label"] == planted.table]
    if planted.row is not None:
        return [f for f in hits if any(_position(loc)[0] == planted.row for loc in f["locators"])]
    if planted.col is not None:
        return [f for f in hits if any(_position(loc)[1] == planted.col for loc in f["locators"])]
    return hits


def _problems(findings: list[dict]) -> list[dict]:
    return [f for f in findings if f["severity"] in ("error", "warning")]


def _unplanted(truth: PaperTruth, problems: list[dict]) -> list[str]:
    """Problems on a clean table, or of a check that was planted nowhere on that table."""
    planted = {(p.check, p.table) for p in truth.planted}
    return [
        f"{f['check']} on {f['table_label']}: {f['message']}"
        for f in problems
        if f["table_label"] in truth.clean_tables or (f["check"], f["table_label"]) not in planted
    ]


@pytest.mark.parametrize("name", list(AUDIT_PAPERS))
def test_checks_find_every_planted_problem_on_the_exact_tables(name: str, tmp_path: Path) -> None:
    pdf = tmp_path / f"{name}.pdf"
    truth = write_audit_paper(name, pdf)
    tables = [t.to_table(i) for i, t in enumerate(truth.tables)]
    inp = AuditInput(
        f"local:{name}",
        "0" * 64,
        tables,
        text=read_paper_text(pdf, tables),
        catalogue=load_catalogue(CONFIG),
    )
    findings = [f.to_dict() for f in run_checks(inp).findings]
    problems = _problems(findings)
    missed = [p for p in truth.planted if not _hits(p, problems)]
    assert missed == [], "\n".join(f"missed {p.check} on {p.table} row {p.row}: {p.note}" for p in missed)
    assert _unplanted(truth, problems) == []


@pytest.mark.parametrize("name", list(AUDIT_PAPERS))
def test_cli_finds_every_planted_problem_and_nothing_else(
    name: str, invoke: Invoke, workspace: Workspace, tmp_path: Path
) -> None:
    pdf = tmp_path / f"{name}.pdf"
    truth = write_audit_paper(name, pdf)
    source_id = f"local:{name.replace('_', '-')}"
    assert invoke("fetch", "--file", str(pdf), "--id", source_id).exit_code == 0
    for stage in ("extract", "map", "emit"):
        result = invoke(stage, source_id, "--json")
        assert result.exit_code in (0, 1), f"{stage}: {result.output}"
    audit = invoke("audit", source_id, "--json")
    assert audit.exit_code == (1 if truth.planted else 0), audit.output
    [job] = json_out(audit)["results"]
    assert job["status"] == "done"

    document = json.loads((workspace.root / "audits" / safe_id(source_id) / "findings.json").read_text())
    problems = _problems(document["findings"])
    missed = [p for p in truth.planted if not _hits(p, problems)]
    assert missed == [], "\n".join(f"missed {p.check} on {p.table} row {p.row}: {p.note}" for p in missed)
    assert _unplanted(truth, problems) == []
    assert job["problems"] == len(problems)


def test_planted_papers_plant_every_check_and_keep_clean_tables() -> None:
    """Each planted paper carries every kind of problem next to clean tables, so the tests above mean something."""
    for name in PLANTED_PAPERS:
        paper = audit_paper(name)
        # cross-table-mean needs a summary table and its dataset tables: shown on the GenBench paper instead
        # (tests/test_genbench_paper.py) and in tests/test_cross_table.py; derived-* have their own papers,
        # reproduction-differs its probe leaderboard (tests/test_probe_reproduce.py), and readings-disagree needs
        # the paper's LaTeX beside its PDF (tests/test_sources_readings.py); the prose-against-tables checks have
        # their own paper (tests/papers/relations_paper.py)
        planted_elsewhere = {"cross-table-mean", "reproduction-differs", "readings-disagree"}
        planted_elsewhere |= {p.check for p in relations_paper().planted}
        planted_elsewhere |= {c.id for c in CHECKS if c.id.startswith("derived-")}
        assert {p.check for p in paper.planted} == {c.id for c in CHECKS} - planted_elsewhere, name
        labels = {t.label for t in paper.tables()}
        assert paper.clean_tables and set(paper.clean_tables) <= labels
        assert not {p.table for p in paper.planted} & set(paper.clean_tables)
    clean = audit_paper("clean")
    assert clean.planted == () and set(clean.clean_tables) == {t.label for t in clean.tables()}
    assert {p.check for p in relations_paper().planted} == {
        "range-nesting",
        "text-unit-scale",
        "text-comparison-swapped",
        "identifier-truncated",
    }
    derived = {p.check for kind in DERIVED_PAPERS for p in derived_paper(kind).planted}
    derived |= {p.check for kind in COUNTS_PAPERS for p in counts_paper(kind).planted}  # derived-sum's papers
    assert derived >= {c.id for c in CHECKS if c.id.startswith("derived-")}  # one paper per relation kind


# The general fixes the kept-aside papers called for, each on a small table or sentence ---------------------


def _checked(
    grid: list[list[str]], caption: str = "", text: str = "We evaluate every model.", stub_cols: int = 1
) -> list[Finding]:
    table = table_from_grid(grid, caption=caption, stub_cols=stub_cols)
    inp = AuditInput("local:t", "0" * 64, [table], text=paper_text_from_string(text), catalogue=load_catalogue(CONFIG))
    return run_checks(inp).findings


def _severities(findings: list[Finding], check: str) -> list[str]:
    return sorted(f.severity for f in findings if f.check == check)


HEAD = ["Dataset", "NT", "DNABERT2", "HyenaDNA", "Caduceus"]
PARTS = [
    ["dataset 0", "0.654", "0.672", "0.631", "0.668"],
    ["dataset 1", "0.712", "0.735", "0.698", "0.729"],
    ["dataset 2", "0.583", "0.609", "0.571", "0.602"],
]


def test_a_row_that_is_the_mean_of_the_others_without_saying_so_is_a_warning() -> None:
    mean = ["dataset 3", "0.650", "0.672", "0.633", "0.666"]
    [finding] = [f for f in _checked([HEAD, *PARTS, mean]) if f.check == "aggregate-row"]
    assert finding.severity == "warning" and "'dataset 3' is the mean of the rows" in finding.message
    assert all(loc.split(":r")[1].startswith("4:") for loc in finding.locators[:4])
    near = ["dataset 3", "0.650", "0.679", "0.633", "0.659"]  # close to the mean, but not in every column
    assert _severities(_checked([HEAD, *PARTS, near]), "aggregate-row") == []


def test_a_coarse_row_between_the_others_is_not_taken_for_their_mean() -> None:
    grid = [
        HEAD,
        ["a", "0.70", "0.72", "0.70", "0.71"],
        ["b", "0.78", "0.80", "0.78", "0.79"],
        ["c", "0.74", "0.75", "0.74", "0.75"],
    ]
    assert _severities(_checked(grid), "aggregate-row") == []  # two decimals: agreement this loose is likely by chance


@pytest.mark.parametrize(
    ("overall", "caption", "expected"),
    [
        # most cells are the mean, so the odd one is flagged, but an overall accuracy may be pooled: a warning
        (["Overall", "0.650", "0.672", "0.633", "0.680"], "Accuracy per dataset and overall.", ["info", "warning"]),
        (
            ["Overall", "0.660", "0.690", "0.640", "0.680"],
            "Accuracy. Overall is the mean of the datasets.",
            ["error"] * 4,
        ),
        (["Overall", "0.660", "0.690", "0.640", "0.680"], "Accuracy per dataset and overall.", ["info"]),
        (["Overall", "0.760", "0.790", "0.740", "0.780"], "Accuracy per dataset and overall.", ["warning"] * 4),
    ],
)
def test_overall_is_a_mean_when_the_caption_or_most_cells_say_so(
    overall: list[str], caption: str, expected: list[str]
) -> None:
    """Otherwise it may be pooled over its parts: a note within their range, a warning outside it; only the
    caption's word makes a broken overall score an error."""
    assert _severities(_checked([HEAD, *PARTS, overall], caption), "aggregate-row") == sorted(expected)


def test_an_aggregate_printed_above_its_parts_is_checked() -> None:
    grid = [HEAD, ["Average", "0.650", "0.672", "0.633", "0.690"], *PARTS]
    assert _severities(_checked(grid), "aggregate-row") == ["error", "info"]


def test_an_overall_row_repeating_a_metric_label_averages_only_that_metric() -> None:
    """Evo 2's Table S4: pooled "Overall" AUROC and AUPRC above their coding and noncoding subsets."""
    grid = [
        ["Metric", "Subset", "Base", "Ablation", "Difference"],
        ["Spearman", "Overall", "0.358", "0.513", "+0.155"],
        ["AUROC", "Overall", "0.793", "0.891", "+0.098"],
        ["AUROC", "Coding", "0.769", "0.797", "+0.028"],
        ["AUROC", "Noncoding", "0.867", "0.962", "+0.095"],
    ]
    assert _severities(_checked(grid, stub_cols=2), "aggregate-row") == [
        "info"
    ]  # may be pooled; Spearman has no parts at all


@pytest.mark.parametrize(
    ("sentence", "claimed"),
    [
        ("Human OCR Ensembl is a dataset we put together from public DNase-seq data.", True),
        ("Human OCR Ensembl is released here for the first time.", True),
        ("We present a new benchmark that includes Human OCR Ensembl.", True),
        ("We present results on Human OCR Ensembl.", False),
        ("We collected Human OCR Ensembl from Genomic Benchmarks.", False),  # the source, named in the same sentence
    ],
)
def test_a_reused_dataset_presented_as_new_is_a_warning(sentence: str, claimed: bool) -> None:
    grid = [HEAD, ["Human OCR Ensembl", "0.703", "0.716", "0.695", "0.724"]]
    text = f"Our other datasets come from Genomic Benchmarks. {sentence}"
    assert _severities(_checked(grid, "Accuracy.", text), "dataset-reused") == ["warning" if claimed else "info"]


def test_a_dataset_row_marked_ours_claims_it() -> None:
    grid = [HEAD, ["EMP H3K14ac (ours)", "0.512", "0.547", "0.493", "0.559"]]
    assert _severities(_checked(grid, "MCC.", "Histone marks come from GUE."), "dataset-reused") == ["warning"]


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        (
            "Does the paper report error bars suitably and correctly defined? Answer: [Yes] Justification: Table 2.",
            True,
        ),
        ("Does the paper report error bars suitably and correctly defined? Answer: [No] Justification: cost.", False),
        ("Results are averaged over five runs; ± denotes one standard deviation.", True),
        ("All numbers are means over three seeds, with the standard deviation given after ±.", True),
        ("Scores are averages over 5 seeds (standard deviation in parentheses).", True),
        ("We initialise weights with a standard deviation given by Xavier.", False),
    ],
)
def test_error_bar_claims_in_other_words(text: str, claim: bool) -> None:
    assert bool(claim_sentences(paper_text_from_string(text).sentences)) is claim


def test_bold_compares_models_across_groups_when_each_group_is_a_model() -> None:
    grid = [
        ["Task", "NT", None, "HyenaDNA", None, "Caduceus", None],
        [None, "MSE", "Spearman", "MSE", "Spearman", "MSE", "Spearman"],
        ["Bulk RNA expression", "0.412", "0.561", "0.438", "0.532", "0.397", "0.578"],
        ["Drosophila enhancer activity (dev)", "0.284", "0.603", "0.301", "0.587", "0.276", "0.618"],
    ]
    spans = [{"row": 0, "col": 0, "row_span": 2}, *({"row": 0, "col": c, "col_span": 2} for c in (1, 3, 5))]
    bold = [(2, 3), (2, 6), (3, 5), (3, 6)]  # HyenaDNA's MSE 0.438 is bold; Caduceus's 0.397 is lower
    table = table_from_grid(grid, header_rows=2, spans=spans, bold=bold, caption="Best values in bold.")
    inp = AuditInput(
        "local:t", "0" * 64, [table], text=paper_text_from_string("DeepSTARR."), catalogue=load_catalogue(CONFIG)
    )
    [finding] = [f for f in run_checks(inp).findings if f.check == "bold-not-best"]
    assert finding.locators[0].endswith(":r2:c3") and "0.397" in finding.message


@pytest.mark.parametrize(
    ("caption", "sentence", "contradicts"),
    [
        ("Test accuracy of the five models.", "Table 1 reports validation accuracy.", True),
        ("Accuracy on the dev split.", "Table 1 gives test MCC for every model.", True),
        ("Accuracy on the test set.", "Table 1 gives 5-fold cross-validation results.", False),
    ],
)
def test_split_contradictions_named_by_their_scores(caption: str, sentence: str, contradicts: bool) -> None:
    grid = [HEAD, ["Human OCR Ensembl", "0.703", "0.716", "0.695", "0.724"]]
    found = _severities(_checked(grid, caption, sentence), "caption-text-contradiction")
    assert found == (["warning"] if contradicts else [])


@pytest.mark.parametrize(
    ("caption", "flagged"),
    [
        ("Accuracy of our model and 3 baselines.", False),
        ("Accuracy of our model and 4 baselines.", True),  # three baselines and "Ours"
        ("Accuracy of the four models.", False),
    ],
)
def test_a_count_of_baselines_leaves_out_the_papers_own_model(caption: str, flagged: bool) -> None:
    grid = [
        ["Dataset", "NT", "DNABERT2", "HyenaDNA", "Ours"],
        ["Human OCR Ensembl", "0.703", "0.716", "0.695", "0.724"],
    ]
    found = _severities(_checked(grid, caption, "Genomic Benchmarks."), "caption-column-count")
    assert found == (["warning"] if flagged else [])


def test_an_out_of_range_value_in_a_short_table_under_the_captions_metric() -> None:
    two_rows = [
        ["Dataset", "NT", "DNABERT2", "HyenaDNA", "Caduceus"],
        ["Human OCR Ensembl", "70.3%", "71.6%", "104%", "72.4%"],
        ["Human Enhancers Ensembl", "88.4%", "89.1%", "87.3%", "89.6%"],
    ]
    [finding] = [f for f in _checked(two_rows, "Accuracy of four models.") if f.check == "value-out-of-range"]
    assert finding.severity == "error" and finding.locators[0].endswith(":r1:c3")
    context = [["Model", "Human OCR Ensembl", "Context (kb)"], ["NT", "0.703", "6.0"], ["Caduceus", "0.724", "131.1"]]
    assert _severities(_checked(context, "Accuracy of two models."), "value-out-of-range") == []  # not on its scale
