"""Getting a source's bytes into the workspace: a first fetch, a no-op when present, or a re-fetch that verifies.

The record (source.json) is written last, so a source counts as fetched only once its PDF is in place.
Bytes that contradict a pinned or stored SHA-256 never replace anything: they are set aside as
``rejected-<sha prefix>.pdf`` for someone to inspect.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from pipeline.clock import utc_now
from pipeline.errors import EXIT_PROBLEMS, BadInputError, BadSourceIdError, HashMismatchError, LitauditError
from pipeline.fetch.arxiv import fetch_metadata, pdf_url
from pipeline.fetch.http import CHUNK, PoliteClient, StagedFile, stage_chunks
from pipeline.fetch.ids import SourceRef, parse_source_id
from pipeline.fetch.pdf import inspect_pdf
from pipeline.fetch.provenance import Artifact, arxiv_source, local_source
from pipeline.fetch.sources import SourceEntry
from pipeline.model import Source, Verification
from pipeline.settings import Settings
from pipeline.stages import FETCH_STAGE
from pipeline.state import fix_command, record_done
from pipeline.store import Workspace, read_source_record, sha256_file, write_json

FETCHED, PRESENT, VERIFIED, MISMATCH = "fetched", "already-present", "verified", "mismatch"
VERIFY_METHOD = "source-hash-verification"
VERIFY_NOTE = "Artifact re-retrieved and SHA-256 matched."


@dataclass
class FetchOutcome:
    """What fetching one source did; ``path`` and ``sha256`` describe the file concerned (for a mismatch, the
    rejected copy when there is one)."""

    source: Source
    status: str  # FETCHED | PRESENT | VERIFIED | MISMATCH
    message: str
    path: Path
    sha256: str


class SourceMismatchError(HashMismatchError):
    """Bytes whose SHA-256 differs from the pinned or stored one; nothing stored was changed."""

    def __init__(self, outcome: FetchOutcome) -> None:
        super().__init__(outcome.message)
        self.outcome = outcome


class VersionConflictError(LitauditError):
    """The stored copy is another version than the one asked for; it is not replaced silently."""

    exit_code = EXIT_PROBLEMS


class DamagedCopyError(LitauditError):
    """The stored PDF is missing or no longer matches its record."""

    exit_code = EXIT_PROBLEMS


class NotFetchableError(BadInputError):
    """A local source has no URL: it can only be ingested from a file."""


def load_stored(ws: Workspace, source_id: str) -> Source | None:
    record = ws.source_record_path(source_id)
    return Source.from_dict(read_source_record(record)) if record.is_file() else None


def _short(sha256: str) -> str:
    return sha256[:12]


def _check_version(ws: Workspace, stored: Source, version: str | None) -> None:
    if version and stored.version and version != stored.version:
        raise VersionConflictError(
            f"source {stored.id!r}: {stored.version} is stored but {version} is asked for; name the version in the"
            f" id or remove {ws.source_dir(stored.id)} to replace it"
        )


def check_present(ws: Workspace, stored: Source, pinned: str | None, version: str | None) -> FetchOutcome:
    """A stored source, checked against what is asked for and against its own record; no request made."""
    _check_version(ws, stored, version)
    pdf = ws.pdf_path(stored.id)
    if pinned and pinned != stored.sha256:
        message = (
            f"the stored copy has sha256 {_short(stored.sha256)}, not the pinned {_short(pinned)}"
            " (config/sources.yaml); nothing downloaded, nothing changed"
        )
        raise SourceMismatchError(FetchOutcome(stored, MISMATCH, message, pdf, stored.sha256))
    if not pdf.is_file() or sha256_file(pdf) != stored.sha256:
        raise DamagedCopyError(
            f"{pdf}: missing or altered since it was fetched (recorded sha256 {_short(stored.sha256)});"
            f" '{fix_command(FETCH_STAGE, stored.id)}' restores it"
        )
    return FetchOutcome(stored, PRESENT, "already present; not downloaded again", pdf, stored.sha256)


@contextmanager
def _validated(staged: StagedFile, origin: str) -> Iterator[Artifact]:
    """The staged bytes checked as a PDF; the temp file is gone afterwards unless it was moved into place."""
    try:
        yield Artifact(staged, inspect_pdf(staged.path, origin), origin)
    finally:
        staged.path.unlink(missing_ok=True)


def _set_aside(ws: Workspace, source_id: str, staged: StagedFile) -> Path:
    target = ws.source_dir(source_id) / f"rejected-{_short(staged.sha256)}.pdf"
    target.parent.mkdir(parents=True, exist_ok=True)
    os.replace(staged.path, target)
    return target


def _write_record(ws: Workspace, source: Source) -> None:
    """source.json last, then the hashes of both files, so that a later edit of either is noticed."""
    write_json(ws.source_record_path(source.id), source.to_dict())
    record_done(ws, FETCH_STAGE, source.id, {})


def _store_new(ws: Workspace, source: Source, staged: StagedFile, pinned: str | None) -> FetchOutcome:
    if pinned and staged.sha256 != pinned:
        rejected = _set_aside(ws, source.id, staged)
        message = (
            f"downloaded bytes have sha256 {_short(staged.sha256)}, not the pinned {_short(pinned)}"
            f" (config/sources.yaml); nothing stored; the bytes are kept at {rejected}"
        )
        raise SourceMismatchError(FetchOutcome(source, MISMATCH, message, rejected, staged.sha256))
    pdf = ws.pdf_path(source.id)
    pdf.parent.mkdir(parents=True, exist_ok=True)
    os.replace(staged.path, pdf)
    _write_record(ws, source)
    version = f"{source.version}, " if source.version else ""
    message = f"{version}{source.page_count} pages, {source.size} bytes, sha256 {_short(source.sha256)}"
    return FetchOutcome(source, FETCHED, message, pdf, source.sha256)


def _verify(ws: Workspace, stored: Source, staged: StagedFile, pinned: str | None) -> FetchOutcome:
    """Re-retrieved bytes against the stored (and pinned) hash: a match is recorded, a difference set aside."""
    if staged.sha256 != stored.sha256 or (pinned and staged.sha256 != pinned):
        rejected = _set_aside(ws, stored.id, staged)
        pin = f" / pinned {_short(pinned)}" if pinned else ""
        message = (
            f"re-retrieved bytes have sha256 {_short(staged.sha256)}, not the stored {_short(stored.sha256)}{pin};"
            f" stored copy and record kept; the new bytes are at {rejected}"
        )
        raise SourceMismatchError(FetchOutcome(stored, MISMATCH, message, rejected, staged.sha256))
    pdf = ws.pdf_path(stored.id)
    message = "re-retrieved; SHA-256 matched the stored copy"
    if not pdf.is_file() or sha256_file(pdf) != stored.sha256:
        os.replace(staged.path, pdf)
        message += " (the stored PDF was missing or altered and is restored)"
    stored.verifications.append(Verification(VERIFY_METHOD, utc_now(), staged.sha256, "match", VERIFY_NOTE))
    _write_record(ws, stored)
    return FetchOutcome(stored, VERIFIED, message, pdf, stored.sha256)


def _wanted_version(ref: SourceRef, entry: SourceEntry) -> str | None:
    in_id = ref.arxiv.version if ref.arxiv else None
    if in_id and entry.version and in_id != entry.version:
        raise BadSourceIdError(f"source {ref.id!r}: the id says {in_id} but the entry says {entry.version}")
    return in_id or entry.version


def fetch_entry(
    ws: Workspace, settings: Settings, entry: SourceEntry, refresh: bool, client: PoliteClient | None = None
) -> FetchOutcome:
    """Fetch one listed or named source (a no-op when present, unless ``refresh``)."""
    ref = parse_source_id(entry.id)
    version = _wanted_version(ref, entry)
    stored = load_stored(ws, ref.id)
    if stored is not None and not refresh:
        return check_present(ws, stored, entry.sha256, version)
    if ref.arxiv is None:
        command = fix_command(FETCH_STAGE, ref.id) if stored else f"litaudit fetch --file PATH --id {ref.id}"
        raise NotFetchableError(f"source {ref.id!r}: a local source is read from a file ({command})")
    arxiv = ref.arxiv
    http = client or PoliteClient(settings)
    try:
        if stored is not None:
            _check_version(ws, stored, version)
            url = pdf_url(settings, arxiv, stored.version or version or "")
            with _validated(http.download(url, ws.sources_dir), url) as artifact:
                return _verify(ws, stored, artifact.staged, entry.sha256)
        meta = fetch_metadata(http, settings, arxiv, version)
        url = pdf_url(settings, arxiv, meta.version)
        with _validated(http.download(url, ws.sources_dir), url) as artifact:
            source = arxiv_source(ws, ref.id, arxiv, meta, artifact, entry.notes)
            return _store_new(ws, source, artifact.staged, entry.sha256)
    finally:
        if client is None:
            http.close()


def ingest_file(ws: Workspace, settings: Settings, path: Path, source_id: str, refresh: bool) -> FetchOutcome:
    """Ingest a PDF from disk as ``local:NAME``, with the same checks, hashing and record as a download."""
    ref = parse_source_id(source_id)
    if ref.scheme != "local":
        raise BadSourceIdError(f"source id {source_id!r}: --file ingests local:<name> ids; arXiv papers are fetched")
    if not path.is_file():
        raise BadInputError(f"{path}: no such file")
    stored = load_stored(ws, ref.id)
    try:
        if stored is not None and not refresh:
            outcome = check_present(ws, stored, None, None)
            given = sha256_file(path)
            if given != stored.sha256:
                outcome.message += f"; {path} differs (sha256 {_short(given)}), not ingested (--refresh compares)"
            return outcome
        with path.open("rb") as fh:
            staged = stage_chunks(iter(lambda: fh.read(CHUNK), b""), ws.sources_dir, settings.max_pdf_bytes, str(path))
    except OSError as exc:
        raise BadInputError(f"{path}: cannot read ({exc.strerror or exc})") from None
    with _validated(staged, str(path)) as artifact:
        if stored is not None:
            return _verify(ws, stored, artifact.staged, None)
        return _store_new(ws, local_source(ws, ref.id, artifact), artifact.staged, None)
