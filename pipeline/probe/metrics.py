"""Accuracy, macro-F1 and MCC from confusion matrices, and percentile bootstrap intervals.

Computing from confusion matrices lets one call score a thousand resamples at once; the formulas are
scikit-learn's (macro-F1 averages over the labels present in truth or prediction; a 0/0 scores 0).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

MetricFunction = Callable[[np.ndarray], np.ndarray]


def confusion(y_true: np.ndarray, y_pred: np.ndarray, n_classes: int) -> np.ndarray:
    """Confusion matrices (rows: truth) for the last axis of ``y_true``/``y_pred``; leading axes are batches."""
    codes = np.asarray(y_true, dtype=np.int64) * n_classes + np.asarray(y_pred, dtype=np.int64)
    lead = codes.shape[:-1]
    flat = codes.reshape(-1, codes.shape[-1])
    offsets = (np.arange(flat.shape[0]) * n_classes * n_classes)[:, None]
    counts = np.bincount((flat + offsets).ravel(), minlength=flat.shape[0] * n_classes * n_classes)
    return counts.reshape(*lead, n_classes, n_classes).astype(np.float64)


def _safe_divide(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    out = np.zeros_like(num, dtype=np.float64)
    np.divide(num, den, out=out, where=den != 0)
    return out


def accuracy(cm: np.ndarray) -> np.ndarray:
    return _safe_divide(np.trace(cm, axis1=-2, axis2=-1), cm.sum(axis=(-2, -1)))


def macro_f1(cm: np.ndarray) -> np.ndarray:
    tp = np.diagonal(cm, axis1=-2, axis2=-1)
    true_counts, pred_counts = cm.sum(axis=-1), cm.sum(axis=-2)
    f1 = _safe_divide(2 * tp, true_counts + pred_counts)
    present = (true_counts + pred_counts) > 0
    return _safe_divide((f1 * present).sum(axis=-1), present.sum(axis=-1).astype(np.float64))


def mcc(cm: np.ndarray) -> np.ndarray:
    """Matthews correlation, multiclass (Gorodkin's R_K, as scikit-learn computes it)."""
    true_counts, pred_counts = cm.sum(axis=-1), cm.sum(axis=-2)
    correct = np.trace(cm, axis1=-2, axis2=-1)
    total = cm.sum(axis=(-2, -1))
    cov_tp = correct * total - (true_counts * pred_counts).sum(axis=-1)
    cov_pp = total**2 - (pred_counts**2).sum(axis=-1)
    cov_tt = total**2 - (true_counts**2).sum(axis=-1)
    return _safe_divide(cov_tp, np.sqrt(cov_tt * cov_pp))


METRICS: dict[str, MetricFunction] = {"accuracy": accuracy, "macro_f1": macro_f1, "mcc": mcc}


@dataclass(frozen=True)
class Group:
    """One dataset's test labels and the predictions of each run on it (shape: runs x items)."""

    y_true: np.ndarray
    y_pred: np.ndarray
    n_classes: int

    def per_run(self, name: str) -> np.ndarray:
        return METRICS[name](confusion(self.y_true, np.atleast_2d(self.y_pred), self.n_classes))

    def metric(self, name: str, rows: np.ndarray | None = None) -> np.ndarray:
        """Mean over runs of the metric, for each resample in ``rows`` (item positions) or the items as they are."""
        if rows is None:
            return np.asarray(self.per_run(name).mean())
        pred = np.atleast_2d(self.y_pred)
        cm = confusion(self.y_true[rows], pred[:, rows], self.n_classes)  # runs x resamples x K x K
        return METRICS[name](cm).mean(axis=0)


def mean_over_groups(groups: Sequence[Group], name: str) -> float:
    return float(np.mean([g.metric(name) for g in groups]))


def bootstrap_interval(
    groups: Sequence[Group],
    name: str,
    resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
    chunk: int = 100,
) -> tuple[float, float]:
    """Percentile interval of the mean over groups, resampling test items within each group."""
    rng = np.random.default_rng(seed)
    totals = np.zeros(resamples)
    for group in groups:
        n = len(group.y_true)
        for start in range(0, resamples, chunk):
            stop = min(start + chunk, resamples)
            rows = rng.integers(0, n, size=(stop - start, n))
            totals[start:stop] += group.metric(name, rows)
    means = totals / len(groups)
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(means, [tail, 100 - tail])
    return float(low), float(high)
