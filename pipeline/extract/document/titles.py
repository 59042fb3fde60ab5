"""Titles printed away from their tables: a manuscript may print only "Table 1" at the table and the caption's
title with the other captions (at the end, or on another page); the table takes that title."""

from __future__ import annotations

import re

from pipeline.extract.regions.captions import Caption
from pipeline.model import Table


def _key(text: str) -> str:
    return re.sub(r"[\W_]", "", text).lower()


def take_titles(tables: list[Table], elsewhere: list[tuple[int, Caption]]) -> list[Table]:
    """Each table captioned by its label alone takes the one caption under that label printed on another page
    with no table of its own (``elsewhere``: page, caption), with a note saying where; none is taken where two
    such captions share the label (which one is the table's cannot be told)."""
    for table in tables:
        if table.label is None or _key(table.caption) != _key(table.label):  # a title printed at the table
            continue
        found = [(page, c) for page, c in elsewhere if c.label == table.label and page != table.page]
        titled = [(page, c) for page, c in found if _key(c.text) != _key(c.label)]
        if len(titled) == 1:
            page, caption = titled[0]
            table.caption = caption.text
            table.notes.append(f"its title is printed on page {page}, away from the table")
    return tables
