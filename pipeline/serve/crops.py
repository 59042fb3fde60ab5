"""A finding's table cropped from its page at full resolution, its cells outlined; rendered once, then cached.

The cache file is named by a hash of everything the picture depends on (the PDF's bytes, the table's place,
the outlined cells and the scale), so a re-extracted table or a new finding never shows a stale picture.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path

from pipeline.audit.render import CellMark, render_table
from pipeline.audit.settings import AuditSettings
from pipeline.model import Table
from pipeline.store import write_bytes

CROP_SCALE = 4.0  # 288 dpi: full resolution for zooming in on superscripts
CROPS_FOLDER = "crops"
CAPTION_ROOM = 30.0  # points towards the caption: about two lines of it


def crop_key(pdf_sha256: str, table: Table, marks: list[CellMark], settings: AuditSettings) -> str:
    marked = [[list(m.bbox), m.severity, m.label] for m in marks]
    parts = [pdf_sha256, table.page, list(table.bbox), marked, settings.crop_scale, settings.crop_margin]
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:24]


def with_caption_room(table: Table) -> Table:
    """The table with its box grown towards its caption, so the crop shows the caption rather than cutting it."""
    x0, top, x1, bottom = table.bbox
    if table.caption_position == "above":
        top = max(top - CAPTION_ROOM, 0.0)
    elif table.caption_position == "below":
        bottom += CAPTION_ROOM
    return replace(table, bbox=(x0, top, x1, bottom))


def cached_crop(
    cache_dir: Path, pdf_path: Path, pdf_sha256: str, table: Table, marks: list[CellMark], settings: AuditSettings
) -> bytes | None:
    """PNG bytes of the crop at :data:`CROP_SCALE` (the workspace's audit settings give the margin), from
    ``cache_dir`` when rendered before; None when the table cannot be placed."""
    settings = replace(settings, crop_scale=CROP_SCALE)
    path = cache_dir / f"{crop_key(pdf_sha256, table, marks, settings)}.png"
    if path.is_file():
        return path.read_bytes()
    image = render_table(pdf_path, with_caption_room(table), marks, settings)
    if image is not None:
        write_bytes(path, image)
    return image
