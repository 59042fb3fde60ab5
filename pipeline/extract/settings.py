"""The extractor's knobs, validated, with defaults; recorded in every tables.json."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from pipeline.errors import ConfigError

EXTRACTOR_VERSION = "0.4.0"


@dataclass(frozen=True)
class ExtractionSettings:
    """Distances are in multiples of the local font size (em) unless named ``_pt`` (points)."""

    word_gap: float = 0.12  # a gap wider than this between two glyphs starts a new word
    cell_gap: float = 0.55  # words closer than this belong to the same cell (before columns are known)
    column_gap: float = 0.45  # narrowest whitespace band across body rows that separates two columns
    rule_thickness_pt: float = 2.5  # a graphic thinner than this is a rule
    min_rule_length_pt: float = 8.0
    max_row_gap: float = 2.6  # a vertical gap wider than this (in line heights) ends a region without rules
    caption_gap: float = 3.5  # the table must start within this many line heights of its caption
    find_uncaptioned: bool = True  # look for ruled and whitespace tables that have no caption
    max_pages: int = 2000

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            expected = type(f.default)
            if not isinstance(value, expected) and not (expected is float and type(value) is int):
                raise ConfigError(f"extraction setting {f.name}: expected {expected.__name__}, got {value!r}")
            if expected is float and value <= 0:
                raise ConfigError(f"extraction setting {f.name}: must be positive (got {value})")
        if self.max_pages < 1:
            raise ConfigError("extraction setting max_pages: must be at least 1")

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ExtractionSettings:
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise ConfigError(f"extraction settings: unknown key(s) {', '.join(unknown)}")
        return cls(**data)
