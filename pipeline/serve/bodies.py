"""A change's body, read and checked before anything is written: bounded in size, JSON, known fields only,
strings where strings belong, and a correction's value read as ``litaudit review --correct`` reads it."""

from __future__ import annotations

import json
import math
from typing import Any

from starlette.requests import Request

from pipeline.errors import BadInputError
from pipeline.reviews import BadDecisionError, parse_value

MAX_BODY_BYTES = 1_000_000  # a decision is a few hundred bytes; its note is capped far below this


class BodyTooLargeError(BadInputError):
    """A request body above MAX_BODY_BYTES: refused before it is read whole."""


async def read_json(request: Request) -> Any:
    """The body as JSON, read in chunks up to MAX_BODY_BYTES (413 beyond, before the rest is read); a body that is
    not JSON, or nests deeper than the parser recurses, is a 400."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise BodyTooLargeError(f"the body is {int(declared)} bytes; at most {MAX_BODY_BYTES} are read")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            raise BodyTooLargeError(f"the body is over {MAX_BODY_BYTES} bytes; at most that is read")
    try:
        return json.loads(body)
    except RecursionError:
        raise BadInputError("the body nests too deeply to be a decision") from None
    except ValueError:
        raise BadInputError("the body must be a JSON object") from None


def fields_of(body: Any, names: tuple[str, ...]) -> dict[str, Any]:
    """The body's fields, every one named in ``names`` (absent ones are None)."""
    if not isinstance(body, dict):
        raise BadInputError("the body must be a JSON object")
    unknown = sorted(set(body) - set(names))
    if unknown:
        raise BadInputError(f"unknown field(s) {', '.join(map(repr, unknown))}; expected {', '.join(names)}")
    return {name: body.get(name) for name in names}


def text_field(fields: dict[str, Any], name: str) -> str:
    value = fields[name]
    if value is None:
        return ""
    if not isinstance(value, str):
        raise BadInputError(f"{name}: must be a string, got {type(value).__name__}")
    return value


def value_field(raw: Any, decision: str) -> float | None:
    """A correction's value: a JSON number, or its text read as ``review --correct`` reads it."""
    if raw is None or raw == "":
        return None
    if decision != "correct":
        raise BadDecisionError(f"value: only a correction carries a value, not {decision!r}")
    if isinstance(raw, str):
        return parse_value(raw)
    if isinstance(raw, bool) or not isinstance(raw, int | float):
        raise BadDecisionError(f"value: a number or its text, got {type(raw).__name__}")
    try:
        value = float(raw)
    except OverflowError:
        value = math.inf
    if not math.isfinite(value):
        raise BadDecisionError("value: must be a finite number")
    return value
