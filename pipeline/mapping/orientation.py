"""Which way a table runs: models in columns (datasets as rows) or models in rows (datasets as columns)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pipeline.mapping.model import MODELS_IN_COLUMNS, MODELS_IN_ROWS


@dataclass(frozen=True)
class AxisEvidence:
    """How the distinct labels along one axis score against datasets and against configurations."""

    labels: int
    datasets: int  # labels naming a catalogue dataset
    configurations: int  # labels naming a model configuration

    @classmethod
    def of(cls, scores: Sequence[tuple[float, float]], threshold: float) -> AxisEvidence:
        """``scores``: (best dataset score, best configuration score) per distinct label; a label at or above
        ``threshold`` names one."""
        return cls(
            labels=len(scores),
            datasets=sum(d >= threshold for d, _ in scores),
            configurations=sum(c >= threshold for _, c in scores),
        )

    def share(self, count: int) -> float:
        return count / self.labels if self.labels else 0.0


def decide_orientation(rows: AxisEvidence, columns: AxisEvidence) -> tuple[str, str]:
    """The orientation and the evidence for it, in words."""
    by_columns = columns.share(columns.configurations) + rows.share(rows.datasets)
    by_rows = rows.share(rows.configurations) + columns.share(columns.datasets)
    evidence = (
        f"{columns.configurations} of {columns.labels} column labels name a configuration and "
        f"{rows.datasets} of {rows.labels} row labels a dataset; {rows.configurations} of {rows.labels} row labels "
        f"name a configuration and {columns.datasets} of {columns.labels} column labels a dataset"
    )
    if by_rows > by_columns:
        return MODELS_IN_ROWS, evidence
    if by_rows == by_columns:
        return MODELS_IN_COLUMNS, evidence + " (no evidence either way: the usual layout, models in columns, assumed)"
    return MODELS_IN_COLUMNS, evidence
