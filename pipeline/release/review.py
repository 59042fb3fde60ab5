"""Reviewer decisions: an append-only, hash-chained log per source (``audits/<sid>/reviews.jsonl``).

Each entry carries the SHA-256 of the entry before it, so an edited, inserted or deleted entry breaks
the chain and is caught on every read. Dropping the *last* entries leaves a valid shorter chain; a
frozen release (whose manifest hashes the file) is what anchors the history as it was.
"""

from __future__ import annotations

import dataclasses
import fcntl
import json
import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.clock import utc_now
from pipeline.errors import EXIT_PROBLEMS, BadInputError, LitauditError
from pipeline.release.records import RecordsFile
from pipeline.store import Workspace, jsonl_text, sha256_bytes, write_text

REVIEWS_FILE = "reviews.jsonl"
CATALOGUED = "catalogued"
STATUS_AFTER = {"accept": "source checked", "reject": "rejected", "correct": "corrected"}
DECISIONS = tuple(STATUS_AFTER)


class ReviewChainError(LitauditError):
    """reviews.jsonl was edited by hand: an entry no longer matches its hash or its predecessor."""

    exit_code = EXIT_PROBLEMS


class UnknownRecordError(BadInputError):
    """A decision names a record id the source does not have."""


class BadDecisionError(BadInputError):
    """A decision is malformed (no reviewer, a correction without a finite value, ...)."""


@dataclass(frozen=True)
class ReviewEntry:
    """One reviewer decision, as stored (one JSON line)."""

    record_id: str
    decision: str  # "accept" | "reject" | "correct"
    value: float | None  # the corrected value (for "correct"), in the unit of the record's ``value``
    note: str
    reviewer: str
    date: str  # UTC, ISO 8601
    prev_sha256: str | None  # None for the first entry
    sha256: str

    @property
    def status(self) -> str:
        """The record's review status once this is its latest decision."""
        return STATUS_AFTER[self.decision]

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def line(self) -> str:
        return jsonl_text([self.to_dict()])


def entry_sha256(fields: dict[str, Any]) -> str:
    """SHA-256 of the entry without its own ``sha256``, as canonical JSON (sorted keys, no spaces)."""
    body = {k: v for k, v in fields.items() if k != "sha256"}
    return sha256_bytes(json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


def make_entry(
    record_id: str, decision: str, value: float | None, note: str, reviewer: str, date: str, prev_sha256: str | None
) -> ReviewEntry:
    check_decision(decision, value, reviewer)
    fields: dict[str, Any] = {
        "record_id": record_id,
        "decision": decision,
        "value": value if decision == "correct" else None,
        "note": note,
        "reviewer": reviewer,
        "date": date,
        "prev_sha256": prev_sha256,
    }
    return ReviewEntry(**fields, sha256=entry_sha256(fields))


def check_decision(decision: str, value: float | None, reviewer: str) -> None:
    if decision not in DECISIONS:
        raise BadDecisionError(f"decision {decision!r}: expected one of {', '.join(DECISIONS)}")
    if not reviewer.strip():
        raise BadDecisionError("a decision needs --reviewer NAME (or LITAUDIT_REVIEWER)")
    finite = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if decision == "correct" and not finite:
        raise BadDecisionError(f"--correct needs a finite number, got {value!r}")


def _entry_from(data: Any, where: str) -> ReviewEntry:
    names = [f.name for f in dataclasses.fields(ReviewEntry)]
    if not isinstance(data, dict) or sorted(data) != sorted(names):
        raise ReviewChainError(f"{where}: not a review entry (expected the fields {', '.join(names)})")
    try:
        check_decision(data["decision"], data["value"], str(data["reviewer"]))
    except BadDecisionError as exc:
        raise ReviewChainError(f"{where}: {exc}") from None
    return ReviewEntry(**data)


def parse_reviews(path: Path, text: str) -> list[ReviewEntry]:
    """The entries of a reviews.jsonl text, the chain verified; any break names the file and line."""
    entries: list[ReviewEntry] = []
    prev_line = 0
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            entry = _entry_from(json.loads(line), where)
        except json.JSONDecodeError as exc:
            raise ReviewChainError(f"{where}: not valid JSON ({exc.msg}); the review log was edited") from None
        if entry_sha256(entry.to_dict()) != entry.sha256:
            raise ReviewChainError(f"{where}: entry was edited (its content no longer matches its sha256)")
        expected = entries[-1].sha256 if entries else None
        if entry.prev_sha256 != expected:
            before = f"the entry on line {prev_line}" if entries else "nothing (it is the first entry)"
            raise ReviewChainError(
                f"{where}: chain broken (prev_sha256 does not match {before}); an entry was removed, inserted or edited"
            )
        entries.append(entry)
        prev_line = number
    return entries


def read_reviews(path: Path) -> list[ReviewEntry]:
    """Every decision in a reviews.jsonl (none when the file is absent), the chain verified."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError) as exc:
        raise ReviewChainError(f"{path}: cannot read ({exc})") from None
    return parse_reviews(path, text)


def latest_decisions(entries: list[ReviewEntry]) -> dict[str, ReviewEntry]:
    """Each record's effective decision: its latest entry."""
    return {entry.record_id: entry for entry in entries}


def reviews_path(ws: Workspace, source_id: str) -> Path:
    return ws.audits_dir(source_id) / REVIEWS_FILE


def apply_review(record: dict[str, Any], entry: ReviewEntry | None) -> dict[str, Any]:
    """The record as released: its review status after the decision, a correction beside the printed value."""
    row = dict(record)
    row["corrected_value"] = entry.value if entry and entry.decision == "correct" else None
    if entry is None:
        row.setdefault("review_status", CATALOGUED)
        row["review"] = None
        return row
    row["review_status"] = entry.status
    row["review"] = {k: getattr(entry, k) for k in ("decision", "reviewer", "date", "note", "sha256")}
    return row


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Serialise writers of one log, so two reviewers appending at once cannot fork the chain."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(f".{path.name}.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def record_decision(
    ws: Workspace,
    records: RecordsFile,
    record_id: str,
    decision: str,
    *,
    reviewer: str,
    note: str = "",
    value: float | None = None,
    date: str | None = None,
) -> tuple[ReviewEntry, bool]:
    """Append a decision; returns it and whether it was new (repeating the latest decision is a no-op)."""
    if record_id not in records.ids():
        raise UnknownRecordError(
            f"record {record_id!r}: not among the {len(records.rows)} records of {records.source_id} ({records.path})"
        )
    check_decision(decision, value, reviewer)
    path = reviews_path(ws, records.source_id)
    with _locked(path):
        text = path.read_text(encoding="utf-8") if path.is_file() else ""
        entries = parse_reviews(path, text)
        latest = latest_decisions(entries).get(record_id)
        wanted = (decision, value if decision == "correct" else None, note, reviewer)
        if latest and (latest.decision, latest.value, latest.note, latest.reviewer) == wanted:
            return latest, False
        prev = entries[-1].sha256 if entries else None
        entry = make_entry(record_id, decision, value, note, reviewer, date or utc_now(), prev)
        if text and not text.endswith("\n"):
            text += "\n"
        write_text(path, text + entry.line())
    return entry, True


def pending_records(records: RecordsFile, entries: list[ReviewEntry]) -> list[dict[str, Any]]:
    """Records without any decision yet, in file order."""
    decided = latest_decisions(entries)
    return [row for row in records.rows if row["id"] not in decided]
