"""Readers of the authors' own sources into the model's tables: one module per format, one registry line each.

``READERS`` is ordered: a source with several text artifacts is read by the first reader that fits one of
them; a PDF, when the source has one, is always the first reading (its cells have pages to crop), and the
first text reading is then the second reading of every cell (pipeline/readers/agreement.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pipeline.readers.assemble import Reading
from pipeline.readers.html import read_html
from pipeline.readers.latex import read_latex
from pipeline.readers.markdown import read_markdown


@dataclass(frozen=True)
class Reader:
    kind: str  # the artifact kind it reads (pipeline/fetch/kinds.py)
    engine: str  # the name its tables carry (Table.engine)
    read: Callable[[Path, str], Reading]  # (stored file, its name) -> tables and prose


READERS: tuple[Reader, ...] = (
    Reader("latex", "litaudit-latex", read_latex),
    Reader("html", "litaudit-html", read_html),
    Reader("markdown", "litaudit-markdown", read_markdown),
)


def reader_for(kind: str) -> Reader | None:
    return next((r for r in READERS if r.kind == kind), None)


def reading_order(kinds: list[str]) -> list[str]:
    """The text kinds among ``kinds`` in the registry's order."""
    return [r.kind for r in READERS if r.kind in kinds]
