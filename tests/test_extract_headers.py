"""Where a table's header ends (issue 29, kind 4), on generated pages: labels set flush with the body, a row of
spreads under the labels, a header not printed with its table, each beside the look-alike it must leave alone;
and the doubts a reader has where nothing on the page marks the header, or a sign is read as a digit."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from extraction_checks import DOUBT, SURE, doubts, only_table
from papers.header_layouts import (
    HEADER_LAYOUTS,
    Headerless,
    PointInMathFont,
    SymbolAsDigit,
    TightTop,
    Unruled,
    banded,
    measured,
    render_table,
    sample_grid,
    strains,
)

from pipeline.extract.document.tables import extract_tables


@pytest.mark.parametrize("name", sorted(HEADER_LAYOUTS))
def test_each_header_and_its_look_alike_read_exactly(name: str, tmp_path: Path) -> None:
    spec, printer = HEADER_LAYOUTS[name]
    truth = render_table(spec(), tmp_path / f"{name}.pdf", printer).tables[0]
    table = only_table(tmp_path / f"{name}.pdf")
    assert table.grid() == truth.cells
    assert table.header_rows == truth.header_rows
    assert table.confidence >= SURE and not doubts(table), (table.confidence, table.notes)


def test_labels_set_flush_with_the_body_are_one_header_row(tmp_path: Path) -> None:
    """'Quantum yield of' over 'the chromophore' starts a line above 'Protein': one label, one header row."""
    spec, printer = HEADER_LAYOUTS["bottom_set_labels"]
    render_table(spec(), tmp_path / "bottom.pdf", printer)
    table = only_table(tmp_path / "bottom.pdf")
    assert table.header_rows == 1
    assert table.grid()[0][:3] == ["Protein", "Quantum yield of the chromophore", "Average lifetime (ns)"]


def test_a_row_of_spreads_under_a_rule_closes_the_header(tmp_path: Path) -> None:
    """The precision row ('±0.04 ns') stands under the rule, but it prints no value: it qualifies the columns."""
    spec, printer = HEADER_LAYOUTS["spread_row_under_rule"]
    render_table(spec(), tmp_path / "spreads.pdf", printer)
    table = only_table(tmp_path / "spreads.pdf")
    assert table.header_rows == 2 and table.grid()[1][2] == "±0.04 ns"


def test_a_band_of_data_rows_over_the_first_rule_is_no_header(tmp_path: Path) -> None:
    """The header is not printed: the four rows over the first rule print values like those under it; they are
    data, the table has no header row, and its confidence says the header may be lost."""
    truth = render_table(banded(), tmp_path / "headerless.pdf", Headerless).tables[0]
    table = only_table(tmp_path / "headerless.pdf")
    assert table.header_rows == 0
    assert table.grid() == truth.cells[1:]
    assert table.confidence < DOUBT and any("header may be lost" in d for d in doubts(table)), table.notes


def test_a_header_nothing_marks_is_doubted(tmp_path: Path) -> None:
    """No rule, the body's type, words over words: the header may end elsewhere (its look-alikes, in bold or over
    values, read exactly and sure in test_each_header_and_its_look_alike_read_exactly)."""
    truth = render_table(strains(), tmp_path / "unruled.pdf", Unruled).tables[0]
    table = only_table(tmp_path / "unruled.pdf")
    assert table.grid() == truth.cells
    assert table.confidence < DOUBT and any("header ends" in d for d in doubts(table)), table.notes


def test_a_sign_set_as_a_digit_in_a_font_of_its_own_is_doubted(tmp_path: Path) -> None:
    """'2.52±0.10' printed through a symbol font whose '±' the PDF leaves as '6': the cell reads '2.5260.10'; the
    glyph's own font inside a number says so (the look-alike, '∓' in its own font but mapped, stays sure)."""
    render_table(measured(), tmp_path / "symbol.pdf", SymbolAsDigit)
    table = only_table(tmp_path / "symbol.pdf")
    assert table.grid()[1][1] == "2.5260.10"
    assert table.confidence < DOUBT and any("font of its own" in d for d in doubts(table)), table.notes


def test_a_bold_first_row_ends_a_full_grid_header_without_numbers(tmp_path: Path) -> None:
    """Every row ruled and no row of numbers before the fifth: the bold labels are the header, the rows in the
    body's type under them data (the look-alike, a bold group row over bold labels, keeps both)."""
    truth = render_table(sample_grid(), tmp_path / "grid.pdf").tables[0]
    table = only_table(tmp_path / "grid.pdf")
    assert table.header_rows == 1 and table.grid() == truth.cells


def test_a_full_grid_header_in_the_body_type_is_doubted(tmp_path: Path) -> None:
    """The same grid with plain labels: nothing marks where the header ends, and the reading says so."""
    render_table(sample_grid(bold=False), tmp_path / "plain.pdf")
    table = only_table(tmp_path / "plain.pdf")
    doubted = table.confidence < DOUBT and any("header ends" in d for d in doubts(table))
    assert table.header_rows == 1 or doubted, (table.header_rows, table.notes)  # read right, or said to be unsure


def test_a_framed_table_high_on_the_page_keeps_its_header(tmp_path: Path) -> None:
    """The frame's top rule lies where a running head's rule would, close over the header: vertical rules hang
    from it, so it is the table's, and the header row under it is read (it was lost, a data row taking its
    place at full confidence)."""
    spec = dataclasses.replace(sample_grid(), caption_position="below")
    truth = render_table(spec, tmp_path / "high.pdf", TightTop, high=True).tables[0]
    table = only_table(tmp_path / "high.pdf")
    assert table.header_rows == 1 and table.grid() == truth.cells


def test_a_point_in_a_font_of_its_own_is_no_symbol(tmp_path: Path) -> None:
    truth = render_table(measured(), tmp_path / "point.pdf", PointInMathFont).tables[0]
    table = only_table(tmp_path / "point.pdf")
    assert table.grid() == truth.cells
    assert table.confidence >= SURE and not doubts(table), table.notes


JOURNALS2 = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "journals2" / "papers"


@pytest.mark.skipif(not JOURNALS2.is_dir(), reason="needs ../shared/corpus/journals2")
@pytest.mark.parametrize(
    ("paper", "label", "reason"),
    [
        ("plos_one_cfp_t65s", "Table 1", "font of its own"),  # '726±88' read '726688': its signs in a symbol font
        ("biorxiv_plm_finetuning", "Table 2", "note under the table"),  # its '*' note read as the last row
    ],
)
def test_a_misread_journal_table_says_so(paper: str, label: str, reason: str) -> None:
    (table,) = [t for t in extract_tables(JOURNALS2 / f"{paper}.pdf").tables if t.label == label]
    assert table.confidence < DOUBT and any(reason in d for d in doubts(table)), table.notes


@pytest.mark.skipif(not JOURNALS2.is_dir(), reason="needs ../shared/corpus/journals2")
def test_the_four_level_header_of_a_plos_table_is_read() -> None:
    """Labels set flush with the body over a precision row under the header rule: the four header rows are the
    groups, the sub-groups, the labels (their first lines joined) and the spreads."""
    (table,) = extract_tables(JOURNALS2 / "plos_one_cfp_t65s.pdf").tables
    assert table.header_rows == 4
    assert table.grid()[0][2] == "Quantum Yield" and table.grid()[3][3] == "±0.04 ns"
