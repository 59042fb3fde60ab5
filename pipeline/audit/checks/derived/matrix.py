"""Integer confusion matrices of N cases that reproduce printed rates: the check the prevalence solve cannot do.

A printed N makes the rates discrete: TP + FN positives and TN + FP negatives are whole numbers summing to N,
so Se, Sp, PPV, NPV, accuracy, NIR, prevalence and Kappa can only take the values such matrices give. The
search runs over the number of positives and, for each, over the few true-positive and true-negative counts
the printed Se and Sp allow, so it stays small (about N x 10 x 10 matrices).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from pipeline.numbers import Interval

Matrix = tuple[int, int, int, int]  # TP, FN, FP, TN
_EPS = 1e-9


def _ratio(a: int, b: int) -> float | None:
    return a / b if b else None


def _kappa(m: Matrix) -> float | None:
    tp, fn, fp, tn = m
    n = tp + fn + fp + tn
    chance = ((tp + fn) * (tp + fp) + (fp + tn) * (fn + tn)) / (n * n)
    return ((tp + tn) / n - chance) / (1 - chance) if chance < 1 else None


RATES: dict[str, Callable[[Matrix], float | None]] = {
    "se": lambda m: _ratio(m[0], m[0] + m[1]),
    "sp": lambda m: _ratio(m[3], m[3] + m[2]),
    "ppv": lambda m: _ratio(m[0], m[0] + m[2]),
    "npv": lambda m: _ratio(m[3], m[3] + m[1]),
    "acc": lambda m: _ratio(m[0] + m[3], sum(m)),
    "nir": lambda m: _ratio(max(m[0] + m[1], m[2] + m[3]), sum(m)),
    "prev": lambda m: _ratio(m[0] + m[1], sum(m)),
    "kappa": _kappa,
    "bacc": lambda m: (m[0] / (m[0] + m[1]) + m[3] / (m[3] + m[2])) / 2 if m[0] + m[1] and m[3] + m[2] else None,
}


def matrices(n: int, printed: dict[str, Interval], limit: int = 50, positives: int | None = None) -> list[Matrix]:
    """Matrices of ``n`` cases (``positives`` of them positive, when the paper states it) whose every rate named
    in ``printed`` (fractions, not percentages) lies in its interval; at most ``limit`` of them."""
    se, sp = printed["se"], printed["sp"]
    found: list[Matrix] = []
    for pos in range(1, n) if positives is None else (positives,):
        negatives = n - pos
        for tp in range(
            max(0, math.ceil(float(se.lo) * pos - _EPS)),
            min(pos, math.floor(float(se.hi) * pos + _EPS)) + 1,
        ):
            for tn in range(
                max(0, math.ceil(float(sp.lo) * negatives - _EPS)),
                min(negatives, math.floor(float(sp.hi) * negatives + _EPS)) + 1,
            ):
                matrix = (tp, pos - tp, negatives - tn, tn)
                if all(_within(RATES[r](matrix), i) for r, i in printed.items()):
                    found.append(matrix)
                    if len(found) >= limit:
                        return found
    return found


def _within(value: float | None, interval: Interval) -> bool:
    return value is not None and float(interval.lo) - _EPS <= value <= float(interval.hi) + _EPS
