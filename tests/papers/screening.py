"""Pages the screen must tell apart (issue 16, "analyse only pages with table cues"): one of prose, a block of
numbered equations set in columns and a reference list, whose lines carry three or more numbers each among
their words; and one with a table of numbers printed without caption or rules."""

from __future__ import annotations

from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

EQUATIONS = [
    ("E [gMAML] = (1)AvgGrad - (2a)AvgGradInner + O(a2)", "(33)"),
    ("E [gFOMAML] = (1)AvgGrad - (a)AvgGradInner + O(a2)", "(34)"),
    ("E [gReptile] = (2)AvgGrad - (a)AvgGradInner + O(a2)", "(35)"),
]
REFERENCES = [
    "[1] V. Mnih et al. Human-level control. Nature, 518(7540):529-533, 2015.",
    "[2] D. Silver et al. Mastering the game of Go. Nature, 550:354-359, October 2017.",
    "[3] J. Schaeffer et al. A world championship caliber checkers program. AI, 53(2-3):273-289, 1992.",
    "[4] A. Guez et al. Learning to search with MCTSnets. In ICML, pages 1817-1826, 2018.",
]
TABLE = [
    ("DNABERT", "0.812", "0.774", "0.701"),
    ("NT-500M", "0.834", "0.791", "0.722"),
    ("HyenaDNA", "0.801", "0.760", "0.690"),
    ("Caduceus", "0.845", "0.803", "0.731"),
]
PROSE = "We compare the expected updates of the three methods to second order in the step size below."


def write_screening_pages(path: Path) -> Path:
    canvas = Canvas(str(path), pagesize=(595, 842))
    canvas.setFont("Times-Roman", 10)
    canvas.drawString(72, 760, PROSE)
    for k, (equation, number) in enumerate(EQUATIONS):
        canvas.drawString(140, 730 - 16 * k, equation)
        canvas.drawRightString(523, 730 - 16 * k, number)
    canvas.drawString(72, 660, "References")
    for k, reference in enumerate(REFERENCES):
        canvas.drawString(72, 640 - 14 * k, reference)
    canvas.showPage()
    canvas.setFont("Times-Roman", 10)
    canvas.drawString(72, 760, PROSE)
    for k, row in enumerate(TABLE):
        for x, text in zip((150, 260, 330, 400), row, strict=True):
            canvas.drawString(x, 720 - 14 * k, text)
    canvas.save()
    return path
