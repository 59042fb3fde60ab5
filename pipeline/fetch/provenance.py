"""The provenance record (source.json) of a fetched paper: what was measured on its bytes, what its origin
says about it, and each field nobody states marked missing with the reason."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pipeline.clock import utc_now
from pipeline.fetch.arxiv import ArxivMetadata, abs_url
from pipeline.fetch.http import StagedFile
from pipeline.fetch.ids import ArxivId
from pipeline.fetch.kinds import Kind
from pipeline.fetch.pdf import PdfInfo
from pipeline.model import MissingMetadata, Source, SourceArtifact
from pipeline.store import Workspace

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
class Artifact:
    """Validated bytes waiting to be stored: their hash, their kind, what a PDF says, and where they came from."""

    staged: StagedFile
    info: PdfInfo | None  # None for a text artifact
    origin: str  # the URL or local path the bytes were read from
    kind: Kind
    url: str | None = None  # set for a download


def primary(artifacts: list[Artifact]) -> Artifact:
    """The artifact whose hash the source and its locators carry: the PDF when there is one."""
    return next((a for a in artifacts if a.kind.name == "pdf"), artifacts[0])


def _measured(ws: Workspace, source_id: str, artifacts: list[Artifact], notes: str | None) -> dict[str, Any]:
    """The record fields every source gets from its bytes, whatever their origin."""
    now = utc_now()
    first = primary(artifacts)
    stored = [
        SourceArtifact(
            (ws.source_dir(source_id) / a.kind.stored_as).relative_to(ws.root).as_posix(),
            a.kind.name,
            a.kind.media_type,
            a.staged.size,
            a.staged.sha256,
            now,
            a.url,
        )
        for a in sorted(artifacts, key=lambda a: a is not first)
    ]
    return {
        "id": source_id,
        "sha256": first.staged.sha256,
        "size": first.staged.size,
        "pdf_path": stored[0].path if first.kind.name == "pdf" else None,
        "retrieved_at": now,
        "media_type": first.kind.media_type,
        "page_count": first.info.page_count if first.info else None,
        "notes": notes,
        "artifacts": stored,
    }


def _unreported(title: str | None, authors: list[str], no_title: str, no_authors: str) -> list[MissingMetadata]:
    """Title and authors that the origin leaves out, each with the origin's own wording of why."""
    missing = []
    if title is None:
        missing.append(MissingMetadata("title", "unreported", no_title))
    if not authors:
        missing.append(MissingMetadata("authors", "unreported", no_authors))
    return missing


def arxiv_source(
    ws: Workspace, source_id: str, arxiv: ArxivId, meta: ArxivMetadata, artifacts: list[Artifact], notes: str | None
) -> Source:
    """The record of an arXiv paper version: the API's metadata plus what we measured on the bytes."""
    missing = _unreported(
        meta.title, meta.authors, "The arXiv API entry has no title.", "The arXiv API entry lists no authors."
    )
    return Source(
        **_measured(ws, source_id, artifacts, notes),
        title=meta.title,
        authors=list(meta.authors),
        url=abs_url(arxiv, meta.version),
        artifact_url=primary(artifacts).origin,
        version=meta.version,
        published=meta.published,
        updated=meta.updated,
        categories=list(meta.categories),
        publication_status="preprint",
        missing_metadata=[*missing, no_licence()],
    )


def local_source(ws: Workspace, source_id: str, artifacts: list[Artifact]) -> Source:
    """The record of files ingested from disk: only what the bytes themselves say, the rest marked missing."""
    info = primary(artifacts).info or PdfInfo(0)
    what = "The PDF's metadata" if primary(artifacts).info else "The source file"
    missing = _unreported(info.title, info.authors, f"{what} has no title.", f"{what} names no author.")
    return Source(
        **_measured(ws, source_id, artifacts, None),
        title=info.title,
        authors=list(info.authors),
        missing_metadata=[*missing, *(MissingMetadata(*fields) for fields in LOCAL_UNKNOWNS), no_licence()],
    )
