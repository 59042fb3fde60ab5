"""Each table cropped from its page (pypdfium2), with its caption and the flagged cells outlined: what the
reviewer compares.

The caption is found by reading the page: the crop grows to the characters that spell the table's caption
(its start on a line of its own, beside the table on its caption side), so the caption shows whole however
wide it runs, and text that merely mentions the table is left out.
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import Image, ImageDraw

from pipeline.audit.settings import AuditSettings
from pipeline.model import BBox, Table
from pipeline.progress import steps

PAGE_COLOURS = 16  # the palette of the rendered page, before the outlines are drawn
CAPTION_PREFIX = 30  # letters and digits of the caption that must read the same on the page
CAPTION_MARGIN = 1.5  # points beyond the caption's outer line (its characters' boxes hold ascenders and descenders)
CAPTION_GAP_LINES = 4.0  # how far from the table its caption may sit, in caption lines (a table note between)
COLOURS = {"error": (204, 0, 0), "warning": (230, 126, 0), "needs-check": (120, 90, 160), "info": (30, 100, 200)}


@dataclass(frozen=True)
class CellMark:
    bbox: BBox  # points, top-left origin (as the extractor writes cell boxes)
    severity: str
    label: str  # the finding's number in the report


def render_tables(
    pdf_path: Path, tables: Sequence[Table], marks: dict[int, list[CellMark]], settings: AuditSettings
) -> dict[int, bytes]:
    """PNG bytes per table index, for tables that know where they sit on their page; {} if the PDF is unreadable."""
    images: dict[int, bytes] = {}
    try:
        document = pdfium.PdfDocument(str(pdf_path))
    except (pdfium.PdfiumError, OSError):
        return images
    try:
        for table in steps(tables, len(tables), "tables"):
            if not any(table.bbox) or not 1 <= table.page <= len(document):
                continue
            page = document[table.page - 1]
            region = crop_region(page, table, settings.crop_margin)
            images[table.index] = _render(page, region, marks.get(table.index, []), settings)
    finally:
        document.close()
    return images


def render_table(pdf_path: Path, table: Table, marks: list[CellMark], settings: AuditSettings) -> bytes | None:
    """One table's crop (the workbench asks for a larger ``crop_scale``); None when it cannot be placed."""
    return render_tables(pdf_path, [table], {table.index: marks}, settings).get(table.index)


def _render(page: pdfium.PdfPage, region: BBox, marks: list[CellMark], settings: AuditSettings) -> bytes:
    width, height = page.get_width(), page.get_height()
    scale = settings.crop_scale
    x0, top, x1, bottom = region
    bitmap = page.render(scale=scale, crop=(x0, height - bottom, width - x1, top))
    # a printed table needs few colours: a 16-colour palette makes the crop about 5x smaller (RETRO's 22 crops:
    # 4.4 MB -> 0.85 MB); the outlines are drawn afterwards, so their colours join the palette exactly
    image = bitmap.to_pil().convert("RGB").quantize(PAGE_COLOURS, method=Image.Quantize.FASTOCTREE)
    draw = ImageDraw.Draw(image)
    for mark in sorted(marks, key=lambda m: ("info", "needs-check", "warning", "error").index(m.severity)):
        colour = COLOURS.get(mark.severity, COLOURS["info"])
        box = [(mark.bbox[0] - x0 - 1.5) * scale, (mark.bbox[1] - top - 1.5) * scale]
        box += [(mark.bbox[2] - x0 + 1.5) * scale, (mark.bbox[3] - top + 1.5) * scale]
        draw.rectangle(box, outline=colour, width=max(3, round(1.5 * scale)))
        draw.text((box[0] + 2, max(box[1] - 11, 0)), mark.label, fill=colour)
    out = io.BytesIO()
    image.save(out, format="PNG")  # optimize costs ~5x the time for ~2% of the bytes
    return out.getvalue()


def crop_region(page: pdfium.PdfPage, table: Table, margin: float) -> BBox:
    """What a crop shows (points, top-left origin, within the page): the table's box and ``margin`` round it,
    grown to hold its caption when the page prints it beside the table; beyond the caption's outer line only
    :data:`CAPTION_MARGIN`, so the next line of text is not cut through."""
    x0, top, x1, bottom = table.bbox
    above = below = margin
    caption = caption_box(page, table)
    if caption is not None:
        if caption[1] < top:
            top, above = caption[1], CAPTION_MARGIN
        if caption[3] > bottom:
            bottom, below = caption[3], CAPTION_MARGIN
        x0, x1 = min(x0, caption[0]), max(x1, caption[2])
    width, height = page.get_width(), page.get_height()
    return (max(x0 - margin, 0.0), max(top - above, 0.0), min(x1 + margin, width), min(bottom + below, height))


def caption_box(page: pdfium.PdfPage, table: Table) -> BBox | None:
    """Where the table's caption is printed (points, top-left origin): the page's characters that spell it, from
    the start of a line, beside the table on its caption side; None when the page prints no such text."""
    wanted = _letters(table.caption)
    if not wanted:
        return None
    text_page = page.get_textpage()
    try:
        text = _characters(text_page)
        letters, at = [], []
        for i, ch in enumerate(text):
            for c in _letters(ch):
                letters.append(c)
                at.append(i)
        spelled = "".join(letters)
        height = page.get_height()
        candidates = []
        start = spelled.find(wanted[:CAPTION_PREFIX])
        while start >= 0:
            if _starts_line(text, at[start]):
                length = _common_prefix(spelled, start, wanted)
                boxes = [text_page.get_charbox(i, loose=True) for i in sorted(set(at[start : start + length]))]
                box = (
                    min(b[0] for b in boxes),
                    height - max(b[3] for b in boxes),
                    max(b[2] for b in boxes),
                    height - min(b[1] for b in boxes),
                )
                line = boxes[0][3] - boxes[0][1]
                gap = _gap(box, table)
                if gap is not None and gap <= CAPTION_GAP_LINES * line:
                    candidates.append((gap, box))
            start = spelled.find(wanted[:CAPTION_PREFIX], start + 1)
    finally:
        text_page.close()
    return min(candidates)[1] if candidates else None


def _characters(text_page: pdfium.PdfTextPage) -> str:
    """The page's text, one character per character index (``get_text_range`` may drop some, and then the
    indices no longer name the boxes)."""
    codes = (pdfium_c.FPDFText_GetUnicode(text_page.raw, i) for i in range(text_page.count_chars()))
    return "".join(chr(code) if 0 < code < 0x110000 else "\ufffd" for code in codes)


def _letters(text: str) -> str:
    """Letters and digits only, compatibility-folded and lower-cased: the caption as the page spells it,
    whatever the line breaks, hyphens, ligatures and spacing."""
    return "".join(c for c in unicodedata.normalize("NFKC", text).lower() if c.isalnum())


def _starts_line(text: str, index: int) -> bool:
    before = text[:index].rstrip(" \t")
    return not before or before[-1] in "\r\n"


def _common_prefix(spelled: str, start: int, wanted: str) -> int:
    n = 0
    while n < len(wanted) and start + n < len(spelled) and spelled[start + n] == wanted[n]:
        n += 1
    return n


def _gap(box: BBox, table: Table) -> float | None:
    """Points between the caption box and the table on the table's caption side; None when the box is not
    beside the table there (no horizontal overlap, or on the other side)."""
    x0, top, x1, bottom = table.bbox
    if box[2] <= x0 or box[0] >= x1:
        return None
    above, below = top - box[3], box[1] - bottom
    if table.caption_position != "below" and above >= -1.0:
        return max(above, 0.0)
    if table.caption_position != "above" and below >= -1.0:
        return max(below, 0.0)
    return None


def no_image_reason(table: Table) -> str:
    """Why a table has no crop: it was read from a text source (no page to crop), or it has no position."""
    if table.artifact:
        return f"No page image: read from {table.place or table.artifact}, a text source with no pages."
    return "No page image: the table has no position on a page."
