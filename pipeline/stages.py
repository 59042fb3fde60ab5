"""The pipeline's stages, in order, and what each reads and writes.

A stage's function takes ``(workspace, source_id, settings)``, writes its outputs (atomically) and
returns a :class:`StageReport`. The runner records the hashes of the inputs it read and of the outputs
it wrote, which is how ``litaudit status`` tells done from stale or modified (pipeline/state.py). A stage
depends on the stages whose outputs it reads, so staleness flows downstream by itself.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pipeline.settings import Settings
from pipeline.store import ARTIFACT_FILES, Workspace


@dataclass
class StageReport:
    """What a stage did for one source; ``problems`` counts what it found wrong (exit 1 when > 0)."""

    problems: int = 0
    summary: dict[str, Any] = field(default_factory=dict)


StageFunction = Callable[[Workspace, str, Settings], StageReport]


@dataclass(frozen=True)
class Stage:
    name: str
    target: str  # "module:function" of the StageFunction, imported only when the stage runs ("" for fetch)
    inputs: tuple[str, ...]  # workspace-relative paths or globs; {sid} is the source's folder name
    outputs: tuple[str, ...]
    help: str = ""

    def function(self) -> StageFunction:
        module, _, attr = self.target.partition(":")
        return getattr(importlib.import_module(module), attr)  # type: ignore[no-any-return]

    @property
    def state_path(self) -> str:
        """Where the runner records this stage's inputs and outputs for a source."""
        folder = self.outputs[0].rsplit("/", 1)[0]
        return f"{folder}/.{self.name}.state.json"


FETCH = "fetch"
ARTIFACTS = tuple(f"sources/{{sid}}/{name}" for name in ARTIFACT_FILES)  # absent ones hash to nothing
TEXT_ARTIFACTS = ARTIFACTS[1:]  # the audit reads a text source's prose where there is no PDF

# fetch has its own command (it talks to the network); it is a Stage so that its outputs are checked like any other.
FETCH_STAGE = Stage(
    FETCH,
    "",
    inputs=(),
    outputs=("sources/{sid}/source.pdf", "sources/{sid}/source.json", *ARTIFACTS[1:]),
    help="Retrieve the PDF (and the authors' source), hash them and record their provenance.",
)

# The stages the runner runs, in order.
STAGES: tuple[Stage, ...] = (
    Stage(
        "extract",
        "pipeline.extract.stage:run",
        inputs=ARTIFACTS,
        outputs=("extracted/{sid}/tables.json",),
        help="Find every table, its caption and label, and every cell with a locator.",
    ),
    Stage(
        "map",
        "pipeline.mapping.stage:run",
        inputs=(
            "extracted/{sid}/tables.json",
            "config/catalogue/*.yaml",
            "config/overrides.yaml",
            "config/models.yaml",  # registry models count as configurations
        ),
        outputs=("extracted/{sid}/mapping.json",),
        help="Link rows and columns to the catalogue's datasets, metrics and configurations.",
    ),
    Stage(
        "emit",
        "pipeline.emit.stage:run",
        inputs=("extracted/{sid}/tables.json", "extracted/{sid}/mapping.json"),
        outputs=(
            "extracted/{sid}/records.jsonl",
            "extracted/{sid}/candidates.json",
        ),
        help="Write review-ready records, validated against the schema, each traceable to its cell.",
    ),
    Stage(
        "audit",
        "pipeline.audit.stage:run",
        inputs=(
            "sources/{sid}/source.pdf",
            "sources/{sid}/source.json",
            *TEXT_ARTIFACTS,
            "extracted/{sid}/tables.json",
            "extracted/{sid}/records.jsonl",
            "config/catalogue/*.yaml",
            "audits/{sid}/reviews.jsonl",
            "audits/{sid}/reproductions.jsonl",
        ),
        outputs=(
            "audits/{sid}/findings.json",
            "audits/{sid}/records.jsonl",
            "audits/{sid}/report.html",
            "audits/{sid}/report.md",
            "audits/{sid}/source_record.json",
        ),
        help="Flag inconsistencies and write the reviewer's reports.",
    ),
)


PIPELINE: tuple[Stage, ...] = (FETCH_STAGE, *STAGES)


def upstream_of(stage: Stage) -> tuple[Stage, ...]:
    """The stages whose outputs ``stage`` reads."""
    return tuple(s for s in PIPELINE if s.name != stage.name and set(s.outputs) & set(stage.inputs))


def get_stage(name: str) -> Stage:
    for stage in STAGES:
        if stage.name == name:
            return stage
    raise KeyError(name)
