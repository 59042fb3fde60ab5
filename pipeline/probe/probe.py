"""The linear probe: (optionally) StandardScaler + LogisticRegression, C fixed or chosen by CV on log-loss.

The scaler sits inside the cross-validated pipeline, so C is chosen without the held-out fold leaking
into the scaling.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import StandardScaler

from pipeline.errors import BadInputError, ConfigError


class ProbeError(BadInputError):
    """The probe cannot be fitted on the items drawn (e.g. a train draw with a single class)."""


SCORINGS = {"log_loss": "neg_log_loss", "accuracy": "accuracy"}


@dataclass(frozen=True)
class ProbeSettings:
    scaler: bool = True
    c: float = 1.0  # used when c_grid is empty or CV is impossible
    c_grid: tuple[float, ...] = ()  # candidates for C, chosen by stratified k-fold CV inside train
    cv_folds: int = 5
    cv_scoring: str = "log_loss"
    max_iter: int = 1000

    def __post_init__(self) -> None:
        if self.c <= 0 or any(c <= 0 for c in self.c_grid):
            raise ConfigError("probe: C values must be positive")
        if self.cv_folds < 2:
            raise ConfigError("probe: cv_folds must be at least 2")
        if self.cv_scoring not in SCORINGS:
            raise ConfigError(f"probe: cv_scoring {self.cv_scoring!r} is not one of {', '.join(SCORINGS)}")
        if self.max_iter < 1:
            raise ConfigError("probe: max_iter must be at least 1")

    @property
    def uses_seed(self) -> bool:
        """Whether the seed changes the fit (only through CV fold shuffling; lbfgs itself is deterministic)."""
        return bool(self.c_grid)

    def to_dict(self) -> dict[str, Any]:
        return {
            "model": "LogisticRegression(lbfgs)",
            "scaler": "StandardScaler" if self.scaler else None,
            "C": None if self.c_grid else self.c,
            "C_grid": list(self.c_grid),
            "cv_folds": self.cv_folds if self.c_grid else None,
            "cv_scoring": self.cv_scoring if self.c_grid else None,
            "max_iter": self.max_iter,
        }


@dataclass
class ProbeFit:
    predictions: np.ndarray
    c: float
    cv_folds: int | None
    converged: bool
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"C": self.c, "cv_folds": self.cv_folds, "converged": self.converged, "notes": self.notes}


def _estimator(settings: ProbeSettings, c: float, seed: int) -> Pipeline | LogisticRegression:
    model = LogisticRegression(C=c, max_iter=settings.max_iter, random_state=seed)
    return make_pipeline(StandardScaler(), model) if settings.scaler else model


def fit_predict(
    x_train: np.ndarray, y_train: np.ndarray, x_test: np.ndarray, settings: ProbeSettings, seed: int
) -> ProbeFit:
    """Fit on train, predict test; C by CV when a grid is set and every class has at least two train items."""
    _, class_counts = np.unique(y_train, return_counts=True)
    if len(class_counts) < 2:
        raise ProbeError(f"the train draw has {len(y_train)} items of a single class: nothing to probe")
    notes: list[str] = []
    smallest_class = int(class_counts.min())
    folds = min(settings.cv_folds, smallest_class)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # reported below, for the final fit only
        if settings.c_grid and folds >= 2:
            if folds < settings.cv_folds:
                notes.append(f"{folds}-fold CV: the smallest class has {smallest_class} train items")
            name = "logisticregression__C" if settings.scaler else "C"
            search = GridSearchCV(
                _estimator(settings, settings.c, seed),
                {name: list(settings.c_grid)},
                scoring=SCORINGS[settings.cv_scoring],
                cv=StratifiedKFold(n_splits=folds, shuffle=True, random_state=seed),
                refit=True,
            )
            search.fit(x_train, y_train)
            model, c = search.best_estimator_, float(search.best_params_[name])
        else:
            if settings.c_grid:
                notes.append(f"C fixed at {settings.c}: a class has fewer than 2 train items, too few for CV")
            model, c = _estimator(settings, settings.c, seed), settings.c
            model.fit(x_train, y_train)
        predictions = model.predict(x_test)
    final = model[-1] if isinstance(model, Pipeline) else model
    converged = bool(np.all(final.n_iter_ < settings.max_iter))
    if not converged:
        notes.append(f"lbfgs stopped at max_iter={settings.max_iter} before converging")
    cv_folds = folds if settings.c_grid and folds >= 2 else None
    return ProbeFit(np.asarray(predictions, dtype=np.int64), c, cv_folds, converged, notes)
