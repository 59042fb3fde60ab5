"""A finding's table cropped from its page at full resolution, caption included, its cells outlined; rendered
once, then cached.

The cache file is named by a hash of everything the picture depends on (the PDF's bytes, the table's place and
caption, the outlined cells, the scale and the way crops are drawn), so a re-extracted table or a new finding
never shows a stale picture.
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
CROP_STYLE = 2  # raised when the drawing changes (2: the caption found on the page, whole)


def crop_key(pdf_sha256: str, table: Table, marks: list[CellMark], settings: AuditSettings) -> str:
    marked = [[list(m.bbox), m.severity, m.label] for m in marks]
    parts = [CROP_STYLE, pdf_sha256, table.page, list(table.bbox), table.caption, marked]
    parts += [settings.crop_scale, settings.crop_margin]
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:24]


def cached_crop(
    cache_dir: Path, pdf_path: Path, pdf_sha256: str, table: Table, marks: list[CellMark], settings: AuditSettings
) -> bytes | None:
    """PNG bytes of the crop at :data:`CROP_SCALE` (the workspace's audit settings give the margin), from
    ``cache_dir`` when rendered before; None when the table cannot be placed."""
    settings = replace(settings, crop_scale=CROP_SCALE)
    path = cache_dir / f"{crop_key(pdf_sha256, table, marks, settings)}.png"
    if path.is_file():
        return path.read_bytes()
    image = render_table(pdf_path, table, marks, settings)
    if image is not None:
        write_bytes(path, image)
    return image
