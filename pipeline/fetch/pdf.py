"""Is it really a PDF? Magic bytes, then PDFium must open it; we keep its page count and metadata."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from pipeline.errors import NotAPdfError

PDF_MAGIC = b"%PDF-"
# What PDF writers put in Title/Author when they know nothing (reportlab: "untitled", "anonymous").
PLACEHOLDERS = frozenset({"untitled", "anonymous", "unknown", "unspecified", "none", "title", "author"})
_NAME_LIST = re.compile(r"\s*(?:,\s*and\s+|,|\s+and\s+|&)\s*")
_HTML_START = re.compile(rb"^\s*(<!doctype html|<html|<head|<body)", re.IGNORECASE)


class EncryptedPdfError(NotAPdfError):
    """The PDF needs a password to open, so its tables cannot be read."""


@dataclass(frozen=True)
class PdfInfo:
    """What the PDF says about itself."""

    page_count: int
    title: str | None = None
    authors: list[str] = field(default_factory=list)


def _clean(value: str) -> str | None:
    text = " ".join(value.split())
    return None if not text or text.lower() in PLACEHOLDERS else text


def _authors(value: str) -> list[str]:
    """Names from the one Author string: split on ';', else on commas and 'and', unless a part would be a
    single word (then it is one 'Last, First' name)."""
    parts = value.split(";")
    if len(parts) == 1:
        listed = _NAME_LIST.split(value)
        if all(len(part.split()) >= 2 for part in listed):
            parts = listed
    return [name for part in parts if (name := _clean(part))]


def inspect_pdf(path: Path, origin: str) -> PdfInfo:
    """Check that ``path`` holds a readable PDF; ``origin`` (a URL or file) names it in the error."""
    with open(path, "rb") as fh:
        head = fh.read(1024)
    if not head:
        raise NotAPdfError(f"{origin}: empty file, not a PDF")
    if not head.startswith(PDF_MAGIC):
        kind = "an HTML page" if _HTML_START.match(head) else f"bytes starting {head[:16]!r}"
        raise NotAPdfError(f"{origin}: got {kind}, not a PDF")
    try:
        document = pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        if exc.err_code == pdfium_c.FPDF_ERR_PASSWORD:
            raise EncryptedPdfError(f"{origin}: encrypted PDF that needs a password to open") from None
        raise NotAPdfError(f"{origin}: PDF does not open (truncated or damaged: {exc})") from None
    try:
        pages = len(document)
        metadata = document.get_metadata_dict(skip_empty=True)
    finally:
        document.close()
    if pages == 0:
        raise NotAPdfError(f"{origin}: PDF has no pages")
    return PdfInfo(pages, _clean(metadata.get("Title", "")), _authors(metadata.get("Author", "")))
