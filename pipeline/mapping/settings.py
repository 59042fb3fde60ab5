"""The map stage's tolerances: how alike a label must be to link, and how benchmarks and scales are chosen."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from pipeline.errors import ConfigError
from pipeline.stage_settings import StageSettings


@dataclass(frozen=True)
class MapSettings(StageSettings):
    """Scores are rapidfuzz token-sort ratios (0-100); shares are fractions of a table's values."""

    stage: ClassVar[str] = "map"

    threshold: float = 90.0  # lowest score accepted as a link
    number_mismatch_cap: float = 60.0  # "TF 0" is not "TF 1", however alike the strings look
    part_mismatch_cap: float = 60.0  # "Promoter Detection" (the task) is not "Promoter Detection all" (a dataset)
    alternatives: int = 3  # next-best candidates listed with each link, for the reviewer
    caption_bonus: float = 5.0  # per label: a benchmark the caption names wins a near tie
    document_bonus: float = 5.0  # per label: the benchmark most of the paper's other tables report wins a near tie
    model_weight: float = 0.5  # a model label counts this much of a dataset label when choosing a benchmark
    same_data_weight: float = 0.9  # a label naming another benchmark's copy of a dataset: the model labels decide
    infer_share: float = 0.8  # share of a metric's values on a 0-100 scale that reads the table as percent
    caption_share: float = 0.5  # the same share when the caption prints a "%"

    def check(self) -> None:
        for name in ("threshold", "number_mismatch_cap", "part_mismatch_cap"):
            if getattr(self, name) > 100:
                raise ConfigError(f"map setting {name}: a score is at most 100")
        for name in ("model_weight", "same_data_weight", "infer_share", "caption_share"):
            if getattr(self, name) > 1:
                raise ConfigError(f"map setting {name}: a share or weight is at most 1")
