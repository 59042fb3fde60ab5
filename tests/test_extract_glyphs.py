"""Reading glyphs: ones the PDF gives no unicode for, raised exponents, bold faces without 'Bold' in
their name. Generated PDFs: a hand-written one with Type3 glyphs that map to no character, and a
fixture paper whose bold face is renamed."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pdfplumber
import pytest
from conftest import SHARED, needs_shared
from papers.extra_features import render_unnamed_bold

from pipeline.extract.document.tables import extract_tables
from pipeline.extract.page.words import build_words, join_words, raised_tail
from pipeline.extract.reading.chars import UNKNOWN, Char, open_page, open_pdf, read_chars, read_graphics
from pipeline.numbers import mark_raised_tail, parse_number

BAR = b"600 0 50 230 550 290 d1 50 230 500 60 re f"  # a flat bar: how a minus looks
GOLD_DEV2 = Path(__file__).resolve().parents[1] / "benchmarks" / "gold_dev2"
CROSS = b"600 0 50 50 550 550 d1 50 280 500 60 re f 270 50 60 500 re f"  # a cross: text unknown


def _type3_pdf(path: Path, glyph: bytes, sideways: bool = False) -> Path:
    """'4.9 x 10', then glyph code 2 of a Type3 font (no unicode), then a raised '5', then 'next'; ``sideways``
    turns it a quarter turn counter-clockwise (reading bottom to top, as a table set sideways)."""
    content = (  # Helvetica '4.9 x 10' at 10 pt is 35.58 pt wide: the exponent starts right after it
        b"BT /F1 10 Tf 50 100 Td (4.9 x 10) Tj ET BT /F2 7 Tf 86 104 Td <02> Tj /F1 7 Tf (5) Tj ET "
        b"BT /F1 10 Tf 150 100 Td (next) Tj ET"
    )
    if sideways:
        content = b"q 0 1 -1 0 250 0 cm " + content + b" Q"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >>"
        b" /Contents 6 0 R >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix [0.001 0 0 0.001 0 0]"
        b" /CharProcs << /g2 7 0 R >> /Encoding << /Type /Encoding /Differences [2 /g2] >>"
        b" /FirstChar 2 /LastChar 2 /Widths [600] /Resources << >> >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(glyph), glyph),
    ]
    data, offsets = b"%PDF-1.4\n", []
    for number, body in enumerate(objects, 1):
        offsets.append(len(data))
        data += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(data)
    data += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    data += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    data += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    path.write_bytes(data)
    return path


def _chars(pdf: Path, index: int = 0) -> list[Char]:
    doc = open_pdf(pdf)
    try:
        with open_page(doc, index) as (page, textpage):
            content = read_graphics(page, index + 1, 2.5, 8.0)
            read_chars(page, textpage, content)
        return content.chars
    finally:
        doc.close()


def test_a_flat_glyph_without_unicode_is_a_minus_and_the_text_after_it_stays_in_place(tmp_path: Path) -> None:
    chars = _chars(_type3_pdf(tmp_path / "bar.pdf", BAR))
    assert "".join(c.text for c in chars) == "4.9x10-5next"
    five = next(c for c in chars if c.text == "5")
    assert five.x0 > next(c for c in chars if c.text == "-").x1 - 0.5  # each text sits on its own glyph box


def test_a_flat_glyph_without_unicode_set_sideways_is_a_minus_too(tmp_path: Path) -> None:
    chars = _chars(_type3_pdf(tmp_path / "bar.pdf", BAR, sideways=True))
    assert "".join(c.text for c in chars) == "4.9x10-5next"
    assert chars[0].turn == 90
    cross = _chars(_type3_pdf(tmp_path / "cross.pdf", CROSS, sideways=True))
    assert "".join(c.text for c in cross) == f"4.9x10{UNKNOWN}5next"


def test_an_unknown_glyph_is_marked_not_dropped(tmp_path: Path) -> None:
    chars = _chars(_type3_pdf(tmp_path / "cross.pdf", CROSS))
    assert "".join(c.text for c in chars) == f"4.9x10{UNKNOWN}5next"
    assert parse_number(join_words(build_words(chars[:-4], 0.12))) is None  # never 4.9 x 10^5 or 105


def test_a_raised_exponent_joins_its_number_and_is_read_as_a_power_of_ten(tmp_path: Path) -> None:
    words = build_words(_chars(_type3_pdf(tmp_path / "bar.pdf", BAR)), 0.12)
    value = [w for w in words if w.text.startswith("10")]
    assert [w.text for w in value] == ["10-5"]
    assert raised_tail(value) == "-5"
    cell = join_words(words[:-1])
    assert cell == "4.9 x 10-5"
    number = parse_number(mark_raised_tail(cell, raised_tail(words[:-1])))
    assert number is not None and number.value == Fraction(49, 10**6)


def _char(text: str, x0: float, size: float = 10.0, rise: float = 0.0) -> Char:
    return Char(text, x0, x0 + 0.5 * size, 100 - 0.8 * size - rise, 100 + 0.2 * size - rise, 100 - rise, size, "F")


def test_a_raised_smaller_glyph_after_a_gap_stays_with_its_number() -> None:
    chars = [_char("1", 0), _char("0", 5), _char("5", 13, size=7, rise=3.5), _char("7", 40)]
    assert [w.text for w in build_words(chars, 0.12)] == ["105", "7"]
    assert [w.text for w in build_words([_char("1", 0), _char("0", 5), _char("5", 13)], 0.12)] == ["10", "5"]


def test_bold_comes_from_stroke_weight_when_the_font_name_does_not_say_bold(tmp_path: Path) -> None:
    truth = render_unnamed_bold(tmp_path / "bold.pdf").tables[0]
    table = next(t for t in extract_tables(tmp_path / "bold.pdf").tables if t.label == truth.label)
    assert not any("Bold" in c.font for c in _chars_of(tmp_path / "bold.pdf"))
    assert sorted((c.row, c.col) for c in table.cells if c.bold) == sorted(map(tuple, truth.bold))


def _chars_of(pdf: Path) -> list[Char]:
    with pdfplumber.open(pdf) as doc:
        pages = len(doc.pages)
    return [c for i in range(pages) for c in _chars(pdf, i)]


@needs_shared
def test_contrafold_table_4_reads_minus_signs_and_powers_of_ten() -> None:
    pdf = SHARED / "corpus" / "papers" / "doi_10.1093_bioinformatics_btl246_contrafold.pdf"
    table = next(t for t in extract_tables(pdf).tables if t.label == "Table 4")
    cells = {(c.row, c.col): c for c in table.cells}
    assert [cells[1, c].text for c in (1, 2, 4, 5)] == ["+", "-", "+", "-"]
    assert cells[3, 3].text == "4.9 · 10-5" and cells[3, 3].value == pytest.approx(4.9e-5)
    assert cells[5, 6].value == pytest.approx(6.8e-22)
    assert table.n_cols == 7 and all(c.value != 5.0 for c in table.cells)


@needs_shared
def test_contrafold_table_2_finds_bold_in_a_font_named_without_bold() -> None:
    gold = json.loads((GOLD_DEV2 / "doi_10.1093_bioinformatics_btl246_contrafold__Table2.json").read_text())
    pdf = SHARED / "corpus" / "papers" / gold["pdf"]
    table = next(t for t in extract_tables(pdf).tables if t.label == "Table 2")
    bold = sorted((c.row - table.header_rows, c.col) for c in table.cells if c.bold)
    assert bold == sorted((r - gold["header_rows"], c) for r, c in gold["bold"])  # body rows, as printed
