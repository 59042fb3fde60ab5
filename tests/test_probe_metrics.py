"""Our metrics agree with scikit-learn's, and the bootstrap interval covers the truth as often as it claims."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.metrics import accuracy_score, f1_score, matthews_corrcoef

from pipeline.probe.metrics import Group, bootstrap_interval, mean_over_groups

SKLEARN = {
    "accuracy": accuracy_score,
    "macro_f1": lambda t, p: f1_score(t, p, average="macro", zero_division=0),
    "mcc": matthews_corrcoef,
}


@pytest.mark.parametrize("name", sorted(SKLEARN))
def test_agrees_with_scikit_learn_on_the_same_predictions(name: str) -> None:
    rng = np.random.default_rng(0)
    cases = []
    for _ in range(150):
        k, n = int(rng.integers(2, 5)), int(rng.integers(1, 40))
        y_true = rng.integers(0, k, n)
        y_pred = np.where(rng.random(n) < 0.6, y_true, rng.integers(0, k, n))
        cases.append((k, y_true, y_pred))
    cases += [(2, np.array([0, 1, 1, 0]), np.zeros(4, dtype=int)), (3, np.array([2, 2]), np.array([2, 2]))]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scikit-learn warns on single-label inputs
        for k, y_true, y_pred in cases:
            ours = float(Group(y_true, y_pred, k).metric(name))
            assert ours == pytest.approx(SKLEARN[name](y_true, y_pred), abs=1e-12)


def test_group_averages_runs_and_groups() -> None:
    truth = np.array([0, 1, 1, 0])
    group = Group(truth, np.array([[0, 1, 1, 0], [1, 1, 1, 0]]), 2)
    assert float(group.metric("accuracy")) == pytest.approx((1.0 + 0.75) / 2)
    other = Group(truth, np.array([[1, 0, 0, 1]]), 2)
    assert mean_over_groups([group, other], "accuracy") == pytest.approx((0.875 + 0.0) / 2)


def test_interval_covers_the_truth_in_a_simulation() -> None:
    rng = np.random.default_rng(42)
    truth, n, trials, covered = 0.8, 300, 120, 0
    for trial in range(trials):
        y_true = rng.integers(0, 2, n)
        y_pred = np.where(rng.random(n) < truth, y_true, 1 - y_true)
        low, high = bootstrap_interval([Group(y_true, y_pred, 2)], "accuracy", resamples=400, seed=trial)
        assert low <= float(Group(y_true, y_pred, 2).metric("accuracy")) <= high
        covered += low <= truth <= high
    assert 0.88 <= covered / trials <= 0.99


def test_interval_of_a_mean_over_datasets_is_narrower_than_each() -> None:
    rng = np.random.default_rng(3)
    groups = []
    for _ in range(4):
        y_true = rng.integers(0, 2, 200)
        groups.append(Group(y_true, np.where(rng.random(200) < 0.7, y_true, 1 - y_true), 2))
    low, high = bootstrap_interval(groups, "macro_f1", resamples=300, seed=1)
    single = [bootstrap_interval([g], "macro_f1", resamples=300, seed=1) for g in groups]
    assert low < mean_over_groups(groups, "macro_f1") < high
    assert high - low < min(h - lo for lo, h in single)
    assert bootstrap_interval(groups, "macro_f1", resamples=300, seed=1) == (low, high)
