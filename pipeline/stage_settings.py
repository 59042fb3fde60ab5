"""Each stage's tolerances as one validated dataclass: its defaults, then ``config/<stage>.yaml`` when the
workspace has one, then ``--set stage.key=value`` from the command line.

The effective values are recorded in the stage's state, so a changed tolerance makes the stage stale
exactly like a changed input file, and ``freeze`` puts them into the release.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from pipeline.errors import ConfigError
from pipeline.yamlio import read_yaml

T = TypeVar("T", bound="StageSettings")

# stage name -> "module:Class" of its settings, imported only when the stage's settings are needed
STAGE_SETTINGS: dict[str, str] = {
    "extract": "pipeline.extract.settings:ExtractionSettings",
    "map": "pipeline.mapping.settings:MapSettings",
    "audit": "pipeline.audit.settings:AuditSettings",
}


@dataclass(frozen=True)
class StageSettings:
    """Fields are typed by their defaults (bool, int, float); numbers must be positive unless listed in
    ``may_be_zero``. Subclasses add their own rules in ``check``."""

    stage: ClassVar[str] = ""
    may_be_zero: ClassVar[frozenset[str]] = frozenset()

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            expected = type(f.default)
            if not isinstance(value, expected) and not (expected is float and type(value) is int):
                raise ConfigError(f"{self.stage} setting {f.name}: expected {expected.__name__}, got {value!r}")
            if expected is float and type(value) is int:
                object.__setattr__(self, f.name, float(value))  # "85" in YAML is the setting 85.0
            if expected in (int, float) and (value < 0 or (value == 0 and f.name not in self.may_be_zero)):
                raise ConfigError(f"{self.stage} setting {f.name}: must be positive (got {value})")
        self.check()

    def check(self) -> None:
        """Rules that tie fields together; raise ConfigError."""

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls: type[T], data: Mapping[str, Any], where: str = "") -> T:
        """``where`` (a file) prefixes the error messages."""
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            known = ", ".join(sorted(names))
            prefix = where or f"{cls.stage} settings"
            raise ConfigError(f"{prefix}: unknown setting(s) {', '.join(unknown)} (known: {known})")
        try:
            return cls(**data)
        except ConfigError as exc:
            raise ConfigError(f"{where}: {exc}" if where else str(exc)) from None


def settings_class(stage: str) -> type[StageSettings]:
    try:
        module, _, attr = STAGE_SETTINGS[stage].partition(":")
    except KeyError:
        raise ConfigError(
            f"stage {stage!r} has no settings (stages with settings: {', '.join(STAGE_SETTINGS)})"
        ) from None
    cls: type[StageSettings] = getattr(importlib.import_module(module), attr)
    return cls


def parse_overrides(pairs: Iterable[str], stage: str | None = None) -> tuple[str, ...]:
    """``key=value`` (for one stage's command) or ``stage.key=value`` (for ``run``) as ``stage.key=value``
    strings, checked against the stage's settings now so a typo fails before any work."""
    parsed: list[str] = []
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"--set {pair!r}: expected key=value")
        name, dot, field_name = key.strip().rpartition(".")
        if not dot:
            if stage is None:
                raise ConfigError(f"--set {pair!r}: name the stage, e.g. extract.{key.strip()}={value}")
            name = stage
        elif stage is not None and name != stage:
            raise ConfigError(f"--set {pair!r}: this command runs {stage}, not {name}")
        _coerce(settings_class(name), field_name, value)
        parsed.append(f"{name}.{field_name}={value}")
    return tuple(parsed)


def _coerce(cls: type[StageSettings], name: str, raw: str) -> Any:
    fields = {f.name: f for f in dataclasses.fields(cls)}
    if name not in fields:
        known = ", ".join(sorted(fields))
        raise ConfigError(f"--set {cls.stage}.{name}: unknown setting (known: {known})")
    kind = type(fields[name].default)
    try:
        if kind is bool:
            lowered = raw.strip().lower()
            if lowered not in ("true", "false", "1", "0", "yes", "no"):
                raise ValueError(raw)
            return lowered in ("true", "1", "yes")
        return kind(raw)
    except ValueError:
        raise ConfigError(f"--set {cls.stage}.{name}={raw}: not a {kind.__name__}") from None


def config_path(config_dir: Path, stage: str) -> Path:
    return config_dir / f"{stage}.yaml"


def load_settings(cls: type[T], config_dir: Path, overrides: Iterable[str] = ()) -> T:
    """Defaults, then ``config/<stage>.yaml``, then this stage's ``stage.key=value`` overrides."""
    stage = cls.stage
    values: dict[str, Any] = {}
    path = config_path(config_dir, stage)
    if path.is_file():
        data = read_yaml(path) or {}
        if not isinstance(data, dict):
            raise ConfigError(f"{path}: expected a mapping of setting names to values")
        values.update(cls.from_dict(data, str(path)).to_dict())
    for item in overrides:
        key, _, raw = item.partition("=")
        name, _, field_name = key.rpartition(".")
        if name == stage:
            values[field_name] = _coerce(cls, field_name, raw)
    return cls.from_dict(values)


def recorded_settings(config_dir: Path, stage: str, overrides: Iterable[str] = ()) -> dict[str, Any] | None:
    """What a stage's state records and compares: its effective settings, or None for a stage without any."""
    if stage not in STAGE_SETTINGS:
        return None
    return load_settings(settings_class(stage), config_dir, overrides).to_dict()
