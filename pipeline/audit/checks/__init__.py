"""The audit checks, one small module per family; CHECKS lists them in the order reports show them."""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline.audit.checks.aggregates import check_aggregates
from pipeline.audit.checks.base import Check, Issue
from pipeline.audit.checks.bold import check_bold
from pipeline.audit.checks.captions import check_caption_counts
from pipeline.audit.checks.claims import check_text_claims
from pipeline.audit.checks.comparisons import check_comparisons
from pipeline.audit.checks.contradiction import check_contradictions
from pipeline.audit.checks.cross_table import check_cross_table_means
from pipeline.audit.checks.datasets import check_reused_datasets
from pipeline.audit.checks.definitions import check_undefined_metrics
from pipeline.audit.checks.derived import (
    check_confusion,
    check_deltas,
    check_fscores,
    check_partitions,
    check_rates,
    check_ratios,
    check_repeated,
    check_shares,
    check_test_statistics,
)
from pipeline.audit.checks.duplicates import check_duplicates
from pipeline.audit.checks.identifiers import check_identifiers
from pipeline.audit.checks.nesting import check_nesting
from pipeline.audit.checks.ranges import check_ranges
from pipeline.audit.checks.readings import check_readings
from pipeline.audit.checks.reproduction import DOUBT as REPRODUCTION_DOUBT
from pipeline.audit.checks.reproduction import check_reproductions
from pipeline.audit.checks.uncertainty import check_error_bars
from pipeline.audit.checks.units import check_unit_scales
from pipeline.audit.context import AuditInput
from pipeline.audit.findings import make_finding, sort_findings
from pipeline.model import Finding
from pipeline.progress import steps

CROSS_TABLE_SUMMARY = "A task-level value proved, per model, to be (or not) the mean of its dataset rows elsewhere."

CHECKS: tuple[Check, ...] = (
    Check(
        "undefined-metric",
        "warning",
        "A metric used in a table or caption that the text never defines and the catalogue does not count as standard.",
        check_undefined_metrics,
        needs=("text", "catalogue"),
        doubt="a definition worded in a way the check does not read as one may exist",
    ),
    Check(
        "aggregate-row",
        "error",
        "A labelled mean or sum (row or column), or a task-level row, recomputed from its parts within rounding.",
        check_aggregates,
        doubt="which cells the line aggregates is read from the layout",
    ),
    Check("cross-table-mean", "warning", CROSS_TABLE_SUMMARY, check_cross_table_means, needs=("records", "catalogue")),
    Check(
        "caption-column-count",
        "warning",
        "A caption that counts N models while the table shows M (in a README, a sentence no table fits).",
        check_caption_counts,
        doubt="what the caption counts (models, runs, members) is read from its words",
    ),
    Check(
        "caption-text-contradiction",
        "warning",
        "A caption that describes the table one way while the text citing it says the opposite.",
        check_contradictions,
        needs=("text",),
        doubt="the opposing words are read from the caption and the citing sentence",
    ),
    Check(
        "error-bars-claimed",
        "warning",
        "The text claims error bars, deviations or intervals while no table prints any.",
        check_error_bars,
        needs=("text",),
        doubt="spreads may sit where the extractor does not look (figures, tables it missed)",
    ),
    Check(
        "bold-not-best",
        "warning",
        "A bold value that is not the best in its row or column under the metric's direction, or a best value "
        "left plain when the caption says best values are bold.",
        check_bold,
        doubt="what bold compares is read from the layout",
    ),
    Check(
        "value-out-of-range",
        "error",
        "A value outside its metric's valid range in the catalogue (accuracy above 1 or 100%, negative MSE).",
        check_ranges,
        needs=("catalogue",),
        doubt="which metric the cell reports is read from its labels",
    ),
    Check(
        "range-nesting",
        "error",
        "A range printed with another in parentheses (a shell, a subgroup) where neither lies inside the other.",
        check_nesting,
        doubt="what the parentheses hold is read from the caption or the table's footnotes",
    ),
    Check(
        "dataset-reused",
        "warning",
        "A dataset the catalogue knows from another benchmark, reported under this paper's own protocol.",
        check_reused_datasets,
        needs=("catalogue",),
        doubt="that the paper presents the dataset as its own is read from its words",
    ),
    Check(
        "text-claim-mismatch",
        "warning",
        "A number the text quotes from a table (citing it, or naming its row and column) that no cell, difference "
        "or mean of that table gives within rounding.",
        check_text_claims,
        needs=("text",),
        doubt="which cell the sentence quotes is read from its words",
    ),
    Check(
        "text-unit-scale",
        "warning",
        "The text quotes a cell in its column's unit but without the power of ten the header prints.",
        check_unit_scales,
        needs=("text",),
        doubt="which cell the sentence quotes is read from its words",
    ),
    Check(
        "text-comparison-swapped",
        "warning",
        "The text says one value is higher (or lower) than another and quotes two cells that go the other way.",
        check_comparisons,
        needs=("text",),
        doubt="the direction and whose value comes first are read from the sentence's words",
    ),
    Check(
        "identifier-truncated",
        "warning",
        "An accession a table prints that the text gives only with more digits.",
        check_identifiers,
        needs=("text",),
        doubt="that the two identifiers name the same data is read from their digits",
    ),
    Check(
        "duplicate-values",
        "warning",
        "Two rows or columns with identical values throughout.",
        check_duplicates,
        doubt="that the two lines should differ is read from their labels",
    ),
    Check("derived-fscore", "error", "An F1 above 2PR/(P+R) (equal to it when micro).", check_fscores),
    Check("derived-rates", "error", "Diagnostic rates that no one prevalence reconciles.", check_rates),
    Check("derived-shares", "error", "A percentage that is not its count over its total.", check_shares),
    Check(
        "derived-sum",
        "warning",
        "Parts that do not add up to the size the paper states: labelled counts in a cell against the block's N, a "
        "count column against the caption's or the text's size, a totals row against the +/- marks above it.",
        check_partitions,
    ),
    Check("derived-delta", "warning", "A gain or difference its own operands do not give.", check_deltas),
    Check(
        "derived-ratio",
        "error",
        "A column the paper defines as a ratio of two others (CV = SD/mean, fold change) that they do not give.",
        check_ratios,
    ),
    Check("derived-confusion", "error", "Per-class recall or precision unlike its confusion matrix.", check_confusion),
    Check(
        "derived-teststat", "error", "A p-value its test statistic does not give.", check_test_statistics, ("scipy",)
    ),
    Check("derived-repeated", "warning", "The same quantity printed twice with two values.", check_repeated),
    Check(
        "reproduction-differs",
        "warning",
        "A printed value outside the interval a re-run of its protocol gives (litaudit probe reproduce).",
        check_reproductions,
        needs=("records",),
        doubt=REPRODUCTION_DOUBT,
    ),
    Check(
        "readings-disagree",
        "error",
        "A cell read twice (the PDF and the authors' LaTeX or HTML) that prints two different values.",
        check_readings,
    ),
)


@dataclass
class CheckRun:
    findings: list[Finding] = field(default_factory=list)
    ran: list[str] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)  # check id -> why


def run_checks(inp: AuditInput, checks: tuple[Check, ...] = CHECKS) -> CheckRun:
    """Every check whose inputs are present; the others are listed with the reason they were skipped."""
    result = CheckRun()
    for check in steps(checks, len(checks), "checks"):
        missing = check.missing(inp)
        if missing:
            result.skipped[check.id] = "needs " + " and ".join(_NEEDS[m] for m in missing)
            continue
        result.ran.append(check.id)
        issues: list[Issue] = check.run(inp)
        result.findings.extend(make_finding(inp, check, issue) for issue in issues)
    unique = {f.id: f for f in result.findings}
    result.findings = sort_findings(list(unique.values()))
    return result


_NEEDS = {
    "scipy": "scipy (pip install 'litaudit[stats]')",
    "text": "the paper's text (sources/<sid>/source.pdf, or its text source)",
    "catalogue": "the catalogue (config/catalogue/*.yaml)",
    "records": "the records (extracted/<sid>/records.jsonl)",
}
