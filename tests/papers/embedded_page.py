"""A page with an embedded page (issue 20, 'only the text the page shows'): a figure set in as a PDF form
that carries its own copy of the whole page, the table's text and rules with it, and shows only its figure
through a clip; the copy is offset so that its rules cross the real table's rows. Plus a caption printed in
invisible text (render mode 3). The clip is around the placed form, or inside the form's own content."""

from __future__ import annotations

from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

ROWS = [
    ("Model", "Human", "Mouse"),
    ("DNABERT", "0.812", "0.774"),
    ("NT-500M", "0.834", "0.791"),
    ("HyenaDNA", "0.801", "0.760"),
]
TOP, BOTTOM = 620.0, 556.0  # the visible table's top and bottom rules (PDF coordinates)
FIGURE_CLIP = (90.0, 290.0, 200.0, 140.0)  # x, y, width, height: the figure the embedded page shows


def _table(canvas: Canvas) -> None:
    canvas.setFont("Helvetica-Bold", 10)
    canvas.drawString(80, TOP + 10, "Table 1. Accuracy of the models.")
    canvas.setLineWidth(0.8)
    canvas.line(80, TOP, 340, TOP)
    canvas.setFont("Helvetica", 9)
    for k, row in enumerate(ROWS):
        y = TOP - 12 - 13 * k - (5 if k else 0)
        for x, text in zip((80, 200, 280), row, strict=True):
            canvas.drawString(x, y, text)
    canvas.setLineWidth(0.4)
    canvas.line(80, TOP - 17, 340, TOP - 17)
    canvas.setLineWidth(0.8)
    canvas.line(80, BOTTOM, 340, BOTTOM)


def _figure(canvas: Canvas) -> None:
    canvas.setFillGray(0.3)
    canvas.rect(100, 300, 40, 120, fill=1, stroke=0)
    canvas.rect(160, 300, 40, 80, fill=1, stroke=0)


def _clip(canvas: Canvas) -> None:
    path = canvas.beginPath()
    path.rect(*FIGURE_CLIP)
    canvas.clipPath(path, stroke=0, fill=0)


def write_embedded_page(path: Path, clip_inside: bool) -> Path:
    canvas = Canvas(str(path), pagesize=(595, 842))
    canvas.beginForm("embedded")
    canvas.saveState()
    if clip_inside:
        _clip(canvas)
    _table(canvas)
    _figure(canvas)
    canvas.restoreState()
    canvas.endForm()
    _table(canvas)
    text = canvas.beginText(80, 700)
    text.setTextRenderMode(3)
    text.setFont("Helvetica-Bold", 10)
    text.textLine("Table 9. A caption nobody sees.")
    canvas.drawText(text)
    canvas.saveState()
    if not clip_inside:
        _clip(canvas)
    canvas.translate(0, 20)
    canvas.scale(1.0, 0.97)  # the copy's rules land between the real table's rows
    canvas.doForm("embedded")
    canvas.restoreState()
    canvas.showPage()
    canvas.save()
    return path
