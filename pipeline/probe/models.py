"""The model registry (``config/models.yaml``): which embedder re-runs the cells of a printed configuration.

A record names its configuration as the catalogue does, and its mapping keeps the name as printed; an
entry answers to its configuration and aliases, compared without regard to case or spacing. ``hf:``
entries point at local folders only; a folder that is missing is "no weights here", and one whose files
do not hash to ``weights_sha256`` is refused, so a reproduction always names the weights it ran.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from pipeline.errors import ConfigError
from pipeline.model import Record
from pipeline.probe.kinds import KINDS
from pipeline.shipped import SHIPPED_CONFIG
from pipeline.yamlio import read_yaml

MODELS_FILE = "models.yaml"

_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["models"],
    "properties": {
        "models": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["configuration", "embedder"],
                "properties": {
                    "configuration": {"type": "string", "minLength": 1},
                    "aliases": {"type": "array", "items": {"type": "string", "minLength": 1}},
                    "embedder": {"type": "string", "pattern": "^(" + "|".join(KINDS) + ")(:.*)?$"},
                    "weights_sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
                    "revision": {"type": "string"},
                    "trust_remote_code": {"type": "boolean"},
                    "notes": {"type": "string"},
                },
            },
        }
    },
}
_VALIDATOR = Draft202012Validator(_SCHEMA)


def normal_name(name: str) -> str:
    return " ".join(name.split()).casefold()


@dataclass(frozen=True)
class ModelEntry:
    configuration: str
    embedder: str  # kmer:K | null[:DIM] | hf:PATH (PATH relative to the workspace root)
    aliases: tuple[str, ...] = ()
    weights_sha256: str | None = None
    revision: str | None = None
    trust_remote_code: bool = False
    notes: str = ""

    @property
    def kind(self) -> str:
        return self.embedder.partition(":")[0]

    @property
    def names(self) -> tuple[str, ...]:
        return (self.configuration, *self.aliases)

    def folder(self, root: Path) -> Path | None:
        """The weights folder of an ``hf:`` entry (None for embedders that need no weights)."""
        if self.kind != "hf":
            return None
        path = Path(self.embedder.partition(":")[2])
        return path if path.is_absolute() else root / path

    def spec(self, root: Path) -> str:
        """The ``--model`` value that runs this entry, with an ``hf:`` path made absolute."""
        folder = self.folder(root)
        return f"hf:{folder}" if folder is not None else self.embedder

    def to_dict(self) -> dict[str, Any]:
        return {
            "configuration": self.configuration,
            "aliases": list(self.aliases),
            "embedder": self.embedder,
            "weights_sha256": self.weights_sha256,
            "revision": self.revision,
            "trust_remote_code": self.trust_remote_code,
            "notes": self.notes,
        }


@dataclass
class ModelRegistry:
    entries: list[ModelEntry] = field(default_factory=list)
    file: str = ""

    def find(self, names: list[str]) -> ModelEntry | None:
        """The first entry answering to any of the names (the catalogue's first, then as printed)."""
        for name in names:
            wanted = normal_name(name)
            for entry in self.entries:
                if wanted in {normal_name(n) for n in entry.names}:
                    return entry
        return None


def record_names(record: Record) -> list[str]:
    """The names a record gives its configuration: the catalogue's name and id, then the printed label."""
    mapped = record.mapping.get("configuration") if isinstance(record.mapping, dict) else None
    ids = record.mapping.get("ids", {}) if isinstance(record.mapping, dict) else {}
    printed = mapped.get("label") if isinstance(mapped, dict) else None
    names = [record.configuration, ids.get("configuration") if isinstance(ids, dict) else None, printed, record.model]
    return [n for n in names if isinstance(n, str) and n.strip()]


def models_path(config_dir: Path) -> Path:
    """The workspace's ``config/models.yaml`` when it has one, else the one shipped with litaudit."""
    own = config_dir / MODELS_FILE
    return own if own.is_file() else SHIPPED_CONFIG / MODELS_FILE


def load_models(config_dir: Path) -> ModelRegistry:
    path = models_path(config_dir)
    data = read_yaml(path, _VALIDATOR)
    if data is None:
        raise ConfigError(f"{path}: empty file, not a model registry (expected 'models:')")
    entries = [
        ModelEntry(
            configuration=item["configuration"],
            embedder=item["embedder"],
            aliases=tuple(item.get("aliases", ())),
            weights_sha256=item.get("weights_sha256"),
            revision=item.get("revision"),
            trust_remote_code=item.get("trust_remote_code", False),
            notes=" ".join(item.get("notes", "").split()),
        )
        for item in data["models"]
    ]
    seen: dict[str, str] = {}
    for entry in entries:
        if entry.kind == "hf" and not entry.embedder.partition(":")[2]:
            raise ConfigError(f"{path}: {entry.configuration}: hf: needs a model folder (hf:PATH)")
        if entry.kind != "hf" and (entry.weights_sha256 or entry.trust_remote_code):
            raise ConfigError(f"{path}: {entry.configuration}: weights_sha256 and trust_remote_code are for hf: only")
        for name in entry.names:
            key = normal_name(name)
            if key in seen and seen[key] != entry.configuration:
                raise ConfigError(f"{path}: the name {name!r} belongs to {seen[key]!r} and {entry.configuration!r}")
            seen[key] = entry.configuration
    return ModelRegistry(entries, str(path))


@dataclass(frozen=True)
class Weights:
    """Whether an entry can run here, and the hash of what it would run."""

    present: bool
    sha256: str | None = None
    problem: str = ""  # why it cannot run, when it cannot


def check_weights(entry: ModelEntry, root: Path) -> Weights:
    folder = entry.folder(root)
    if folder is None:
        return Weights(True)
    if not (folder / "config.json").is_file():
        return Weights(False, problem=f"no weights here ({folder} has no config.json)")
    from pipeline.probe.hf import folder_revision  # hashing needs no torch

    found = folder_revision(folder)
    if entry.weights_sha256 and found != entry.weights_sha256:
        return Weights(
            False, found, f"weights at {folder} hash to {found[:12]}, not the registered {entry.weights_sha256[:12]}"
        )
    return Weights(True, found)
