"""Figures with no caption on their page are set apart as figures, with why, and the tables beside them still
come out (issue 20: figures are not tables)."""

from __future__ import annotations

from pathlib import Path

import pytest
from papers import tables
from papers.figure_layouts import (
    FIGURE_LAYOUTS,
    LinePlot,
    render_data_beside_chart,
    render_plot_over_uncaptioned_table,
    render_table_under_plots,
)
from papers.journal_layouts import BODY, FAM, _around, _paper, _write
from reportlab.platypus import Paragraph as RLParagraph

from pipeline.audit.settings import AuditSettings
from pipeline.extract.confidence.score import FIGURE_LIKE_CONFIDENCE
from pipeline.extract.document.tables import extract_tables
from pipeline.extract.page.layout import arrange_page
from pipeline.extract.reading.chars import open_page, open_pdf, read_chars, read_graphics
from pipeline.extract.regions.figures import STRONG_SIGNALS, figure_reasons
from pipeline.extract.settings import ExtractionSettings
from pipeline.fixtures.draw import TableFlowable
from pipeline.fixtures.spec import PaperTruth
from pipeline.model import TablesFile

FIGURE_WORDS = {"line_plot": "Accuracy", "heat_map": "Evo", "track_image": "H3K27ac"}


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[object, TablesFile]]:
    folder = tmp_path_factory.mktemp("figure_layouts")
    out = {}
    for name, (render, _) in FIGURE_LAYOUTS.items():
        pdf = folder / f"{name}.pdf"
        out[name] = (render(pdf), extract_tables(pdf))
    return out


@pytest.mark.parametrize("name", sorted(FIGURE_LAYOUTS))
def test_a_figure_without_caption_is_set_apart_with_its_reason(name: str, rendered: dict) -> None:
    _, found = rendered[name]
    (figure,) = found.figures
    assert figure.page == 1 and FIGURE_LAYOUTS[name][1] in figure.reason
    assert figure.confidence < AuditSettings().needs_check_below
    assert not any(FIGURE_WORDS[name] in c.text for t in found.tables for c in t.cells)


@pytest.mark.parametrize("name", sorted(FIGURE_LAYOUTS))
def test_the_table_under_the_figure_still_comes_out_whole(name: str, rendered: dict) -> None:
    truth, found = rendered[name]
    (table,) = found.tables
    assert table.label == "Table 1" and table.grid() == truth.tables[0].cells
    assert table.confidence == 1.0 and not any("figure" in note for note in table.notes)


def test_a_table_without_caption_beside_a_plot_stays_a_table(tmp_path: Path) -> None:
    """The signals judge drawing, not the lack of a caption: an uncaptioned booktabs table is no figure."""
    truth = render_plot_over_uncaptioned_table(tmp_path / "uncaptioned.pdf")
    found = extract_tables(tmp_path / "uncaptioned.pdf")
    (table,) = found.tables
    assert table.label is None and table.grid() == truth.tables[0].cells
    (figure,) = found.figures
    assert "axis ticks" in figure.reason and not figure.bbox[1] <= table.bbox[1] <= figure.bbox[3]


def test_each_signal_says_what_it_saw(rendered: dict) -> None:
    reason = rendered["line_plot"][1].figures[0].reason
    assert "axis ticks: 100 95 90 85 80 75 70 65 60 55 50 evenly spaced" in reason
    assert "vector marks" in reason
    tiles = rendered["heat_map"][1].figures[0].reason
    assert "36 filled tiles of one size in 7 shades abutting in a 6 x 6 grid" in tiles


def test_no_signal_fires_on_the_booktabs_table_and_all_strong_ones_on_the_plot(tmp_path: Path) -> None:
    pdf = tmp_path / "plot.pdf"
    FIGURE_LAYOUTS["line_plot"][0](pdf)
    found = extract_tables(pdf)
    settings = ExtractionSettings()
    doc = open_pdf(pdf)
    with open_page(doc, 0) as (page, textpage):
        content = read_graphics(page, 1, settings.rule_thickness_pt, settings.min_rule_length_pt)
        read_chars(page, textpage, content)
    doc.close()
    layout = arrange_page(content, settings)
    assert figure_reasons(layout, found.tables[0].bbox) == []
    reasons = figure_reasons(layout, found.figures[0].bbox, STRONG_SIGNALS)
    assert [r.split(" ")[1] for r in reasons] == ["vector", "ticks:"]


def _table_then_plot(path: Path) -> PaperTruth:
    spec = tables.booktabs("Table 1")
    part = TableFlowable(spec, FAM, list(range(spec.n_rows)), spec.full_caption, "single")
    part.spaceAfter = 0.0
    return _paper(path, [spec], [part], _around(part, LinePlot()))


def test_a_table_set_right_against_a_plot_is_cut_where_the_plot_begins(tmp_path: Path) -> None:
    """No gap and no prose between a captioned table and the plot under it: the walk from the caption runs on
    into the plot's labels; the table ends where the plot's ink begins, and says so."""
    truth = _table_then_plot(tmp_path / "against.pdf")
    (table,) = extract_tables(tmp_path / "against.pdf").tables
    assert table.grid() == truth.tables[0].cells
    (note,) = [n for n in table.notes if n.startswith("ends where a figure drawn against it begins")]
    assert "axis ticks" in note and table.confidence == 1.0


def test_a_table_caption_over_a_plot_keeps_it_at_needs_check_confidence(tmp_path: Path) -> None:
    """A 'Table 1' caption over nothing but a plot: kept under its caption, never demoted, but doubted."""
    _write(tmp_path / "plot.pdf", _around(RLParagraph("Table 1: Accuracy against sequence length.", BODY), LinePlot()))
    found = extract_tables(tmp_path / "plot.pdf").tables
    assert [t.panel for t in found] == ["(a) Human", "(b) Mouse"]  # its panels' titles read as sub-captions
    for table in found:
        assert table.label == "Table 1"
        assert table.confidence == FIGURE_LIKE_CONFIDENCE < AuditSettings().needs_check_below
        assert any(n.startswith("drawn like a figure (") and "axis ticks" in n for n in table.notes)


def test_a_table_beside_its_bar_chart_is_cut_from_it(tmp_path: Path) -> None:
    """A report's uncaptioned table with a bar chart of its numbers beside it, each bar's label on its row:
    read as one region of three columns, then cut at the gutter before the chart's labels."""
    grid = render_data_beside_chart(tmp_path / "beside.pdf")
    found = extract_tables(tmp_path / "beside.pdf")
    (table,) = found.tables
    assert table.grid() == grid
    (figure,) = found.figures
    assert "5 bars of one thickness from one baseline" in figure.reason
    assert figure.bbox[0] > table.bbox[2] and figure.bbox[2] > 490  # the bars run on past their labels


def test_a_captioned_table_under_plots_is_kept_doubted_with_both_reasons(tmp_path: Path) -> None:
    """Issue 29 kind 10: a full-grid table under its own 'Table 1.' caption in the right column, under a page of
    plots and their figure caption; the caption sits on one line with the left column's text. The figure signal
    (aligned text beside a figure caption) and the table signal (its caption) conflict: the table is kept at
    needs-check confidence, both reasons written on it, never dropped silently."""
    truth = render_table_under_plots(tmp_path / "under_plots.pdf")
    found = extract_tables(tmp_path / "under_plots.pdf")
    (table,) = found.tables
    assert table.label == "Table 1" and table.caption.startswith("Table 1. Accuracy on Human Enhancers")
    assert table.grid() == truth.tables[0].cells
    assert table.confidence == FIGURE_LIKE_CONFIDENCE < AuditSettings().needs_check_below
    (why,) = [n for n in table.notes if "names a table" in n]
    assert "its own caption 'Table 1." in why and "beside the figure caption 'Figure 1." in why
    assert found.figures == []


def test_the_same_grid_under_plots_without_a_table_caption_is_no_table(tmp_path: Path) -> None:
    """The look-alike: the same page with the grid printed under no caption of its own is aligned text by a
    figure caption, set apart as part of the figure as before; nothing of the plots becomes a table."""
    render_table_under_plots(tmp_path / "uncaptioned.pdf", captioned=False)
    found = extract_tables(tmp_path / "uncaptioned.pdf")
    assert found.tables == []
    (figure,) = found.figures
    assert "beside the figure caption 'Figure 1." in figure.reason
