"""Getting a source's bytes into the workspace: a first fetch, a no-op when present, or a re-fetch that verifies.

The record (source.json) is written last, so a source counts as fetched only once its PDF is in place.
Bytes that contradict a pinned or stored SHA-256 never replace anything: they are set aside as
``rejected-<sha prefix>.pdf`` for someone to inspect.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from pipeline.clock import utc_now
from pipeline.errors import EXIT_PROBLEMS, BadInputError, BadSourceIdError, HashMismatchError, LitauditError
from pipeline.fetch.arxiv import fetch_metadata, pdf_url
from pipeline.fetch.eprint import fetch_eprint
from pipeline.fetch.http import CHUNK, PoliteClient, StagedFile, stage_chunks
from pipeline.fetch.ids import SourceRef, parse_source_id
from pipeline.fetch.kinds import KINDS, Kind, kind_of
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
    files = stored.files()
    first = ws.root / files[0].path if files else ws.pdf_path(stored.id)
    if pinned and pinned != stored.sha256:
        message = (
            f"the stored copy has sha256 {_short(stored.sha256)}, not the pinned {_short(pinned)}"
            " (config/sources.yaml); nothing downloaded, nothing changed"
        )
        raise SourceMismatchError(FetchOutcome(stored, MISMATCH, message, first, stored.sha256))
    for artifact in files or [None]:
        path = ws.root / artifact.path if artifact else first
        expected = artifact.sha256 if artifact else stored.sha256
        if not path.is_file() or sha256_file(path) != expected:
            raise DamagedCopyError(
                f"{path}: missing or altered since it was fetched (recorded sha256 {_short(expected)});"
                f" '{fix_command(FETCH_STAGE, stored.id)}' restores it"
            )
    return FetchOutcome(stored, PRESENT, "already present; not downloaded again", first, stored.sha256)


@contextmanager
def _validated(staged: StagedFile, origin: str, kind: Kind = KINDS[0], url: str | None = None) -> Iterator[Artifact]:
    """The staged bytes checked as their kind; the temp file is gone afterwards unless it was moved into place."""
    try:
        yield Artifact(staged, kind.check(staged.path, origin), origin, kind, url)
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


def _store_new(
    ws: Workspace, source: Source, artifacts: list[Artifact], pinned: str | None, note: str = ""
) -> FetchOutcome:
    """Every artifact moved into place (the primary one is checked against the pin), then the record."""
    staged = artifacts[0].staged
    if pinned and staged.sha256 != pinned:
        rejected = _set_aside(ws, source.id, staged)
        message = (
            f"downloaded bytes have sha256 {_short(staged.sha256)}, not the pinned {_short(pinned)}"
            f" (config/sources.yaml); nothing stored; the bytes are kept at {rejected}"
        )
        raise SourceMismatchError(FetchOutcome(source, MISMATCH, message, rejected, staged.sha256))
    for artifact in artifacts:
        target = ws.source_dir(source.id) / artifact.kind.stored_as
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(artifact.staged.path, target)
    _write_record(ws, source)
    version = f"{source.version}, " if source.version else ""
    pages = f"{source.page_count} pages, " if source.page_count else ""
    kinds = " + ".join(a.kind.name for a in artifacts) + ": " if len(artifacts) > 1 or source.pdf_path is None else ""
    message = f"{version}{kinds}{pages}{source.size} bytes, sha256 {_short(source.sha256)}{note}"
    return FetchOutcome(source, FETCHED, message, ws.root / source.files()[0].path, source.sha256)


def _verify(
    ws: Workspace, stored: Source, staged: StagedFile, pinned: str | None, kind: str | None = None
) -> FetchOutcome:
    """Re-retrieved bytes against the stored (and pinned) hash of the artifact of their kind (the primary one
    when no kind is named): a match is recorded, a difference set aside."""
    files = stored.files()
    artifact = next((a for a in files if a.kind == kind), None) if kind else (files[0] if files else None)
    if kind and artifact is None:
        raise BadInputError(
            f"source {stored.id!r} holds no {kind} file to compare with; remove {ws.source_dir(stored.id)} to ingest"
            " its files anew"
        )
    expected = artifact.sha256 if artifact else stored.sha256
    if staged.sha256 != expected or (pinned and staged.sha256 != pinned):
        rejected = _set_aside(ws, stored.id, staged)
        pin = f" / pinned {_short(pinned)}" if pinned else ""
        message = (
            f"re-retrieved bytes have sha256 {_short(staged.sha256)}, not the stored {_short(expected)}{pin};"
            f" stored copy and record kept; the new bytes are at {rejected}"
        )
        raise SourceMismatchError(FetchOutcome(stored, MISMATCH, message, rejected, staged.sha256))
    pdf = ws.root / artifact.path if artifact else ws.pdf_path(stored.id)
    message = "re-retrieved; SHA-256 matched the stored copy"
    if not pdf.is_file() or sha256_file(pdf) != expected:
        os.replace(staged.path, pdf)
        message += f" (the stored {pdf.name} was missing or altered and is restored)"
    stored.verifications.append(Verification(VERIFY_METHOD, utc_now(), staged.sha256, "match", VERIFY_NOTE))
    _write_record(ws, stored)
    return FetchOutcome(stored, VERIFIED, message, pdf, expected)


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
        with (
            _validated(http.download(url, ws.sources_dir), url, url=url) as artifact,
            fetch_eprint(http, settings, ws.sources_dir, arxiv, meta.version) as eprint,
        ):
            extra = [eprint.artifact] if eprint.artifact else []
            source = arxiv_source(ws, ref.id, arxiv, meta, [artifact, *extra], entry.notes)
            if eprint.missing is not None:
                source.missing_metadata.append(eprint.missing)
            return _store_new(ws, source, [artifact, *extra], entry.sha256, eprint.note)
    finally:
        if client is None:
            http.close()


def _stage_file(ws: Workspace, settings: Settings, path: Path) -> StagedFile:
    try:
        with path.open("rb") as fh:
            return stage_chunks(iter(lambda: fh.read(CHUNK), b""), ws.sources_dir, settings.max_pdf_bytes, str(path))
    except OSError as exc:
        raise BadInputError(f"{path}: cannot read ({exc.strerror or exc})") from None


def _given_kinds(paths: list[Path]) -> list[Kind]:
    """Each file's kind; two files of one kind (two PDFs, a .tex and a tarball) are refused."""
    for path in paths:
        if not path.is_file():
            raise BadInputError(f"{path}: no such file")
    kinds = [kind_of(p) for p in paths]
    if len({k.name for k in kinds}) < len(kinds):
        raise BadInputError(f"{', '.join(map(str, paths))}: two files of one kind; give at most one of each")
    return kinds


def ingest_file(
    ws: Workspace, settings: Settings, path: Path, source_id: str, refresh: bool, extra: Path | None = None
) -> FetchOutcome:
    """Ingest a file from disk as ``local:NAME`` (a PDF, LaTeX, HTML or Markdown; ``extra`` a second one of
    another kind), with the same checks, hashing and record as a download."""
    ref = parse_source_id(source_id)
    if ref.scheme != "local":
        raise BadSourceIdError(f"source id {source_id!r}: --file ingests local:<name> ids; arXiv papers are fetched")
    paths = [path, *([extra] if extra else [])]
    kinds = _given_kinds(paths)
    stored = load_stored(ws, ref.id)
    if stored is not None and not refresh:
        outcome = check_present(ws, stored, None, None)
        recorded = {a.sha256 for a in stored.files()}
        for given_path in paths:
            given = sha256_file(given_path)
            if given not in recorded:
                outcome.message += f"; {given_path} differs (sha256 {_short(given)}), not ingested (--refresh compares)"
        return outcome
    with ExitStack() as stack:
        artifacts = [
            stack.enter_context(_validated(_stage_file(ws, settings, p), str(p), kind))
            for p, kind in zip(paths, kinds, strict=True)
        ]
        if stored is not None:
            outcomes = [_verify(ws, stored, a.staged, None, a.kind.name) for a in artifacts]
            if len(outcomes) > 1:
                outcomes[0].message = "; ".join(f"{p.name}: {o.message}" for p, o in zip(paths, outcomes, strict=True))
            return outcomes[0]
        return _store_new(ws, local_source(ws, ref.id, artifacts), artifacts, None)
