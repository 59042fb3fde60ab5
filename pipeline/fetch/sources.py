"""config/sources.yaml (which papers to fetch) and the provenance record written for each one."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from pipeline.errors import ConfigError, LitauditError
from pipeline.fetch.arxiv import ArxivMetadata, abs_url
from pipeline.fetch.http import StagedFile
from pipeline.fetch.ids import VERSION, ArxivId, parse_source_id
from pipeline.fetch.pdf import PdfInfo
from pipeline.model import MissingMetadata, Source
from pipeline.runner import utc_now
from pipeline.store import Workspace

SOURCES_FILE = "sources.yaml"
ENTRY_KEYS = ("id", "version", "sha256", "notes")
_SHA256 = re.compile(r"[0-9a-f]{64}")
PDF_MEDIA_TYPE = "application/pdf"
NO_LICENCE_NOTE = "No licence stated in the metadata; check the paper's page before redistributing it."


LOCAL_UNKNOWNS = (
    ("url", "not-applicable", "Ingested from a local file; there is no retrieval URL."),
    ("version", "unknown", "Ingested from a local file; which version of the paper it is, is not known."),
    ("published", "unknown", "Ingested from a local file; its publication date is not known."),
    ("publication_status", "unknown", "Ingested from a local file; its publication status is not known."),
)


def no_licence() -> MissingMetadata:
    """Neither the arXiv API nor PDF metadata states a licence."""
    return MissingMetadata("licence", "unreported", NO_LICENCE_NOTE)


@dataclass(frozen=True)
class SourceEntry:
    """One paper to fetch: its id, and optionally a version, a pinned SHA-256 and notes."""

    id: str
    version: str | None = None
    sha256: str | None = None
    notes: str | None = None


def _entry(path: Path, number: int, raw: Any) -> SourceEntry:
    where = f"{path}: entry {number}"
    if isinstance(raw, str):
        raw = {"id": raw}
    if not isinstance(raw, dict):
        raise ConfigError(f"{where}: expected an id or a mapping with keys {', '.join(ENTRY_KEYS)}")
    if not isinstance(raw.get("id"), str):
        raise ConfigError(f"{where}: 'id' is missing or not text")
    where = f"{where} ({raw['id']})"
    unknown = sorted(str(k) for k in raw if k not in ENTRY_KEYS)
    if unknown:
        raise ConfigError(f"{where}: unknown key(s) {', '.join(unknown)}; allowed: {', '.join(ENTRY_KEYS)}")
    try:
        ref = parse_source_id(raw["id"])
    except LitauditError as exc:
        raise ConfigError(f"{where}: {exc}") from None
    version = raw.get("version")
    if isinstance(version, int) and not isinstance(version, bool):
        version = f"v{version}"
    if version is not None and (not isinstance(version, str) or not VERSION.fullmatch(version)):
        raise ConfigError(f"{where}: version {raw.get('version')!r} is not like 'v2'")
    if version and ref.scheme != "arxiv":
        raise ConfigError(f"{where}: only arXiv sources have versions")
    if version and ref.arxiv and ref.arxiv.version and ref.arxiv.version != version:
        raise ConfigError(f"{where}: the id says {ref.arxiv.version} but version says {version}")
    sha256 = raw.get("sha256")
    if sha256 is not None and (not isinstance(sha256, str) or not _SHA256.fullmatch(sha256.lower())):
        raise ConfigError(f"{where}: sha256 must be 64 hexadecimal digits")
    notes = raw.get("notes")
    if notes is not None and not isinstance(notes, str):
        raise ConfigError(f"{where}: notes must be text")
    return SourceEntry(ref.id, version, sha256.lower() if sha256 else None, notes)


def load_source_entries(ws: Workspace) -> list[SourceEntry]:
    """The sources listed in config/sources.yaml ([] when the file does not exist)."""
    path = ws.config_dir / SOURCES_FILE
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read ({exc})") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f" at line {mark.line + 1}" if mark is not None else ""
        raise ConfigError(f"{path}: not valid YAML{line} ({getattr(exc, 'problem', None) or exc})") from None
    if data is None:
        return []
    if not isinstance(data, dict) or set(data) - {"sources"}:
        raise ConfigError(f"{path}: expected a mapping with one key, 'sources' (a list of entries)")
    raw_entries = data.get("sources") or []
    if not isinstance(raw_entries, list):
        raise ConfigError(f"{path}: 'sources' must be a list of entries")
    entries = [_entry(path, number, raw) for number, raw in enumerate(raw_entries, 1)]
    seen: set[str] = set()
    for number, entry in enumerate(entries, 1):
        if entry.id in seen:
            raise ConfigError(f"{path}: entry {number} ({entry.id}): listed twice")
        seen.add(entry.id)
    return entries


@dataclass(frozen=True)
class Artifact:
    """Validated bytes waiting to be stored: their hash, what the PDF says, and where they came from."""

    staged: StagedFile
    info: PdfInfo
    origin: str  # the URL or local path the bytes were read from


def _measured(ws: Workspace, source_id: str, artifact: Artifact, notes: str | None) -> dict[str, Any]:
    """The record fields every source gets from its bytes, whatever their origin."""
    return {
        "id": source_id,
        "sha256": artifact.staged.sha256,
        "size": artifact.staged.size,
        "pdf_path": ws.pdf_path(source_id).relative_to(ws.root).as_posix(),
        "retrieved_at": utc_now(),
        "media_type": PDF_MEDIA_TYPE,
        "page_count": artifact.info.page_count,
        "notes": notes,
    }


def arxiv_source(
    ws: Workspace, source_id: str, arxiv: ArxivId, meta: ArxivMetadata, artifact: Artifact, notes: str | None
) -> Source:
    """The record of an arXiv paper version: the API's metadata plus what we measured on the bytes."""
    missing = []
    if meta.title is None:
        missing.append(MissingMetadata("title", "unreported", "The arXiv API entry has no title."))
    if not meta.authors:
        missing.append(MissingMetadata("authors", "unreported", "The arXiv API entry lists no authors."))
    return Source(
        **_measured(ws, source_id, artifact, notes),
        title=meta.title,
        authors=list(meta.authors),
        url=abs_url(arxiv, meta.version),
        artifact_url=artifact.origin,
        version=meta.version,
        published=meta.published,
        updated=meta.updated,
        categories=list(meta.categories),
        publication_status="preprint",
        missing_metadata=[*missing, no_licence()],
    )


def local_source(ws: Workspace, source_id: str, artifact: Artifact, notes: str | None) -> Source:
    """The record of a PDF ingested from disk: only what the bytes themselves say, the rest marked missing."""
    info = artifact.info
    missing = []
    if info.title is None:
        missing.append(MissingMetadata("title", "unreported", "The PDF's metadata has no title."))
    if not info.authors:
        missing.append(MissingMetadata("authors", "unreported", "The PDF's metadata names no author."))
    return Source(
        **_measured(ws, source_id, artifact, notes),
        title=info.title,
        authors=list(info.authors),
        missing_metadata=[*missing, *(MissingMetadata(*fields) for fields in LOCAL_UNKNOWNS), no_licence()],
    )
