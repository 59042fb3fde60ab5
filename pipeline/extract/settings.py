"""The extractor's knobs, validated, with defaults; recorded in every tables.json and in the stage's state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from pipeline.errors import ConfigError
from pipeline.stage_settings import StageSettings

EXTRACTOR_VERSION = "0.6.0"
MAX_TEXT_BYTES = 8 * 1024 * 1024  # a text source is held several times over while it is read


@dataclass(frozen=True)
class ExtractionSettings(StageSettings):
    """Distances are in multiples of the local font size (em) unless named ``_pt`` (points)."""

    stage: ClassVar[str] = "extract"

    word_gap: float = 0.12  # a gap wider than this between two glyphs starts a new word
    cell_gap: float = 0.55  # words closer than this belong to the same cell (before columns are known)
    column_gap: float = 0.45  # narrowest whitespace band across body rows that separates two columns
    rule_thickness_pt: float = 2.5  # a graphic thinner than this is a rule
    min_rule_length_pt: float = 8.0
    max_row_gap: float = 2.6  # a vertical gap wider than this (in line heights) ends a region without rules
    caption_gap: float = 3.5  # the table must start within this many line heights of its caption
    find_uncaptioned: bool = True  # look for ruled and whitespace tables that have no caption
    max_pages: int = 2000
    max_text_bytes: int = MAX_TEXT_BYTES  # a LaTeX, HTML or Markdown source larger than this is refused, named

    def check(self) -> None:
        if self.max_pages < 1:
            raise ConfigError("extract setting max_pages: must be at least 1")
