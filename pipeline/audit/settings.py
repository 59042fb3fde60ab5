"""The audit stage's tolerances: how sure the extraction must be before a finding counts, and the crops."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from pipeline.errors import ConfigError
from pipeline.stage_settings import StageSettings


@dataclass(frozen=True)
class AuditSettings(StageSettings):
    """Confidences are the extractor's per-table confidence (0-1); crop sizes are in points and a scale."""

    stage: ClassVar[str] = "audit"
    may_be_zero: ClassVar[frozenset[str]] = frozenset({"needs_check_below", "proof_confidence", "crop_margin"})

    needs_check_below: float = 0.5  # below this confidence no finding of a table counts as a problem
    proof_confidence: float = 0.8  # the confidence an error's table needs
    crop_scale: float = 2.0  # report crops at 144 dpi: readable superscripts, small files
    crop_margin: float = 8.0  # points around the table region in a crop

    def check(self) -> None:
        if not self.needs_check_below <= self.proof_confidence <= 1:
            raise ConfigError("audit settings: needs_check_below <= proof_confidence <= 1 is required")
