"""Journal layouts (issue 20), typeset with the project's fixture code: captions without punctuation after the
number, dotted rules, two tables side by side under bare captions, a manuscript with line numbers in the
margin, row-group headers, a plot with text labels next to a table, a table set sideways on a portrait page,
a table continued on the next page under 'Table 2 (continued)' and one run on with no caption or header
repeated. Each renderer writes the PDF and returns its truth."""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Flowable, PageBreak, PageTemplate
from reportlab.platypus import Frame as RLFrame
from reportlab.platypus import Paragraph as RLParagraph

from papers import tables
from papers.extra_features import _SideBySide
from papers.prose import paragraphs
from pipeline.fixtures.draw import TableFlowable
from pipeline.fixtures.fonts import family
from pipeline.fixtures.spec import PaperTruth, TableSpec, truth_text
from pipeline.fixtures.table_layout import PlacedCell, Rule
from pipeline.fixtures.truth import table_truth
from pipeline.store import write_bytes

FAM = family("times")
BODY = ParagraphStyle("body", fontName=FAM.regular, fontSize=10, leading=12, spaceAfter=8)
LINE_PITCH = 12.0  # the body leading: a manuscript numbers every line


class DottedTable(TableFlowable):
    """A table whose rules are printed dotted: each rule a row of small squares (OUP-style thin rules)."""

    def draw(self) -> None:
        assert self.layout is not None, "wrap() runs before draw()"
        rules, self.layout.rules = self.layout.rules, []
        super().draw()
        self.layout.rules = rules
        for rule in rules:
            x = rule.x0
            while x < rule.x1:
                self.canv.rect(x, self.height - rule.y0 - 0.3, min(1.0, rule.x1 - x), 0.6, stroke=0, fill=1)
                x += 2.2


class RuledRowsTable(TableFlowable):
    """MDPI style: a thin rule under every body row and each cell set centred in its row's height (a row's
    values on the middle line of its wrapped stub)."""

    GAP = 4.0  # room for the rule between two rows

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        super().wrap(availWidth, availHeight)
        layout = self.layout
        assert layout is not None
        body = sorted({c.row for c in layout.cells if c.row >= self.spec.header_rows})
        first_top = min(c.bbox[1] for c in layout.cells if c.row == body[0])
        shift, extents = 0.0, []
        for r in body:
            cells = [c for c in layout.cells if c.row == r]
            top, bottom = min(c.bbox[1] for c in cells), max(c.bbox[3] for c in cells)
            for cell in cells:
                dy = shift + (top + bottom - cell.bbox[1] - cell.bbox[3]) / 2
                cell.lines = [dataclasses.replace(line, baseline=line.baseline + dy) for line in cell.lines]
                x0, y0, x1, y1 = cell.bbox
                cell.bbox = (x0, y0 + dy, x1, y1 + dy)
            extents.append((top + shift, bottom + shift))
            shift += self.GAP
        shift -= self.GAP
        for rule in layout.rules:
            if rule.y0 > first_top:  # the bottom rule moves down with the rows
                rule.y0, rule.y1 = rule.y0 + shift, rule.y1 + shift
        x0, _, x1, _ = layout.body_bbox
        layout.rules += [Rule(x0, (a[1] + b[0]) / 2, x1, (a[1] + b[0]) / 2, 0.4) for a, b in pairwise(extents)]
        layout.note = [dataclasses.replace(line, baseline=line.baseline + shift) for line in layout.note]
        layout.body_bbox = (x0, layout.body_bbox[1], x1, layout.body_bbox[3] + shift)
        layout.height += shift
        self.height = layout.height
        return self.width, self.height


class PanelTable(TableFlowable):
    """A panel of a stacked table: its title line (the spanning first row) set flush left, as Cell Press sets it."""

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        size = super().wrap(availWidth, availHeight)
        assert self.layout is not None
        left = self.layout.body_bbox[0] + 6.0  # the column padding
        for cell in self.layout.cells:
            if cell.row == 0:
                dx = left - cell.bbox[0]
                cell.lines = [dataclasses.replace(line, x=line.x + dx) for line in cell.lines]
                x0, y0, x1, y1 = cell.bbox
                cell.bbox = (x0 + dx, y0, x1 + dx, y1)
        return size


class TallHeaderTable(TableFlowable):
    """MDPI style header: each lower-level label centred in its row's height, a column label with no sub-label
    set on the upper level's line, and one rule under the upper level from that label to the right edge."""

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        size = super().wrap(availWidth, availHeight)
        layout = self.layout
        assert layout is not None
        upper = [c for c in layout.cells if c.row == 0 and c.col >= self.spec.stub_cols]
        lower = [c for c in layout.cells if c.row == 1]
        top, bottom = min(c.bbox[1] for c in lower), max(c.bbox[3] for c in lower)
        for cell in lower:
            _shift(cell, (top + bottom - cell.bbox[1] - cell.bbox[3]) / 2)
        line_top = min(c.bbox[1] for c in upper if c.col > self.spec.stub_cols)
        lone = next(c for c in upper if c.col == self.spec.stub_cols)
        _shift(lone, line_top - lone.bbox[1])
        y = max(c.bbox[3] for c in upper) + 1.5
        layout.rules = [r for r in layout.rules if r.thickness != 0.4]  # the trimmed rules under each group
        layout.rules.append(Rule(lone.bbox[0] - 3, y, layout.body_bbox[2], y, 0.4))
        return size


class StubFreeMidrule(TableFlowable):
    """A table whose rule under the header leaves the stub column out (it starts at the first value column)."""

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        size = super().wrap(availWidth, availHeight)
        assert self.layout is not None
        midrule = sorted(self.layout.rules, key=lambda r: r.y0)[1]
        midrule.x0 = min(c.bbox[0] for c in self.layout.cells if c.col == self.spec.stub_cols) - 3
        return size


def _shift(cell: PlacedCell, dy: float) -> None:
    cell.lines = [dataclasses.replace(line, baseline=line.baseline + dy) for line in cell.lines]
    x0, y0, x1, y1 = cell.bbox
    cell.bbox = (x0, y0 + dy, x1, y1 + dy)


class ScatterFigure(Flowable):
    """A scatter plot with axes, numeric tick labels and short labels beside its points: text in columns
    that is no table."""

    def __init__(self, width: float = 300.0, height: float = 180.0) -> None:
        super().__init__()
        self.width, self.height = width, height

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        c = self.canv
        c.setFont(FAM.regular, 7)
        c.line(30, 20, self.width, 20)
        c.line(30, 20, 30, self.height)
        for k in range(6):
            x, y = 30 + k * (self.width - 30) / 5, 20 + k * (self.height - 20) / 5
            c.line(x, 20, x, 16)
            c.drawCentredString(x, 8, f"{k * 0.2:.1f}")
            c.line(30, y, 26, y)
            c.drawRightString(24, y - 2, f"{k * 20}")
        points = [
            (70, 60, "NT"),
            (120, 140, "HyenaDNA"),
            (180, 90, "DNABERT2"),
            (230, 150, "Caduceus"),
            (260, 50, "GENA"),
        ]
        for x, y, name in points:
            c.circle(x, y, 2, stroke=0, fill=1)
            c.drawString(x + 4, y + 2, name)


class BoxedFlowchart(Flowable):
    """A flowchart of boxed steps in rows and columns, with counts in the boxes: ruled and aligned like a
    table, but a figure (its caption says so)."""

    STEPS = (
        ("Samples", "n = 1,204", "Quality control"),
        ("Training set", "n = 903", "Validation set"),
        ("Classifier", "LASSO", "Accuracy 0.82"),
    )

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self.width, self.height = 360.0, 150.0
        return self.width, self.height

    def draw(self) -> None:
        c = self.canv
        c.setFont(FAM.regular, 9)
        for r, row in enumerate(self.STEPS):
            for k, text in enumerate(row):
                x, y = k * 125, self.height - (r + 1) * 50
                c.rect(x, y + 8, 110, 34)
                c.drawCentredString(x + 55, y + 21, text)
                if k < 2:
                    c.line(x + 110, y + 25, x + 125, y + 25)


def _write(path: Path, story: list[Flowable], on_page: Callable[[Canvas, BaseDocTemplate], None] | None = None) -> None:
    width, height = letter
    frame = RLFrame(72, 72, width - 144, height - 144, leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
    out = io.BytesIO()
    doc = BaseDocTemplate(out, pagesize=letter, invariant=1, title="Journal layout")
    doc.addPageTemplates([PageTemplate("one", [frame], onPage=on_page or (lambda c, d: None))])
    doc.build(story)
    write_bytes(path, out.getvalue())


class Sideways(Flowable):
    """A table set sideways on a portrait page, read bottom to top (a landscape table in a portrait journal)."""

    def __init__(self, inner: TableFlowable) -> None:
        super().__init__()
        self.inner = inner

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        width, height = self.inner.wrap(availHeight, availWidth)  # the page's height is the table's width
        self.width, self.height = height, width
        return self.width, self.height

    def draw(self) -> None:
        self.canv.translate(self.width, 0)
        self.canv.rotate(90)
        self.inner.drawOn(self.canv, 0, 0)


def _paper(
    path: Path,
    specs: list[TableSpec],
    parts: list[TableFlowable],
    story: list[Flowable],
    pages: int = 1,
    **kw: object,
) -> PaperTruth:
    """The PDF and its truth; a table printed in several parts gives its parts in order."""
    _write(path, story, **kw)  # type: ignore[arg-type]
    by_label: dict[str, list[TableFlowable]] = {}
    for part in parts:
        by_label.setdefault(part.spec.label, []).append(part)
    return PaperTruth(
        title="Journal layout",
        pages=pages,
        tables=[table_truth(spec, by_label[spec.label], letter[1]) for spec in specs],
        headings=[],
        text_paragraphs=[],
    )


def _around(*middle: Flowable) -> list[Flowable]:
    texts = paragraphs(2, start=5)
    return [RLParagraph(texts[0], BODY), *middle, RLParagraph(texts[1], BODY)]


def _whole(spec: TableSpec, kind: type[TableFlowable] = TableFlowable) -> TableFlowable:
    """The table printed in one piece under its caption, in one column."""
    return kind(spec, FAM, list(range(spec.n_rows)), spec.full_caption, "single")


def _alone(path: Path, spec: TableSpec, kind: type[TableFlowable] = TableFlowable) -> PaperTruth:
    """A page of running text with the table printed whole in the middle."""
    part = _whole(spec, kind)
    return _paper(path, [spec], [part], _around(part))


def bare_caption(spec: TableSpec) -> TableSpec:
    """BMC/Springer style: 'Table 1 Accuracy of ...' with nothing after the number."""
    return dataclasses.replace(spec, separator="")


def render_unpunctuated(path: Path) -> PaperTruth:
    spec = bare_caption(tables.booktabs("Table 1"))
    return _alone(path, spec)


def render_dotted_rules(path: Path) -> PaperTruth:
    spec = tables.booktabs("Table 2")
    return _alone(path, spec, DottedTable)


def render_side_by_side_bare(path: Path) -> PaperTruth:
    left = bare_caption(
        tables.small(
            "Table 1", "Accuracy on Human Enhancers Cohn.", "Accuracy", ("0.812", "0.806", "0.798", "0.817", "0.826")
        )
    )
    right = bare_caption(
        tables.small("Table 2", "Training time in GPU hours.", "GPU hours", ("41.5", "18.2", "6.3", "22.7", "7.9"))
    )
    parts = [TableFlowable(spec, FAM, list(range(spec.n_rows)), spec.full_caption, "column") for spec in (left, right)]
    return _paper(path, [left, right], parts, _around(_SideBySide(*parts)))


def _line_numbers(canvas: Canvas, _doc: BaseDocTemplate) -> None:
    """Numbers down the left margin at the body's line pitch, as a submitted manuscript prints them."""
    canvas.setFont(FAM.regular, 8)
    top = letter[1] - 72 - 9
    for k in range(int((letter[1] - 144) // LINE_PITCH)):
        canvas.drawRightString(50, top - k * LINE_PITCH, str(101 + k))


def render_line_numbers(path: Path) -> PaperTruth:
    first, second = (
        tables.small("Table 1", "Accuracy.", "Accuracy", ("0.812", "0.806", "0.798", "0.817", "0.826")),
        tables.booktabs("Table 2"),
    )
    parts = [_whole(spec) for spec in (first, second)]
    return _paper(path, [first, second], parts, _around(*parts), on_page=_line_numbers)


def render_group_headers(path: Path) -> PaperTruth:
    spec = tables.row_group_labels("Table 3")
    return _alone(path, spec)


def render_figure_beside_table(path: Path) -> PaperTruth:
    """A plot with tick labels and point labels, its 'Figure 1.' caption under it, then a table."""
    spec = tables.small("Table 4", "Accuracy.", "Accuracy", ("0.812", "0.806", "0.798", "0.817", "0.826"))
    part = _whole(spec)
    caption = RLParagraph("Figure 1. Accuracy against model size for five DNA language models.", BODY)
    return _paper(path, [spec], [part], _around(ScatterFigure(), caption, part))


def render_sideways_table(path: Path) -> PaperTruth:
    """A page holding only a table turned a quarter left, its caption and header running up the page."""
    spec = tables.booktabs("Table 1")
    part = _whole(spec)
    return _paper(path, [spec], [part], [Sideways(part)])


def render_continued_table(path: Path) -> PaperTruth:
    """A table broken over two pages; the second part under 'Table 2 (continued)' with the header repeated."""
    spec = bare_caption(tables.continued("Table 2", first_part=8))
    header = list(range(spec.header_rows))
    split = spec.header_rows + (spec.continued_after or 0)
    first = TableFlowable(spec, FAM, list(range(split)), spec.full_caption, "single")
    second = TableFlowable(spec, FAM, header + list(range(split, spec.n_rows)), "Table 2 (continued)", "single")
    return _paper(path, [spec], [first, second], [*_around(first), PageBreak(), second], pages=2)


def render_continued_without_header(path: Path) -> PaperTruth:
    """A manuscript's table run on to the next page with no caption and no header repeated there."""
    spec = bare_caption(tables.continued("Table 3", first_part=8))
    split = spec.header_rows + (spec.continued_after or 0)
    first = TableFlowable(spec, FAM, list(range(split)), spec.full_caption, "single")
    second = TableFlowable(spec, FAM, list(range(split, spec.n_rows)), "", "single")
    return _paper(path, [spec], [first, second], [*_around(first), PageBreak(), second], pages=2)


def render_values_between_stub_lines(path: Path) -> PaperTruth:
    """Rows ruled apart, each cell centred in its row: the values on the middle line of a three-line stub."""
    spec = tables.centred_wrapped_stubs("Table 6")
    return _alone(path, spec, RuledRowsTable)


def render_tall_header_blocks(path: Path) -> PaperTruth:
    """A header of centred and wrapped labels five lines tall over ruled blocks named by centred cohort labels."""
    spec = tables.tall_header_blocks("Table 8")
    return _alone(path, spec, TallHeaderTable)


def render_group_label_under_a_short_midrule(path: Path) -> PaperTruth:
    """Row-group labels under a header rule that leaves the stub out: the rule still ends the header."""
    rows = [list(row) for row in tables.row_group_labels("Table 9").rows]
    rows[1][0], rows[5][0] = "Promoters", "Factors"  # group names shorter than the stub column
    spec = dataclasses.replace(tables.row_group_labels("Table 9"), rows=rows)
    return _alone(path, spec, StubFreeMidrule)


def render_flowchart_and_table(path: Path) -> PaperTruth:
    """A boxed flowchart under its 'Figure 2.' caption, then a captioned table."""
    spec = tables.small("Table 5", "Accuracy.", "Accuracy", ("0.812", "0.806", "0.798", "0.817", "0.826"))
    part = _whole(spec)
    caption = RLParagraph("Figure 2. Flow of samples from quality control to the classifier.", BODY)
    return _paper(path, [spec], [part], _around(BoxedFlowchart(), caption, part))


STACKED_PANELS = (
    ("Panel A: Accuracy on the promoter tasks", ("Core", "TATA", "Non-TATA", "All"), 4),
    ("Panel B: Matthews correlation on the enhancer tasks", ("Cohn", "Ensembl", "Fly", "Mouse", "Human"), 5),
    ("Panel C: Spearman correlation on the expression tasks", ("Bulk", "Liver", "Brain", "Heart", "Lung"), 5),
)


def render_stacked_panels(path: Path) -> list[list[str | None]]:
    """Three panels stacked flush under one caption, each with its title line and header line, the first with
    four value columns and the others with five: the expected grid as the gold set records such a table (one
    grid as wide as the widest panel, each panel filled from the left, titles spanning it)."""
    specs = []
    for k, (title, columns, n) in enumerate(STACKED_PANELS):
        values = tuple(tuple(f"0.{600 + 37 * r + 11 * c + 5 * k}" for c in range(n)) for r in range(3))
        specs.append(tables.stacked_panel("Table 7", title, columns, values))
    parts = [
        PanelTable(spec, FAM, list(range(spec.n_rows)), spec.full_caption if k == 0 else "", "single")
        for k, spec in enumerate(specs)
    ]
    for upper, lower in pairwise(parts):
        upper.spaceAfter = lower.spaceBefore = 0.0
    _write(path, _around(*parts))
    width = max(spec.n_cols for spec in specs)
    grid: list[list[str | None]] = []
    for spec in specs:
        rows = [[*(truth_text(t) if t is not None else None for t in row)] for row in spec.rows]
        grid += [[*row, *([None] if i == 0 else [""]) * (width - len(row))] for i, row in enumerate(rows)]
    return grid


JOURNAL_LAYOUTS: dict[str, Callable[[Path], PaperTruth]] = {
    "unpunctuated_caption": render_unpunctuated,
    "dotted_rules": render_dotted_rules,
    "side_by_side_bare_captions": render_side_by_side_bare,
    "line_numbers": render_line_numbers,
    "group_headers": render_group_headers,
    "figure_beside_table": render_figure_beside_table,
    "sideways_table": render_sideways_table,
    "continued_table": render_continued_table,
    "continued_without_header": render_continued_without_header,
    "flowchart_and_table": render_flowchart_and_table,
    "values_between_stub_lines": render_values_between_stub_lines,
    "tall_header_blocks": render_tall_header_blocks,
    "group_label_under_a_short_midrule": render_group_label_under_a_short_midrule,
}
