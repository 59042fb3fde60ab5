"""Checks shared by the extraction tests on generated papers."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping
from pathlib import Path

import pdfplumber

from pipeline.extract.document.tables import extract_tables
from pipeline.extract.reading.chars import Char
from pipeline.fixtures import PaperTruth
from pipeline.model import Table, TablesFile
from pipeline.numbers import normalise

DOUBT = 0.8  # under this the audit turns an error into a warning
SURE = 0.9


def only_table(pdf: Path) -> Table:
    (table,) = extract_tables(pdf).tables
    return table


def doubts(table: Table) -> list[str]:
    """The doubts written on the table (confidence/doubts.py)."""
    return [n for n in table.notes if n.startswith("doubt: ")]


def _centre_inside(obj: dict, box: tuple[float, float, float, float]) -> bool:
    x, y = (obj["x0"] + obj["x1"]) / 2, (obj["top"] + obj["bottom"]) / 2
    return obj.get("object_type") == "char" and box[0] <= x <= box[2] and box[1] <= y <= box[3]


def squash(text: str) -> str:
    return "".join(unicodedata.normalize("NFKC", normalise(text)).split())


def assert_cells_found_in_their_bboxes(pdf: Path, found: TablesFile) -> None:
    """Read independently with pdfplumber, the characters inside each cell's bbox spell its text."""
    with pdfplumber.open(pdf) as doc:
        for table in found.tables:
            for cell in table.cells:
                if not cell.text or cell.bbox is None:
                    continue
                page = doc.pages[(cell.locator.page if cell.locator else table.page) - 1]  # continued: its own page
                inside = page.filter(lambda obj, box=cell.bbox: _centre_inside(obj, box))
                assert squash(cell.text) == squash(inside.extract_text()), (table.label, cell.row, cell.col)


def spans(table: Table) -> list[tuple[int, int, int, int]]:
    """Every spanning cell as (row, col, row_span, col_span), sorted."""
    return sorted((c.row, c.col, c.row_span, c.col_span) for c in table.cells if c.row_span > 1 or c.col_span > 1)


def render_and_extract(
    folder: Path, renderers: Mapping[str, Callable[[Path], PaperTruth]]
) -> dict[str, tuple[Path, PaperTruth, TablesFile]]:
    """Each generated paper written into ``folder``, with its truth and the tables extracted from it."""
    out = {}
    for name, render in renderers.items():
        pdf = folder / f"{name}.pdf"
        truth = render(pdf)
        out[name] = (pdf, truth, extract_tables(pdf))
    return out


def assert_read_as_printed(paper: PaperTruth, found: TablesFile, min_confidence: float = 0.8) -> None:
    """Every table under its label, with the printed grid, header, caption, and a confidence that says so."""
    assert [t.label for t in found.tables] == [t.label for t in paper.tables]
    for truth, table in zip(paper.tables, found.tables, strict=True):
        assert table.grid() == truth.cells
        assert table.header_rows == truth.header_rows
        assert table.caption == truth.caption
        assert table.confidence >= min_confidence


def typed_chars(text: str, x0: float, baseline: float, size: float = 10.0) -> list[Char]:
    """The glyphs of ``text`` set from ``x0`` on ``baseline`` in a monospaced face half an em wide."""
    chars, x = [], x0
    for ch in text:
        if ch != " ":
            chars.append(
                Char(ch, x, x + 0.5 * size, baseline - 0.8 * size, baseline + 0.2 * size, baseline, size, "Times")
            )
        x += 0.5 * size
    return chars
