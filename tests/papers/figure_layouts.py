"""Figures with no caption on their page (issue 20: the caption is on another page or far away), each above a
captioned booktabs table: a line plot drawn with vector marks, ticks and evenly spaced numeric tick labels; a
heat map of filled squares with row and column labels; a raster image with track labels and ranges beside
it. Each renderer writes the PDF and returns its truth (the table only: the figure is no table)."""

from __future__ import annotations

import dataclasses
import io
import math
from collections.abc import Callable
from pathlib import Path

from PIL import Image
from reportlab.lib.pagesizes import letter
from reportlab.lib.utils import ImageReader
from reportlab.platypus import BaseDocTemplate, Flowable, FrameBreak, PageTemplate
from reportlab.platypus import Frame as RLFrame
from reportlab.platypus import Paragraph as RLParagraph

from papers import tables
from papers.journal_layouts import BODY, FAM, _around, _paper, _whole, _write
from papers.prose import paragraphs
from pipeline.fixtures.draw import TableFlowable
from pipeline.fixtures.spec import PaperTruth
from pipeline.fixtures.truth import table_truth
from pipeline.store import write_bytes

SERIES = (0.62, 0.55, 0.7)  # accuracy at the shortest length, per model


class LinePlot(Flowable):
    """Accuracy against sequence length in panels side by side (by default two: human, mouse): axes with ticks,
    tick labels 0-1.0 and 50-100, axis titles, one polyline with round markers per model. The panels' tick
    labels share their baselines, so they stand in columns like a table's numbers."""

    def __init__(self, titles: tuple[str, ...] = ("(a) Human", "(b) Mouse"), panel: float = 200.0) -> None:
        super().__init__()
        self.titles, self.panel = titles, panel

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self.width, self.height = len(self.titles) * (self.panel + 20) - 20, 190.0
        return self.width, self.height

    def draw(self) -> None:
        for panel, title in enumerate(self.titles):
            self._panel(panel * (self.panel + 20), title, panel)

    def _panel(self, x0: float, title: str, shift: int) -> None:
        c = self.canv
        left, bottom, right, top = x0 + 50.0, 40.0, x0 + self.panel - 5, self.height - 15
        c.setLineWidth(0.6)
        c.line(left, bottom, right, bottom)
        c.line(left, bottom, left, top)
        c.setFont(FAM.regular, 7)
        for k in range(6):
            x = left + k * (right - left) / 5
            c.line(x, bottom, x, bottom - 3)
            c.drawCentredString(x, bottom - 11, f"{k * 0.2:.1f}")
        for k in range(11):
            y = bottom + k * (top - bottom) / 10
            c.line(left, y, left - 3, y)
            c.drawRightString(left - 5, y - 2.5, str(50 + 5 * k))
        c.setFont(FAM.regular, 8)
        c.drawCentredString((left + right) / 2, self.height - 8, title)
        c.drawCentredString((left + right) / 2, 8, "Length (fraction of 100 kb)")
        c.saveState()
        c.translate(x0 + 14, (bottom + top) / 2)
        c.rotate(90)
        c.drawCentredString(0, 0, "Accuracy (%)")
        c.restoreState()
        for n, start in enumerate(SERIES):
            points = [
                (
                    left + k * (right - left) / 10,
                    bottom + (top - bottom) * (start - 0.5 + 0.2 * math.sin(k / 3 + n + shift)),
                )
                for k in range(11)
            ]
            path = c.beginPath()
            path.moveTo(*points[0])
            for point in points[1:]:
                path.lineTo(*point)
            c.drawPath(path, stroke=1, fill=0)
            for x, y in points:
                c.circle(x, y, 1.8, stroke=0, fill=1)


class HeatMap(Flowable):
    """Agreement of six models over k-mer sizes as grey squares, each printing its value (an annotated heat
    map), model names down the left and k-mer sizes across the top: rows and columns like a table's."""

    ROWS = ("NT", "DNABERT2", "HyenaDNA", "Caduceus", "GENA-LM", "Evo")
    COLUMNS = ("k = 3", "k = 4", "k = 5", "k = 6", "k = 7", "k = 8")
    cell, row = 28.0, 14.0

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self.width, self.height = 70 + 6 * self.cell, 20 + 6 * self.row
        return self.width, self.height

    def draw(self) -> None:
        c = self.canv
        c.setFont(FAM.regular, 8)
        for col, name in enumerate(self.COLUMNS):
            c.drawCentredString(70 + (col + 0.5) * self.cell, self.height - 10, name)
        for row, name in enumerate(self.ROWS):
            y = self.height - 20 - (row + 1) * self.row
            c.setFillGray(0)
            c.drawRightString(64, y + 4, name)
            for col in range(len(self.COLUMNS)):
                shade = ((row * 5 + col * 3) % 7) / 6
                c.setFillGray(0.45 + 0.5 * shade)
                c.rect(70 + col * self.cell, y, self.cell, self.row, stroke=0, fill=1)
                c.setFillGray(0)
                c.drawCentredString(70 + (col + 0.5) * self.cell, y + 4, f"{0.5 + shade / 2:.2f}")
        c.setFillGray(0)


class TrackImage(Flowable):
    """A genome-browser screenshot (a raster image) with each track's name on its left and the top of its
    signal range on its right, as browser figures print them: names and numbers in two aligned columns."""

    TRACKS = (
        ("H3K27ac", "120"),
        ("H3K4me1", "64"),
        ("H3K4me3", "85"),
        ("H3K27me3", "22"),
        ("H3K36me3", "18"),
        ("ATAC", "40"),
        ("DNase", "52"),
        ("CTCF", "60"),
    )

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self.width, self.height = 360.0, 13.0 * len(self.TRACKS)
        return self.width, self.height

    def draw(self) -> None:
        c = self.canv
        c.drawImage(ImageReader(_tracks_png(len(self.TRACKS))), 60, 0, width=240, height=self.height)
        c.setFont(FAM.regular, 8)
        step = self.height / len(self.TRACKS)
        for k, (name, scale) in enumerate(self.TRACKS):
            y = self.height - (k + 0.5) * step - 3
            c.drawRightString(54, y, name)
            c.drawString(306, y, scale)


def _tracks_png(tracks: int) -> io.BytesIO:
    """Signal tracks as grey peaks on white, 30 pixels a track."""
    image = Image.new("L", (240, 30 * tracks), 255)
    pixels = image.load()
    assert pixels is not None
    for track in range(tracks):
        base = 30 * track + 28
        for x in range(240):
            peak = int(20 * abs(math.sin((x + 17 * track) / 11)) ** 3)
            for y in range(base - peak, base):
                pixels[x, y] = 60
    out = io.BytesIO()
    image.save(out, format="PNG")
    out.seek(0)
    return out


def _figure_over_table(figure: Callable[[], Flowable]) -> Callable[[Path], PaperTruth]:
    def render(path: Path) -> PaperTruth:
        spec = tables.booktabs("Table 1")
        part = _whole(spec)
        return _paper(path, [spec], [part], _around(figure(), part))

    return render


FIGURE_LAYOUTS: dict[str, tuple[Callable[[Path], PaperTruth], str]] = {
    "line_plot": (_figure_over_table(LinePlot), "axis ticks"),
    "heat_map": (_figure_over_table(HeatMap), "filled tiles"),
    "track_image": (_figure_over_table(TrackImage), "an image covers"),
}


def render_plot_over_uncaptioned_table(path: Path) -> PaperTruth:
    """The line plot over a booktabs table printed without a caption (a report's table): the table must still
    come out, the plot must not."""
    spec = tables.booktabs("Table 1")
    part = TableFlowable(spec, FAM, list(range(spec.n_rows)), "", "single")
    return _paper(path, [spec], [part], _around(LinePlot(), part))


class DataBesideChart(Flowable):
    """A report's table of accuracies (no caption, no rules) with a bar chart of the same numbers right beside
    it, each bar's label on its row's baseline, an axis with ticks and tick labels under the bars."""

    ROWS = (("NT", 0.812), ("DNABERT2", 0.806), ("HyenaDNA", 0.798), ("GENA-LM", 0.817), ("Caduceus", 0.826))
    PITCH = 12.0

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self.width, self.height = availWidth, self.PITCH * (len(self.ROWS) + 1) + 24
        return self.width, self.height

    def draw(self) -> None:
        c = self.canv
        c.setFont(FAM.regular, 9)
        top = self.height - 9
        c.drawString(0, top, "Model")
        c.drawRightString(150, top, "Accuracy")
        left, scale = 300.0, 150.0  # the chart's axis, and its length for 1.0
        for k, (name, value) in enumerate(self.ROWS):
            y = top - (k + 1) * self.PITCH
            c.drawString(0, y, name)
            c.drawRightString(150, y, f"{value:.3f}")
            c.drawRightString(left - 6, y, name)
            c.rect(left, y - 1, scale * value, 8, stroke=0, fill=1)
        bottom = top - len(self.ROWS) * self.PITCH - 6
        c.line(left, bottom, left + scale, bottom)
        c.setFont(FAM.regular, 7)
        for k in range(6):
            x = left + k * scale / 5
            c.line(x, bottom, x, bottom - 3)
            c.drawCentredString(x, bottom - 11, f"{k * 0.2:.1f}")


def render_data_beside_chart(path: Path) -> list[list[str]]:
    """The table beside its chart; returns the table's grid (it has no caption, so no PaperTruth label)."""
    _write(path, _around(DataBesideChart()))
    return [["Model", "Accuracy"], *([name, f"{value:.3f}"] for name, value in DataBesideChart.ROWS)]


def render_table_under_plots(path: Path, captioned: bool = True) -> PaperTruth:
    """An arXiv results page: two rows of plots across the top over their 'Figure 1.' caption, then two columns,
    running text on the left and on the right a small full-grid table under its own 'Table 1.' caption, the
    figure caption's last line right above it. Without ``captioned`` the table is printed with no caption (the
    look-alike: aligned text by a figure caption, under axis ticks)."""
    spec = tables.small(
        "Table 1", "Accuracy on Human Enhancers Cohn.", "Accuracy", ("0.812", "0.806", "0.798", "0.817", "0.826")
    )
    spec = dataclasses.replace(spec, rules="grid", separator=".")
    part = TableFlowable(spec, FAM, list(range(spec.n_rows)), spec.full_caption if captioned else "", "column")
    caption = RLParagraph("Figure 1. Accuracy against sequence length for three models on four species.", BODY)
    width, height = letter
    frames = [
        RLFrame(72, 320, width - 144, height - 392, leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0),
        RLFrame(72, 72, 222, 244, leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0),
        RLFrame(318, 72, 222, 244, leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0),
    ]
    plots = [LinePlot(), LinePlot(("(c) Fly", "(d) Yeast"))]
    out = io.BytesIO()
    doc = BaseDocTemplate(out, pagesize=letter, invariant=1, title="Journal layout")
    doc.addPageTemplates([PageTemplate("plots", frames)])
    doc.build([*plots, caption, FrameBreak(), RLParagraph(paragraphs(1, start=3)[0], BODY), FrameBreak(), part])
    write_bytes(path, out.getvalue())
    truth = [table_truth(spec, [part], height)]
    return PaperTruth(title="Journal layout", pages=1, tables=truth, headings=[], text_paragraphs=[])
