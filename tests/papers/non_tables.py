"""Printed blocks that are aligned like tables but are not (issue 29, kind 8), each beside a real table drawn the
same way: a flowchart of boxed steps joined by arrows, an author and affiliation block in columns, and a real
table with every cell boxed. Typeset with the project's fixture code; each renderer writes the PDF and returns
the truth of the real tables on it (none for the look-alikes)."""

from __future__ import annotations

import io
from itertools import pairwise, product
from pathlib import Path

from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph as RLParagraph

from papers import tables
from papers.prose import paragraphs
from pipeline.fixtures.draw import TableFlowable
from pipeline.fixtures.fonts import family
from pipeline.fixtures.spec import PaperTruth
from pipeline.fixtures.truth import table_truth
from pipeline.store import write_bytes

FAM = family("times")
BODY = ParagraphStyle("body", fontName=FAM.regular, fontSize=10, leading=12)
MARGIN = 72.0
WIDTH, HEIGHT = letter

# a participant flow: (column, row, lines in the box); the main chain in column 0, exclusions beside it
FLOW = (
    (0, 0, ("Records identified", "(n = 1,204)")),
    (1, 0, ("Duplicates removed", "(n = 301)")),
    (0, 1, ("Records screened", "(n = 903)")),
    (1, 1, ("Excluded on title", "(n = 512)")),
    (0, 2, ("Full texts assessed", "(n = 391)")),
    (1, 2, ("Excluded: no outcome", "(n = 264)")),
    (0, 3, ("Studies included", "(n = 127)")),
)
BOX_W, BOX_H, STEP_X, STEP_Y = 130.0, 30.0, 190.0, 52.0
TITLE = "Regulatory Grammar Learned by a DNA Language Model"

AUTHORS = (  # (name, department, institute, postcode and city, telephone): a column each, as first pages set them
    ("Ana Souza", "Department of Genetics", "University of Porto", "4200-135 Porto, Portugal", "+351 22 040 8000"),
    ("Wei Chen", "Institute of Genomics", "Fudan University", "200433 Shanghai, China", "+86 21 6564 2222"),
    ("Maria Rossi", "Department of Biology", "University of Padua", "35121 Padua, Italy", "+39 049 827 5111"),
)


def _prose(canvas: Canvas, top: float, n: int, start: int) -> float:
    for text in paragraphs(n, start=start):
        para = RLParagraph(text, BODY)
        _, h = para.wrap(WIDTH - 2 * MARGIN, HEIGHT)
        para.drawOn(canvas, MARGIN, top - h)
        top -= h + 10
    return top


def _arrow(canvas: Canvas, x0: float, y0: float, x1: float, y1: float) -> None:
    """A line with a filled arrowhead at (x1, y1)."""
    canvas.line(x0, y0, x1, y1)
    path = canvas.beginPath()
    if x0 == x1:  # downwards
        path.moveTo(x1, y1), path.lineTo(x1 - 3, y1 + 6), path.lineTo(x1 + 3, y1 + 6)
    else:  # rightwards
        path.moveTo(x1, y1), path.lineTo(x1 - 6, y1 + 3), path.lineTo(x1 - 6, y1 - 3)
    path.close()
    canvas.drawPath(path, stroke=0, fill=1)


def _flowchart(canvas: Canvas, top: float) -> float:
    """Boxed steps in a grid of two columns, each step's box holding two centred lines, joined by arrows."""
    left = MARGIN + 40
    canvas.setLineWidth(0.6)
    for col, row, lines in FLOW:
        x, y = left + col * STEP_X, top - row * STEP_Y - BOX_H
        canvas.rect(x, y, BOX_W, BOX_H)
        canvas.setFont(FAM.regular, 9)
        for k, text in enumerate(lines):
            canvas.drawCentredString(x + BOX_W / 2, y + BOX_H - 12 - 10 * k, text)
        if col == 0 and row < 3:
            _arrow(canvas, x + BOX_W / 2, y, x + BOX_W / 2, y - (STEP_Y - BOX_H))
            _arrow(canvas, x + BOX_W, y + BOX_H / 2, x + STEP_X, y + BOX_H / 2)
    return top - 3 * STEP_Y - BOX_H


def render_flowchart(path: Path, captioned: bool) -> PaperTruth:
    """Prose, a participant flowchart (under its 'Figure 1.' caption, or with none: a caption set on another
    page, or none printed), then more prose."""
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=letter, invariant=1)
    top = _prose(canvas, HEIGHT - MARGIN, 1, start=3) - 12
    bottom = _flowchart(canvas, top)
    if captioned:
        canvas.setFont(FAM.regular, 9)
        canvas.drawString(MARGIN, bottom - 20, "Figure 1. Flow of records from the search to the included studies.")
    _prose(canvas, bottom - 40, 2, start=5)
    canvas.showPage()
    canvas.save()
    write_bytes(path, out.getvalue())
    return PaperTruth("Flowchart", 1, [], [], [])


def render_author_block(path: Path) -> PaperTruth:
    """A first page: title, the authors set in three columns (name, department, institute, city, telephone), an
    e-mail line and a rule under them, the abstract, then a captioned table (so the page is read for tables)."""
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=letter, invariant=1)
    canvas.setFont(FAM.bold, 16)
    canvas.drawCentredString(WIDTH / 2, HEIGHT - MARGIN - 16, TITLE)
    column = (WIDTH - 2 * MARGIN) / len(AUTHORS)
    top = HEIGHT - MARGIN - 50
    for k, lines in enumerate(AUTHORS):
        centre = MARGIN + column * (k + 0.5)
        for j, text in enumerate(lines):
            canvas.setFont(FAM.bold if j == 0 else FAM.regular, 11 if j == 0 else 10)
            canvas.drawCentredString(centre, top - 13 * j, text)
    below = top - 13 * len(AUTHORS[0]) - 6
    canvas.setFont(FAM.italic, 9)
    canvas.drawCentredString(WIDTH / 2, below, "Correspondence: ana.souza@up.pt")
    canvas.setLineWidth(0.5)
    canvas.line(MARGIN, below - 10, WIDTH - MARGIN, below - 10)
    canvas.setFont(FAM.bold, 11)
    canvas.drawString(MARGIN, below - 30, "Abstract")
    top = _prose(canvas, below - 38, 1, start=1) - 8
    spec = tables.booktabs("Table 1")
    part = TableFlowable(spec, FAM, list(range(spec.n_rows)), spec.full_caption, "single")
    return _table_then_prose(canvas, out, path, part, top, "Author block")


class CellBoxes(TableFlowable):
    """A full-grid table drawn as one rectangle round each cell (as word processors draw cell borders): the
    frames abut, sharing their sides."""

    def draw(self) -> None:
        assert self.layout is not None, "wrap() runs before draw()"
        rules, self.layout.rules = self.layout.rules, []
        super().draw()
        xs = sorted({r.x0 for r in rules if r.x0 == r.x1})
        ys = sorted({r.y0 for r in rules if r.y0 == r.y1})
        self.canv.setLineWidth(0.5)
        for (x0, x1), (y0, y1) in product(pairwise(xs), pairwise(ys)):
            self.canv.rect(x0, self.height - y1, x1 - x0, y1 - y0)


def render_boxed_table(path: Path, captioned: bool, cell_boxes: bool = False, prose: bool = True) -> PaperTruth:
    """The look-alike: a real table with every cell boxed (ruled through, or a rectangle round each cell), under
    its caption or with none, on a first page after the title and a paragraph of running text (or right under the
    title, where front matter goes: its columns of numbers say it is a table)."""
    spec = tables.grid("Table 1")
    kind = CellBoxes if cell_boxes else TableFlowable
    part = kind(spec, FAM, list(range(spec.n_rows)), spec.full_caption if captioned else "", "single")
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=letter, invariant=1)
    canvas.setFont(FAM.bold, 16)
    canvas.drawCentredString(WIDTH / 2, HEIGHT - MARGIN - 16, TITLE)
    top = (_prose(canvas, HEIGHT - MARGIN - 40, 1, start=3) if prose else HEIGHT - MARGIN - 30) - 12
    return _table_then_prose(canvas, out, path, part, top, "Boxed table")


def _table_then_prose(
    canvas: Canvas, out: io.BytesIO, path: Path, part: TableFlowable, top: float, name: str
) -> PaperTruth:
    """The table drawn from ``top`` down, a paragraph under it; the page written, with the table's truth."""
    _, table_height = part.wrap(WIDTH - 2 * MARGIN, HEIGHT - 2 * MARGIN)
    part.drawOn(canvas, MARGIN, top - table_height)
    _prose(canvas, top - table_height - 16, 1, start=5)
    canvas.showPage()
    canvas.save()
    write_bytes(path, out.getvalue())
    return PaperTruth(name, 1, [table_truth(part.spec, [part], HEIGHT)], [], [])
