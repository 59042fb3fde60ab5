"""The JSON Schema every emitted record must satisfy (pipeline/emit/record.schema.json)."""

from __future__ import annotations

from typing import Any

from jsonschema.exceptions import best_match

from pipeline.catalogue.yamlfile import schema_validator
from pipeline.errors import BadInputError

SCHEMA_FILE = "record.schema.json"


class InvalidRecordError(BadInputError):
    """A record built from tables.json and mapping.json does not satisfy the record schema."""


def record_schema() -> dict[str, Any]:
    return schema_validator("pipeline.emit", SCHEMA_FILE).schema  # type: ignore[no-any-return]


def validate_record(record: dict[str, Any]) -> None:
    """Raise InvalidRecordError naming the record and the first failing field."""
    error = best_match(schema_validator("pipeline.emit", SCHEMA_FILE).iter_errors(record))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "top level"
        raise InvalidRecordError(f"record {record.get('id')!r}: {where}: {error.message}")
