"""Which sources a command works on: the named ones or every fetched one, a broken one set aside."""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline.errors import LitauditError, UnknownSourceError
from pipeline.state import fetch_hint
from pipeline.store import Workspace, read_source_record


@dataclass
class Selection:
    """The sources a command works on, and those it cannot (label -> the one-line problem)."""

    ids: list[str]
    problems: dict[str, str] = field(default_factory=dict)


def resolve_sources(ws: Workspace, source_ids: tuple[str, ...] | list[str]) -> Selection:
    """The named sources, or every fetched one when none is named; one whose record is broken is set aside."""
    if not source_ids:
        scan = ws.scan_sources()
        return Selection(scan.ids, {f"sources/{folder}": problem for folder, problem in scan.broken.items()})
    selection = Selection([])
    for sid in dict.fromkeys(source_ids):
        record = ws.source_record_path(sid)  # validates the id first: a bad one is bad usage, not a hint
        if not record.is_file():
            raise UnknownSourceError(f"source {sid!r}: not fetched (run '{fetch_hint(sid)}' first)")
        try:
            read_source_record(record)
            selection.ids.append(sid)
        except LitauditError as exc:
            selection.problems[sid] = str(exc)
    return selection
