"""YAML config files checked against a JSON Schema, failing in one line that names the file and the place."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from pipeline.errors import ConfigError

if TYPE_CHECKING:  # (jsonschema costs a tenth of a second to import: only the commands that validate pay it)
    from jsonschema import Draft202012Validator

# libyaml's C loader when PyYAML was built with it (about ten times faster on the catalogue), else the pure one
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@cache
def schema_validator(package: str, name: str) -> Draft202012Validator:
    """The validator for a JSON Schema shipped as package data."""
    from jsonschema import Draft202012Validator

    schema = json.loads(resources.files(package).joinpath(name).read_text("utf-8"))
    return Draft202012Validator(schema)


def schema_problem(validator: Draft202012Validator, data: Any) -> str | None:
    """The most telling schema violation as ``path/to/field: message`` (None when the data is valid)."""
    from jsonschema.exceptions import best_match

    error = best_match(validator.iter_errors(data))
    if error is None:
        return None
    where = "/".join(str(p) for p in error.absolute_path) or "top level"
    return f"{where}: {error.message}"


def read_yaml(path: Path, validator: Draft202012Validator | None = None) -> Any:
    """The file's data (None for an empty file); ConfigError naming the file on any problem."""
    try:
        data = yaml.load(path.read_bytes().decode("utf-8"), Loader=SAFE_LOADER)
    except FileNotFoundError:
        raise ConfigError(f"{path}: file not found") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark is not None else ""
        raise ConfigError(f"{path}: not valid YAML ({where}{getattr(exc, 'problem', None) or exc})") from None
    if data is not None and validator is not None and (problem := schema_problem(validator, data)):
        raise ConfigError(f"{path}: {problem}")
    return data
