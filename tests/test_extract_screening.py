"""The page screen: a page is analysed in full for an uncaptioned table only where its lines read like a table's
rows. A reference list and numbered equations carry numbers among words; read in full, the equation block
came out as a 3 x 2 table (as on 1803.02999 p. 7)."""

from __future__ import annotations

from pathlib import Path

from papers.screening import TABLE, write_screening_pages

from pipeline.extract.document.tables import extract_tables


def test_numbers_among_words_are_no_table_but_a_table_of_numbers_is(tmp_path: Path) -> None:
    tables = extract_tables(write_screening_pages(tmp_path / "screening.pdf")).tables
    assert [(t.page, t.label) for t in tables] == [(2, None)]
    assert tables[0].grid() == [list(row) for row in TABLE]
