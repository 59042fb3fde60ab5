"""The one clock every stage stamps its records with."""

from __future__ import annotations

from datetime import datetime, timezone


def utc_now() -> str:
    """Now in UTC, to the second, as ISO 8601 with a ``Z``: the form every record uses."""
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")
