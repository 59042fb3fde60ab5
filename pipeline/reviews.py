"""Reviewer decisions: an append-only, hash-chained log per source (``audits/<sid>/reviews.jsonl``).

The one reader and the one writer of that file, used by ``litaudit review``, ``litaudit serve``, the audit's
reports and the release. A decision is about a record (accept, reject or correct its value) or about a finding
(accept or dismiss it); an undo appends the decision that puts its target back (``reopen`` when it had none),
never deletes. Each entry carries the SHA-256 of the entry before it, so an edited, inserted or deleted entry
breaks the chain and is caught on every read. Dropping the *last* entries leaves a valid shorter chain; a
frozen release (whose manifest hashes the file) is what anchors the history as it was.

Entries are appended (one write, then fsync) under a file lock, so the cost of a decision does not grow with
the log. A line without its newline is an append a crash cut short: never part of the log, replaced by the
next append. A :class:`ReviewLog` kept open (the workbench's) reads only what was appended since its last
look, after checking that the entry it saw last is still where it was.
"""

from __future__ import annotations

import fcntl
import json
import math
import os
import re
import threading
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pipeline.clock import utc_now
from pipeline.errors import EXIT_PROBLEMS, BadInputError, LitauditError
from pipeline.model import Finding
from pipeline.store import Workspace, jsonl_text, sha256_bytes

REVIEWS_FILE = "reviews.jsonl"
CATALOGUED = "catalogued"
RECORD, FINDING = "record", "finding"
REOPEN = "reopen"  # written by an undo: the target is undecided again
TARGET_FIELD = {RECORD: "record_id", FINDING: "finding_id"}  # how each kind names its target in the log
STATUS_AFTER = {
    RECORD: {"accept": "source checked", "reject": "rejected", "correct": "corrected", REOPEN: CATALOGUED},
    FINDING: {"accept": "accepted", "dismiss": "dismissed", REOPEN: "open"},
}
DECISIONS = {kind: tuple(s for s in statuses if s != REOPEN) for kind, statuses in STATUS_AFTER.items()}
MAX_REVIEWER_CHARS = 80
MAX_NOTE_CHARS = 2000
_COMMON_FIELDS = ("decision", "value", "note", "reviewer", "date", "prev_sha256", "sha256")
_PLAIN_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class ReviewChainError(LitauditError):
    """reviews.jsonl was edited by hand: an entry no longer matches its hash or its predecessor."""

    exit_code = EXIT_PROBLEMS


class UnknownTargetError(BadInputError):
    """A decision names a record or finding id the source does not have."""


class BadDecisionError(BadInputError):
    """A decision is malformed (no reviewer, a correction without a finite value, ...)."""


class UndoRefusedError(LitauditError):
    """An undo names an entry that is no longer its target's latest decision (undo the later one first)."""

    exit_code = EXIT_PROBLEMS


@dataclass(frozen=True)
class ReviewEntry:
    """One reviewer decision, as stored (one JSON line naming its target as ``record_id`` or ``finding_id``)."""

    kind: str  # RECORD | FINDING
    target: str  # the record or finding id
    decision: str  # one of DECISIONS[kind], or REOPEN
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


def parse_value(text: str) -> float:
    """A corrected value as a reviewer types it, read the same way by ``review --correct`` and the workbench:
    a plain decimal number (sign, point and exponent allowed); digit separators ("1_000", "1,000"), units,
    "nan" and "inf" are refused rather than guessed at."""
    if not _PLAIN_NUMBER.fullmatch(text.strip()):
        raise BadDecisionError(f"value {text!r}: not a plain number (digits with an optional sign, point, exponent)")
    value = float(text)
    if not math.isfinite(value):
        raise BadDecisionError(f"value {text!r}: too large to be a finite number")
    return value


def check_decision(kind: str, decision: str, value: float | None, reviewer: str) -> None:
    if kind not in DECISIONS:
        raise BadDecisionError(f"target kind {kind!r}: expected one of {', '.join(DECISIONS)}")
    if decision not in DECISIONS[kind] and decision != REOPEN:
        raise BadDecisionError(f"decision {decision!r} on a {kind}: expected one of {', '.join(DECISIONS[kind])}")
    if not reviewer.strip():
        raise BadDecisionError("a decision needs --reviewer NAME (or LITAUDIT_REVIEWER)")
    finite = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if decision == "correct" and not finite:
        raise BadDecisionError(f"--correct needs a finite number, got {value!r}")


def check_texts(reviewer: str, note: str) -> None:
    """What a new entry may say: a short one-line reviewer name and a note of bounded length."""
    if len(reviewer) > MAX_REVIEWER_CHARS or _CONTROL.search(reviewer):
        raise BadDecisionError(f"reviewer: a name of at most {MAX_REVIEWER_CHARS} characters on one line")
    if len(note) > MAX_NOTE_CHARS:
        raise BadDecisionError(f"note: at most {MAX_NOTE_CHARS} characters (got {len(note)})")


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


@dataclass
class _Chain:
    """Entries verified so far, each against its hash and its predecessor, and each target's latest decision."""

    path: Path
    entries: list[ReviewEntry] = field(default_factory=list)
    latest: dict[str, dict[str, ReviewEntry]] = field(default_factory=lambda: {RECORD: {}, FINDING: {}})
    lines: int = 0  # physical lines read (blank ones too), for messages naming a line
    last_line: int = 0

    def add(self, line: str) -> None:
        self.lines += 1
        if not line.strip():
            return
        where = f"{self.path}:{self.lines}"
        try:
            data = json.loads(line)
        except (json.JSONDecodeError, RecursionError) as exc:
            reason = exc.msg if isinstance(exc, json.JSONDecodeError) else "nested too deeply"
            raise ReviewChainError(f"{where}: not valid JSON ({reason}); the review log was edited") from None
        entry = _entry_from(data, where)
        if entry_sha256(data) != entry.sha256:
            raise ReviewChainError(f"{where}: entry was edited (its content no longer matches its sha256)")
        expected = self.entries[-1].sha256 if self.entries else None
        if entry.prev_sha256 != expected:
            before = f"the entry on line {self.last_line}" if self.entries else "nothing (it is the first entry)"
            raise ReviewChainError(
                f"{where}: chain broken (prev_sha256 does not match {before}); an entry was removed, inserted or edited"
            )
        self.append(entry)

    def append(self, entry: ReviewEntry) -> None:
        self.entries.append(entry)
        self.last_line = self.lines
        if entry.decision == REOPEN:
            self.latest[entry.kind].pop(entry.target, None)
        else:
            self.latest[entry.kind][entry.target] = entry

    def add_unterminated(self, line: str) -> bool:
        """A last line without its newline: kept when it is a whole entry that continues the chain (a file
        saved without a final newline); otherwise an append cut short, not part of the log."""
        try:
            self.add(line)
        except ReviewChainError:
            self.lines -= 1
            return False
        return True


def parse_reviews(path: Path, text: str) -> list[ReviewEntry]:
    """The entries of a reviews.jsonl text, the chain verified; any break names the file and line."""
    chain = _Chain(path)
    lines = text.split("\n")
    for line in lines[:-1]:
        chain.add(line)
    if lines[-1]:
        chain.add_unterminated(lines[-1])
    return chain.entries


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
    """Each record's (or finding's) effective decision: its latest entry (none after a reopen)."""
    chain = _Chain(Path())
    for entry in entries:
        if entry.kind == kind:
            chain.append(entry)
    return chain.latest[kind]


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


@dataclass(frozen=True)
class _Seen:
    """Where a ReviewLog's verified prefix ends, and what the file looked like then."""

    inode: int
    size: int  # the file's size then (a torn tail included)
    mtime_ns: int
    committed: int  # bytes of verified lines
    tail: bytes  # the last verified line as stored: re-read and compared before trusting the prefix
    open_end: bool  # the last verified line has no newline (a file saved without one)


class ReviewLog:
    """One source's reviews.jsonl, kept verified between calls: a later look re-reads only what was appended,
    once the entry seen last is found unchanged at the same place (and the whole file when it is not, or when
    the file was rewritten at the same size). Safe across threads; processes are serialised by the file lock."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._guard = threading.Lock()
        self._chain = _Chain(path)
        self._seen: _Seen | None = None

    def entries(self) -> list[ReviewEntry]:
        with self._guard:
            self._refresh_from_disk()
            return list(self._chain.entries)

    def latest(self, kind: str) -> dict[str, ReviewEntry]:
        with self._guard:
            self._refresh_from_disk()
            return dict(self._chain.latest[kind])

    def record(
        self,
        kind: str,
        target: str,
        decision: str,
        *,
        reviewer: str,
        note: str = "",
        value: float | None = None,
        date: str | None = None,
    ) -> tuple[ReviewEntry, bool]:
        """Append a decision; returns it and whether it was new (repeating the latest decision is a no-op)."""
        check_decision(kind, decision, value, reviewer)
        check_texts(reviewer, note)
        with self._writing() as handle:
            return self._add(handle, kind, target, decision, reviewer, note, value, date)

    def undo(self, sha256: str, reviewer: str, date: str | None = None) -> tuple[ReviewEntry, bool]:
        """Append the reversal of the entry ``sha256``: its target's decision before it, restated, or
        ``reopen`` when it had none. Only a target's latest decision can be undone."""
        if not reviewer.strip():
            raise BadDecisionError("an undo needs a reviewer, as a decision does")
        check_texts(reviewer, "")
        with self._writing() as handle:
            undone = next((e for e in reversed(self._chain.entries) if e.sha256 == sha256), None)
            if undone is None:
                raise UnknownTargetError(f"entry {sha256!r}: not in {self.path}")
            same = [e for e in self._chain.entries if (e.kind, e.target) == (undone.kind, undone.target)]
            if same[-1] is not undone:
                raise UndoRefusedError(
                    f"{undone.kind} {undone.target}: decided again since ({same[-1].decision} by "
                    f"{same[-1].reviewer}); undo that decision first"
                )
            before = same[-2] if len(same) > 1 and same[-2].decision != REOPEN else None
            if before is None:
                return self._add(
                    handle, undone.kind, undone.target, REOPEN, reviewer, f"undo of {sha256[:12]}", None, date
                )
            return self._add(
                handle, undone.kind, undone.target, before.decision, reviewer, before.note, before.value, date
            )

    @contextmanager
    def _writing(self) -> Iterator[int]:
        """The log open for appending, brought up to date, with this thread and the file lock held throughout:
        what is decided from the entries read is what the chain holds when the entry is appended."""
        with self._guard, _locked(self.path):
            handle = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
            try:
                self._refresh(handle)
                yield handle
            finally:
                os.close(handle)

    def _add(
        self,
        handle: int,
        kind: str,
        target: str,
        decision: str,
        reviewer: str,
        note: str,
        value: float | None,
        date: str | None,
    ) -> tuple[ReviewEntry, bool]:
        value = value if decision == "correct" else None
        latest = self._chain.latest[kind].get(target)
        if latest and (latest.decision, latest.value, latest.note, latest.reviewer) == (
            decision,
            value,
            note,
            reviewer,
        ):
            return latest, False
        head = self._chain.entries[-1].sha256 if self._chain.entries else None
        entry = make_entry(kind, target, decision, value, note, reviewer, date or utc_now(), head)
        self._append(handle, entry)
        return entry, True

    def _refresh_from_disk(self) -> None:
        try:
            handle = os.open(self.path, os.O_RDONLY)
        except FileNotFoundError:
            self._chain, self._seen = _Chain(self.path), None
            return
        except OSError as exc:
            raise ReviewChainError(f"{self.path}: cannot read ({exc.strerror or exc})") from None
        try:
            self._refresh(handle)
        finally:
            os.close(handle)

    def _refresh(self, handle: int) -> None:
        """Bring the verified entries up to what the file holds now; after a break, nothing is kept (the next
        look verifies the whole file again)."""
        try:
            self._catch_up(handle)
        except ReviewChainError:
            self._chain, self._seen = _Chain(self.path), None
            raise

    def _catch_up(self, handle: int) -> None:
        stat, seen = os.fstat(handle), self._seen
        if seen is not None and stat.st_ino == seen.inode and stat.st_size >= seen.committed:
            landmark = os.pread(handle, len(seen.tail), seen.committed - len(seen.tail))
            if landmark == seen.tail and not (seen.open_end and stat.st_size > seen.committed):
                if stat.st_size == seen.size and stat.st_mtime_ns == seen.mtime_ns:
                    return
                if stat.st_size != seen.size:
                    self._read_on(handle, stat, seen.committed)
                    return
        self._chain = _Chain(self.path)  # first look, or the file was replaced or rewritten: verify it all
        self._read_on(handle, stat, 0)

    def _read_on(self, handle: int, stat: os.stat_result, offset: int) -> None:
        data = _pread_all(handle, stat.st_size - offset, offset)
        end = data.rfind(b"\n") + 1
        try:
            lines = data[:end].decode("utf-8").split("\n")[:-1]
        except UnicodeDecodeError as exc:
            raise ReviewChainError(f"{self.path}: not UTF-8 ({exc.reason}); the review log was edited") from None
        for line in lines:
            self._chain.add(line)
        committed, open_end = offset + end, False
        try:
            rest = data[end:].decode("utf-8")
        except UnicodeDecodeError:
            rest = ""  # cut inside a character: an append cut short
        if rest and self._chain.add_unterminated(rest):
            committed, open_end = offset + len(data), True
        landmark = _last_line(handle, committed)
        self._seen = _Seen(stat.st_ino, stat.st_size, stat.st_mtime_ns, committed, landmark, open_end)

    def _append(self, handle: int, entry: ReviewEntry) -> None:
        """One write and an fsync; a torn tail left by a crash is cut off first, so it never joins the chain."""
        seen = self._seen
        committed = seen.committed if seen else 0
        size = os.fstat(handle).st_size
        if size > committed:
            os.ftruncate(handle, committed)
        line = entry.line().encode("utf-8")
        data = (b"\n" if seen and seen.open_end else b"") + line
        written = 0
        while written < len(data):
            written += os.write(handle, data[written:])
        os.fsync(handle)
        if size == 0:
            _fsync_folder(self.path.parent)  # the file may be new: make its name durable too
        self._chain.lines += 1  # a line saved without its newline was counted when read
        self._chain.append(entry)
        stat = os.fstat(handle)
        self._seen = _Seen(stat.st_ino, stat.st_size, stat.st_mtime_ns, committed + len(data), line, False)


def _pread_all(handle: int, size: int, offset: int) -> bytes:
    chunks, done = [], 0
    while done < size:
        chunk = os.pread(handle, size - done, offset + done)
        if not chunk:
            break
        chunks.append(chunk)
        done += len(chunk)
    return b"".join(chunks)


def _last_line(handle: int, end: int) -> bytes:
    """The bytes from the start of the last non-blank line up to ``end``: the landmark a later look re-reads."""
    start = max(end - 65536, 0)
    data = os.pread(handle, end - start, start)
    body = data.rstrip(b"\n \t\r")
    return data[body.rfind(b"\n") + 1 :] if body else data


def _fsync_folder(folder: Path) -> None:
    handle = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


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
    log: ReviewLog | None = None,
) -> tuple[ReviewEntry, bool]:
    """Append a decision on one of the ``known`` ids; returns it and whether it was new (a repeat is a no-op).
    ``log``: a ReviewLog kept between calls (the workbench's); a fresh one reads and verifies the whole file."""
    check_decision(kind, decision, value, reviewer)
    if target not in known:
        raise UnknownTargetError(f"{kind} {target!r}: not among the {len(known)} {kind}s of {source_id}")
    log = log or ReviewLog(reviews_path(ws, source_id))
    return log.record(kind, target, decision, reviewer=reviewer, note=note, value=value, date=date)


def undecided(ids: list[str], entries: list[ReviewEntry], kind: str = RECORD) -> list[str]:
    """The ids (of records or findings) without any decision yet, in the order given."""
    decided = latest_decisions(entries, kind)
    return [i for i in ids if i not in decided]
