"""Each table cropped from its page (pypdfium2), with the flagged cells outlined: what the reviewer compares."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image, ImageDraw

from pipeline.audit.settings import AuditSettings
from pipeline.model import BBox, Table
from pipeline.progress import steps

PAGE_COLOURS = 16  # the palette of the rendered page, before the outlines are drawn
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
            images[table.index] = _render(document[table.page - 1], table.bbox, marks.get(table.index, []), settings)
    finally:
        document.close()
    return images


def render_table(pdf_path: Path, table: Table, marks: list[CellMark], settings: AuditSettings) -> bytes | None:
    """One table's crop (the workbench asks for a larger ``crop_scale``); None when it cannot be placed."""
    return render_tables(pdf_path, [table], {table.index: marks}, settings).get(table.index)


def _render(page: pdfium.PdfPage, bbox: BBox, marks: list[CellMark], settings: AuditSettings) -> bytes:
    width, height = page.get_width(), page.get_height()
    scale, margin = settings.crop_scale, settings.crop_margin
    x0, top = max(bbox[0] - margin, 0.0), max(bbox[1] - margin, 0.0)
    x1, bottom = min(bbox[2] + margin, width), min(bbox[3] + margin, height)
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


def no_image_reason(table: Table) -> str:
    """Why a table has no crop: it was read from a text source (no page to crop), or it has no position."""
    if table.artifact:
        return f"No page image: read from {table.place or table.artifact}, a text source with no pages."
    return "No page image: the table has no position on a page."
