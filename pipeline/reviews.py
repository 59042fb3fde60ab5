"""Reviewer decisions: an append-only, hash-chained log per source (``audits/<sid>/reviews.jsonl``).

The one reader and the one writer of that file, used by ``litaudit review``, ``litaudit serve``, the audit's
reports and the release. A decision is about a record (accept, reject or correct its value) or about a finding
(accept or dismiss it). Each entry carries the SHA-256 of the entry before it, so an edited, inserted or deleted
entry breaks the chain and is caught on every read. Dropping the *last* entries leaves a valid shorter chain; a
frozen release (whose manifest hashes the file) is what anchors the history as it was.
"""

from __future__ import annotations

import fcntl
import json
import math
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pipeline.clock import utc_now
from pipeline.errors import EXIT_PROBLEMS, BadInputError, LitauditError
from pipeline.model import Finding
from pipeline.store import Workspace, jsonl_text, sha256_bytes, write_text

REVIEWS_FILE = "reviews.jsonl"
CATALOGUED = "catalogued"
RECORD, FINDING = "record", "finding"
TARGET_FIELD = {RECORD: "record_id", FINDING: "finding_id"}  # how each kind names its target in the log
STATUS_AFTER = {
    RECORD: {"accept": "source checked", "reject": "rejected", "correct": "corrected"},
    FINDING: {"accept": "accepted", "dismiss": "dismissed"},
}
DECISIONS = {kind: tuple(statuses) for kind, statuses in STATUS_AFTER.items()}
_COMMON_FIELDS = ("decision", "value", "note", "reviewer", "date", "prev_sha256", "sha256")


class ReviewChainError(LitauditError):
    """reviews.jsonl was edited by hand: an entry no longer matches its hash or its predecessor."""

    exit_code = EXIT_PROBLEMS


class UnknownTargetError(BadInputError):
    """A decision names a record or finding id the source does not have."""


class BadDecisionError(BadInputError):
    """A decision is malformed (no reviewer, a correction without a finite value, ...)."""


@dataclass(frozen=True)
class ReviewEntry:
    """One reviewer decision, as stored (one JSON line naming its target as ``record_id`` or ``finding_id``)."""

    kind: str  # RECORD | FINDING
    target: str  # the record or finding id
    decision: str  # one of DECISIONS[kind]
    value: float | None  # the corrected value (a record's "correct"), in the unit of the record's ``value``
    note: str
    reviewer: str
    date: str  # UTC, ISO 8601
    prev_sha256: str | None  # None for the first entry
    sha256: str

    @property
    def status(self) -> str:
        """The target's review status once this is its latest decision."""
        return STATUS_AFTER[self.kind][self.decision]

    def to_dict(self) -> dict[str, Any]:
        """The stored form, whose canonical JSON the chain hashes."""
        return {TARGET_FIELD[self.kind]: self.target, **{name: getattr(self, name) for name in _COMMON_FIELDS}}

    def line(self) -> str:
        return jsonl_text([self.to_dict()])


def entry_sha256(fields: dict[str, Any]) -> str:
    """SHA-256 of the entry without its own ``sha256``, as canonical JSON (sorted keys, no spaces)."""
    body = {k: v for k, v in fields.items() if k != "sha256"}
    return sha256_bytes(json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


def check_decision(kind: str, decision: str, value: float | None, reviewer: str) -> None:
    if kind not in DECISIONS:
        raise BadDecisionError(f"target kind {kind!r}: expected one of {', '.join(DECISIONS)}")
    if decision not in DECISIONS[kind]:
        raise BadDecisionError(f"decision {decision!r} on a {kind}: expected one of {', '.join(DECISIONS[kind])}")
    if not reviewer.strip():
        raise BadDecisionError("a decision needs --reviewer NAME (or LITAUDIT_REVIEWER)")
    finite = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if decision == "correct" and not finite:
        raise BadDecisionError(f"--correct needs a finite number, got {value!r}")


def make_entry(
    kind: str,
    target: str,
    decision: str,
    value: float | None,
    note: str,
    reviewer: str,
    date: str,
    prev_sha256: str | None,
) -> ReviewEntry:
    check_decision(kind, decision, value, reviewer)
    value = value if decision == "correct" else None
    unsigned = ReviewEntry(kind, target, decision, value, note, reviewer, date, prev_sha256, "")
    return ReviewEntry(
        kind, target, decision, value, note, reviewer, date, prev_sha256, entry_sha256(unsigned.to_dict())
    )


def _entry_from(data: Any, where: str) -> ReviewEntry:
    kinds = [kind for kind, name in TARGET_FIELD.items() if isinstance(data, dict) and name in data]
    expected = [TARGET_FIELD[kinds[0]], *_COMMON_FIELDS] if len(kinds) == 1 else []
    if not expected or sorted(data) != sorted(expected):
        raise ReviewChainError(
            f"{where}: not a review entry (expected record_id or finding_id and the fields {', '.join(_COMMON_FIELDS)})"
        )
    kind = kinds[0]
    try:
        check_decision(kind, data["decision"], data["value"], str(data["reviewer"]))
    except BadDecisionError as exc:
        raise ReviewChainError(f"{where}: {exc}") from None
    return ReviewEntry(kind, data[TARGET_FIELD[kind]], **{name: data[name] for name in _COMMON_FIELDS})


def parse_reviews(path: Path, text: str) -> list[ReviewEntry]:
    """The entries of a reviews.jsonl text, the chain verified; any break names the file and line."""
    entries: list[ReviewEntry] = []
    prev_line = 0
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ReviewChainError(f"{where}: not valid JSON ({exc.msg}); the review log was edited") from None
        entry = _entry_from(data, where)
        if entry_sha256(data) != entry.sha256:
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


def latest_decisions(entries: list[ReviewEntry], kind: str = RECORD) -> dict[str, ReviewEntry]:
    """Each record's (or finding's) effective decision: its latest entry."""
    return {entry.target: entry for entry in entries if entry.kind == kind}


def reviewed(finding: Finding, entry: ReviewEntry | None) -> Finding:
    """The finding with its latest decision in ``details["review"]``: an accepted one becomes a limitation of the
    records it concerns (whatever its severity), a dismissed one keeps its reason and limits nothing."""
    if entry is None:
        return finding
    review = {k: getattr(entry, k) for k in ("decision", "reviewer", "date", "note", "sha256")}
    details = {**finding.details, "review": review}
    if entry.decision == "accept":
        details["limitation"] = True
    return replace(finding, details=details)


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
    """Serialise writers of one log (CLI and server, threads or processes), so the chain cannot fork."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(f".{path.name}.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def record_decision(
    ws: Workspace,
    source_id: str,
    target: str,
    decision: str,
    *,
    known: Collection[str],
    kind: str = RECORD,
    reviewer: str,
    note: str = "",
    value: float | None = None,
    date: str | None = None,
) -> tuple[ReviewEntry, bool]:
    """Append a decision on one of the ``known`` ids; returns it and whether it was new (a repeat is a no-op)."""
    check_decision(kind, decision, value, reviewer)
    if target not in known:
        raise UnknownTargetError(f"{kind} {target!r}: not among the {len(known)} {kind}s of {source_id}")
    path = reviews_path(ws, source_id)
    with _locked(path):
        text = path.read_text(encoding="utf-8") if path.is_file() else ""
        entries = parse_reviews(path, text)
        latest = latest_decisions(entries, kind).get(target)
        wanted = (decision, value if decision == "correct" else None, note, reviewer)
        if latest and (latest.decision, latest.value, latest.note, latest.reviewer) == wanted:
            return latest, False
        prev = entries[-1].sha256 if entries else None
        entry = make_entry(kind, target, decision, value, note, reviewer, date or utc_now(), prev)
        if text and not text.endswith("\n"):
            text += "\n"
        write_text(path, text + entry.line())
    return entry, True


def undecided(ids: list[str], entries: list[ReviewEntry], kind: str = RECORD) -> list[str]:
    """The ids (of records or findings) without any decision yet, in the order given."""
    decided = latest_decisions(entries, kind)
    return [i for i in ids if i not in decided]
