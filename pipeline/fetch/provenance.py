"""The provenance record (source.json) of a fetched paper: what was measured on its bytes, what its origin
says about it, and each field nobody states marked missing with the reason."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pipeline.clock import utc_now
from pipeline.fetch.arxiv import ArxivMetadata, abs_url
from pipeline.fetch.http import StagedFile
from pipeline.fetch.ids import ArxivId
from pipeline.fetch.pdf import PdfInfo
from pipeline.model import MissingMetadata, Source
from pipeline.store import Workspace

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


def _unreported(title: str | None, authors: list[str], no_title: str, no_authors: str) -> list[MissingMetadata]:
    """Title and authors that the origin leaves out, each with the origin's own wording of why."""
    missing = []
    if title is None:
        missing.append(MissingMetadata("title", "unreported", no_title))
    if not authors:
        missing.append(MissingMetadata("authors", "unreported", no_authors))
    return missing


def arxiv_source(
    ws: Workspace, source_id: str, arxiv: ArxivId, meta: ArxivMetadata, artifact: Artifact, notes: str | None
) -> Source:
    """The record of an arXiv paper version: the API's metadata plus what we measured on the bytes."""
    missing = _unreported(
        meta.title, meta.authors, "The arXiv API entry has no title.", "The arXiv API entry lists no authors."
    )
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


def local_source(ws: Workspace, source_id: str, artifact: Artifact) -> Source:
    """The record of a PDF ingested from disk: only what the bytes themselves say, the rest marked missing."""
    info = artifact.info
    missing = _unreported(
        info.title, info.authors, "The PDF's metadata has no title.", "The PDF's metadata names no author."
    )
    return Source(
        **_measured(ws, source_id, artifact, None),
        title=info.title,
        authors=list(info.authors),
        missing_metadata=[*missing, *(MissingMetadata(*fields) for fields in LOCAL_UNKNOWNS), no_licence()],
    )
