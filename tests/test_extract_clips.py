"""Only what the page shows is read: an embedded page's own copy of the text and rules outside the clip
that shows its figure, and invisible text, are left out; the figure it shows is kept."""

from __future__ import annotations

from pathlib import Path

import pytest
from papers.embedded_page import BOTTOM, ROWS, TOP, write_embedded_page

from pipeline.extract.document.tables import extract_tables
from pipeline.extract.reading.chars import open_page, open_pdf, read_chars, read_graphics

PAGE_HEIGHT = 842.0


@pytest.fixture(params=[False, True], ids=["clip-around-the-form", "clip-inside-the-form"])
def embedded(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    return write_embedded_page(tmp_path / "embedded.pdf", clip_inside=request.param)


def test_the_embedded_copy_s_text_and_rules_are_not_read(embedded: Path) -> None:
    doc = open_pdf(embedded)
    try:
        with open_page(doc, 0) as (page, textpage):
            content = read_graphics(page, 1, 2.5, 8.0)
            read_chars(page, textpage, content)
    finally:
        doc.close()
    text = "".join(c.text for c in content.chars)
    assert text == "Table1.Accuracyofthemodels." + "".join("".join(row) for row in ROWS)
    rule_tops = sorted(round(PAGE_HEIGHT - r.y) for r in content.drawing.hrules)
    assert rule_tops == [round(BOTTOM), round(TOP - 17), round(TOP)]
    assert len(content.drawing.fills) == 2  # the figure the clip shows is still drawn


def test_the_table_is_read_once_under_its_label(embedded: Path) -> None:
    tables = extract_tables(embedded).tables
    assert [str(t.label) for t in tables] == ["Table 1"]
    grid = {(c.row, c.col): c.text for c in tables[0].cells}
    assert grid == {(r, c): text for r, row in enumerate(ROWS) for c, text in enumerate(row)}
