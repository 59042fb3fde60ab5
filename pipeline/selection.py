"""Which sources a command works on: the named ones or every fetched one, a broken one set aside."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from pipeline.errors import BadSourceIdError, LitauditError, UnknownSourceError
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
            raise unknown_source(ws, sid)
        try:
            read_source_record(record)
            selection.ids.append(sid)
        except LitauditError as exc:
            selection.problems[sid] = str(exc)
    return selection


def unknown_source(ws: Workspace, source_id: str) -> UnknownSourceError:
    """A source that is not fetched, with only commands that would work: the fetch of a valid id; for an id
    ``fetch`` would refuse, the fetched sources it may have meant."""
    from pipeline.fetch.ids import ID_FORMS, parse_source_id  # only on this error: fetch imports requests

    try:
        parse_source_id(source_id)
    except BadSourceIdError:
        pass
    else:
        return UnknownSourceError(f"source {source_id!r}: not fetched (run '{fetch_hint(source_id)}' first)")
    fetched = ws.scan_sources().ids
    named = [f for f in fetched if f.partition(":")[2] == source_id]  # "demo" for "local:demo"
    close = list(dict.fromkeys(named + difflib.get_close_matches(source_id, fetched, n=3, cutoff=0.6)))
    if close:
        hint = f"did you mean {' or '.join(close)}?"
    elif fetched:
        hint = "'litaudit status' lists the fetched sources"
    else:
        hint = "no source is fetched yet"
    return UnknownSourceError(f"source {source_id!r}: not fetched, and not a source id ({ID_FORMS}); {hint}")
