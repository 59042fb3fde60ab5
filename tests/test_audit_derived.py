"""The derived-* family: every planted slip found, and no error or warning on the look-alikes, through the real
CLI (fetch --file -> extract -> map -> emit -> audit) on one generated paper per relation kind; and the
relations themselves on the real papers' printed numbers."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from conftest import Invoke
from papers.derived_paper import DERIVED_PAPERS, derived_paper
from planted import assert_found_exactly, audit_planted

from pipeline.audit.checks.derived.evidence import Operand
from pipeline.audit.checks.derived.fscore import harmonic
from pipeline.audit.checks.derived.rates import _culprits, _feasible, _swap
from pipeline.audit.checks.derived.teststat import Report, fits
from pipeline.numbers import Interval, parse_number
from pipeline.store import Workspace, safe_id


def _derived(check: str) -> bool:
    return check.startswith("derived-")


@pytest.mark.parametrize("kind", list(DERIVED_PAPERS))
def test_every_planted_slip_is_found_and_no_look_alike_is_flagged(
    kind: str, invoke: Invoke, workspace: Workspace, tmp_path: Path
) -> None:
    spec = derived_paper(kind)
    planted, problems = audit_planted(spec, f"derived-{kind}", invoke, workspace, tmp_path, _derived)
    assert_found_exactly(planted, problems)
    for finding in problems:  # evidence: the relation, the inputs with their cells, the interval, why it applies
        details = finding["details"]
        assert details["relation"] and details["computed"] and details["why"] and details["inputs"]
        assert len(finding["locators_readable"]) >= 1
    report = (workspace.root / "audits" / safe_id(f"local:derived-{kind}") / "report.md").read_text()
    assert report.count("applies because") >= len(problems)  # the reviewer reads why the relation applies


def _interval(text: str) -> Interval:
    number = parse_number(text)
    assert number is not None
    return number.interval


def test_f1_is_bounded_by_the_harmonic_mean_of_precision_and_recall() -> None:
    bound = harmonic(_interval("0.812"), _interval("0.774"))
    assert bound.below(_interval("0.806"))  # above the bound: impossible under any averaging
    assert not bound.below(_interval("0.702"))  # below it: what macro averaging gives


def _masks(values: dict[str, str], orientation: int = 0) -> dict[str, list[bool]]:
    se, sp = _interval(values["se"]), _interval(values["sp"])
    roles = [r for r in ("acc", "ppv", "npv", "nir", "kappa") if r in values]
    return {r: _feasible(r, se, sp, _interval(values[_swap(r, orientation)])) for r in roles}


def test_the_smoking_paper_npv_is_the_one_rate_no_shared_prevalence_gives() -> None:
    # bmc_smoking_dnam_classifiers Table 3, Agnostic LASSO, ever/never, training data (as printed)
    printed = {"acc": "0.792", "nir": "0.658", "kappa": "0.577", "se": "0.744", "sp": "0.885", "ppv": "0.925"}
    assert _culprits(_masks({**printed, "npv": "0.658"})) == ["npv"]
    assert _culprits(_masks({**printed, "npv": "0.658"}, orientation=1)) != ["acc"]
    masks = _masks({**printed, "npv": "0.643"})
    assert any(all(m[i] for m in masks.values()) for i in range(len(masks["acc"])))


def test_a_p_value_is_checked_against_both_sides_of_a_t_test() -> None:
    def report(stat: str, df: int, p: str) -> Report:
        s, q = parse_number(stat), parse_number(p)
        assert s is not None and q is not None
        return Report("t", Operand("statistic", (0, 0), s), (float(df),), Operand("p", (0, 1), q), "=")

    assert fits(report("2.20", 28, "0.036"), "two-sided")
    assert fits(report("2.20", 28, "0.018"), "one-sided") and not fits(report("2.20", 28, "0.018"), "two-sided")
    assert not any(fits(report("1.87", 30, "0.021"), v) for v in ("two-sided", "one-sided"))


def test_only_whole_number_matrices_of_n_cases_reproduce_printed_rates() -> None:
    from pipeline.audit.checks.derived.matrix import RATES, matrices

    printed = {r: _interval(f"{RATES[r]((150, 50, 30, 270)) or 0:.3f}") for r in RATES}
    assert (150, 50, 30, 270) in matrices(500, printed)
    assert matrices(500, {**printed, "npv": _interval("0.860")}) == []
    assert matrices(499, printed) == []  # the same rates from 499 cases: no matrix gives them all


def test_a_p_value_printed_with_a_power_of_ten_is_an_interval() -> None:
    p = parse_number("3.4 × 10-5")
    assert p is not None and p.interval.lo < Fraction(34, 10**6) < p.interval.hi
    assert p.interval.hi - p.interval.lo == Fraction(1, 10**6)
