"""The JSON Schema every emitted record must satisfy (pipeline/emit/record.schema.json)."""

from __future__ import annotations

from typing import Any

from pipeline.errors import BadInputError
from pipeline.yamlio import schema_problem, schema_validator

SCHEMA_FILE = "record.schema.json"


class InvalidRecordError(BadInputError):
    """A record built from tables.json and mapping.json does not satisfy the record schema."""


def validate_record(record: dict[str, Any]) -> None:
    """Raise InvalidRecordError naming the record and the first failing field."""
    problem = schema_problem(schema_validator("pipeline.emit", SCHEMA_FILE), record)
    if problem is not None:
        raise InvalidRecordError(f"record {record.get('id')!r}: {problem}")
