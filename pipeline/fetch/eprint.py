"""The arXiv e-print: the authors' LaTeX source of a paper version, beside its PDF.

arXiv serves it gzip'd, as a tarball or as a single .tex file; for a PDF-only submission it serves the PDF
itself, and some versions have no source at all (403/404). Each of those is an answer, not a failure: the
record says why there is no LaTeX source, and the PDF is stored as always.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from pipeline.errors import BadInputError, FetchError
from pipeline.fetch.http import HttpStatusError, PoliteClient, StagedFile
from pipeline.fetch.ids import ArxivId
from pipeline.fetch.kinds import Kind, kind_named
from pipeline.fetch.pdf import PDF_MAGIC
from pipeline.fetch.provenance import Artifact
from pipeline.model import MissingMetadata
from pipeline.readers.files import is_tarball
from pipeline.settings import Settings

FIELD = "latex_source"


@dataclass
class Eprint:
    """The e-print as an artifact to store, or why there is none."""

    artifact: Artifact | None = None
    missing: MissingMetadata | None = None

    @property
    def note(self) -> str:
        return f"; no LaTeX source ({self.missing.note})" if self.missing else ""


def eprint_url(settings: Settings, arxiv: ArxivId, version: str) -> str:
    return f"{settings.arxiv_eprint_base.rstrip('/')}/{arxiv.canonical}{version}"


def _kind(staged: StagedFile) -> Kind | None:
    """What the e-print bytes are: a gzip'd tarball or a gzip'd .tex file; None for anything else."""
    with open(staged.path, "rb") as fh:
        head = fh.read(64 * 1024)
    if head[:2] != b"\x1f\x8b":
        return None
    return kind_named("source.tar.gz" if is_tarball(head) else "source.tex.gz")


def _none(reason: str, note: str) -> Eprint:
    return Eprint(missing=MissingMetadata(FIELD, reason, note))


@contextmanager
def fetch_eprint(
    client: PoliteClient, settings: Settings, folder: Path, arxiv: ArxivId, version: str
) -> Iterator[Eprint]:
    """The version's e-print, checked as untrusted input; its temp file is gone afterwards unless stored."""
    url = eprint_url(settings, arxiv, version)
    try:
        staged = client.download(url, folder)
    except HttpStatusError as exc:
        yield _none("unavailable", f"arXiv serves no source for {arxiv.canonical}{version} (HTTP {exc.status})")
        return
    except FetchError as exc:
        yield _none("unavailable", f"the e-print could not be retrieved ({exc})")
        return
    try:
        with open(staged.path, "rb") as fh:
            pdf_only = fh.read(len(PDF_MAGIC)) == PDF_MAGIC
        kind = _kind(staged)
        if pdf_only:
            yield _none("not-applicable", "PDF-only submission: arXiv holds no LaTeX source for this version")
        elif kind is None:
            yield _none("unreadable", f"{url}: neither a gzip'd tarball nor a gzip'd .tex file")
        else:
            try:
                info = kind.check(staged.path, url)
            except BadInputError as exc:
                yield _none("unreadable", f"the e-print was refused: {exc}")
            else:
                yield Eprint(Artifact(staged, info, url, kind, url))
    finally:
        staged.path.unlink(missing_ok=True)
