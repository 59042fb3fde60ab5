"""Pages held between the passes over a document, and read again past the budget: the same tables either way."""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

import pytest
from papers import feature_papers
from pypdfium2 import PdfDocument

import pipeline.extract.document.pages as pages_module
from pipeline.extract.document.pages import DocumentPages
from pipeline.extract.document.tables import _read, extract_tables
from pipeline.extract.page.layout import PageLayout
from pipeline.extract.reading.chars import open_pdf
from pipeline.extract.reading.graphics import Rule, _EvenSample
from pipeline.extract.settings import ExtractionSettings
from pipeline.fixtures import render_paper, write_demo_paper


@pytest.fixture(scope="module")
def papers(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("held")
    specs = feature_papers()
    out = [write_demo_paper(folder / "demo.pdf")]
    for name in ("continued", "several_per_page", "captions"):
        render_paper(specs[name], folder / f"{name}.pdf")
        out.append(folder / f"{name}.pdf")
    return out


def _recorded(doc: PdfDocument, reads: list[int]) -> Callable[[int], PageLayout | None]:
    """The document's page reader, noting in ``reads`` each page it reads."""
    settings = ExtractionSettings()

    def read(i: int) -> PageLayout | None:
        reads.append(i)
        return _read(doc, i, settings, {})

    return read


def test_pages_read_again_give_the_tables_of_pages_held(papers: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    held = [extract_tables(pdf).to_dict() for pdf in papers]
    monkeypatch.setattr(pages_module, "HELD_ITEMS", 0)  # no page held: every later pass reads its page again
    again = [extract_tables(pdf).to_dict() for pdf in papers]
    assert again == held
    assert any(table["cells"] for found in held for table in found["tables"])


def test_pages_past_the_budget_are_read_again(papers: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    doc = open_pdf(papers[1])  # the continued table: two pages with table cues
    reads: list[int] = []
    read = _recorded(doc, reads)
    monkeypatch.setattr(pages_module, "HELD_ITEMS", 0)
    pages = DocumentPages(read, len(doc))
    assert len(pages.indexes) >= 2 and reads == list(range(len(doc)))
    first = pages.get(pages.indexes[0])
    assert reads[-1] == pages.indexes[0]  # read again, not held
    assert first.layout.number == pages.indexes[0] + 1 and first.captions
    doc.close()


def test_the_budget_counts_a_page_s_drawn_pieces_with_its_glyphs(
    papers: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Strokes cost memory as glyphs do: counting glyphs only, pages of dense plots were all held (a 300-page
    PDF peaked at 216 MB, 141 with them counted)."""
    doc = open_pdf(papers[1])
    reads: list[int] = []
    read = _recorded(doc, reads)
    first = next(layout for i in range(len(doc)) if (layout := read(i)) is not None)
    assert first.content.drawing.size > 0  # its rules
    monkeypatch.setattr(pages_module, "HELD_ITEMS", len(first.content.chars))  # room for its glyphs alone
    pages = DocumentPages(read, len(doc))
    assert pages.indexes[0] == first.number - 1
    pages.get(pages.indexes[0])
    assert reads[-1] == pages.indexes[0]  # not held: read again
    doc.close()


def test_a_page_of_countless_short_strokes_keeps_an_even_sample_of_them() -> None:
    """A dense drawing (a map of 650,000 tiny strokes) held every one of them: 130 MB for one page."""
    sample = _EvenSample(10)
    strokes = [Rule(float(i), 0.0, float(i) + 1.0, 0.5) for i in range(1000)]
    for stroke in strokes:
        sample.offer(stroke)
    kept = [int(r.x0) for r in sample.items]
    assert 10 <= len(kept) < 20
    steps = {b - a for a, b in pairwise(kept)}
    assert len(steps) == 1 and kept[0] == 0  # evenly spread from the first
    few = _EvenSample(10)
    for stroke in strokes[:19]:
        few.offer(stroke)
    assert few.items == strokes[:19]  # under the limit nothing is let go
