"""What a source file is, from its name: its kind, its media type, where it is stored, and how it is checked.

A source may hold one artifact of each kind (the PDF, the LaTeX source, an HTML page, a Markdown file).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pipeline.errors import BadInputError
from pipeline.fetch.pdf import PdfInfo, inspect_pdf
from pipeline.readers.files import check_text, latex_files
from pipeline.readers.latex import NoLatexError
from pipeline.readers.tarball import MAX_TOTAL_BYTES


class UnsupportedFileError(BadInputError):
    """A file whose name says neither PDF, LaTeX, HTML nor Markdown."""


def _check_latex(path: Path, origin: str) -> PdfInfo | None:
    try:
        files = latex_files(path, limit=MAX_TOTAL_BYTES)  # extract applies its own limit when it reads them
    except BadInputError as exc:
        raise BadInputError(str(exc).replace(str(path), origin, 1)) from None
    if not files:
        raise NoLatexError(f"{origin}: no .tex file in the LaTeX source")
    return None


def _check_archive(path: Path, origin: str) -> PdfInfo | None:
    """A file named .tar.gz/.tgz/.tex.gz must be gzip'd (or at least a tar): plain text under such a name is a
    broken download or a wrong file, not a one-file LaTeX source."""
    with path.open("rb") as handle:
        head = handle.read(262)
    if head[:2] != b"\x1f\x8b" and head[257:262] != b"ustar":
        raise BadInputError(f"{origin}: named as a gzip'd LaTeX source, but neither gzip'd nor a tar archive")
    return _check_latex(path, origin)


def _check_text(path: Path, origin: str) -> PdfInfo | None:
    check_text(path, origin)
    return None


@dataclass(frozen=True)
class Kind:
    name: str  # "pdf" | "latex" | "html" | "markdown"
    suffixes: tuple[str, ...]
    stored_as: str  # the file name in sources/<sid>/
    media_type: str
    check: Callable[[Path, str], PdfInfo | None]  # raises a one-line error; a PDF's info for its record


KINDS: tuple[Kind, ...] = (
    Kind("pdf", (".pdf",), "source.pdf", "application/pdf", inspect_pdf),
    Kind("latex", (".tar.gz", ".tgz"), "source.tar.gz", "application/gzip", _check_archive),
    Kind("latex", (".tex.gz",), "source.tex.gz", "application/gzip", _check_archive),
    Kind("latex", (".tex",), "source.tex", "application/x-tex", _check_latex),
    Kind("html", (".html", ".htm"), "source.html", "text/html", _check_text),
    Kind("markdown", (".md", ".markdown"), "source.md", "text/markdown", _check_text),
)
STORED_NAMES: tuple[str, ...] = tuple(k.stored_as for k in KINDS)


def kind_of(path: Path) -> Kind:
    name = path.name.lower()
    for kind in KINDS:
        if name.endswith(kind.suffixes):
            return kind
    raise UnsupportedFileError(f"{path}: not a source file litaudit reads (.pdf, .tar.gz/.tgz/.tex, .html/.htm or .md)")


def kind_named(stored_as: str) -> Kind:
    return next(k for k in KINDS if k.stored_as == stored_as)
