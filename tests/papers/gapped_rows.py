"""Tables whose rows stand a gap apart, a cell's lines closer, with no rule between header and body (a shaded
header band; Springer Nature): drawn glyph by glyph at known places, with their look-alike.

- wrapped_header: header labels wrapped onto two or three lines, each set on the header's first line: the lines
  under it at the line pitch, before the first gap, are the header's.
- one_line_header: the look-alike: a one-line header over rows the first two of which stand at the line pitch
  (a group of two rows, then the gap): those are rows, not header lines (they fill every column).

    from papers.gapped_rows import GAPPED_ROW_RENDERERS
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen.canvas import Canvas

from papers.journal_layouts import FAM
from pipeline.store import write_bytes

SIZE = 8.0
PITCH = 9.6  # a cell's lines
GAP = 13.2  # from a row's last line to the next row's first
COLUMNS = (72.0, 150.0, 250.0, 360.0, 470.0)  # left edges

WRAPPED_HEADER = (
    ("Stimulus",),
    ("Functional", "domain"),
    ("Phosphorylation", "site"),
    ("Subcellular", "localization", "during function"),
    ("Refs.",),
)
ONE_LINE_HEADER = (("Stimulus",), ("Domain",), ("Site",), ("Localization",), ("Refs.",))
ROWS = (
    (("IFN-gamma",), ("Linker",), ("Ser886, Ser999",), ("Cytoplasm",), ("10,13,16",)),
    (("LPS,", "bacteria"), ("EARS1, Linker,", "PARS1"), ("Ser999",), ("Early endosomes",), ("20",)),
    (("Insulin",), ("Linker",), ("Ser999",), ("Plasma membrane",), ("19,79",)),
    (("RNA virus",), ("Residues 168-", "196"), ("Ser990",), ("Cytoplasm",), ("18",)),
    (("Not defined",), ("Not defined",), ("Unknown",), ("Cytoplasm",), ("91",)),
)
PAIRED = (  # the look-alike's rows: the first two a group set at the line pitch
    (("Sepsis",), ("Linker",), ("Ser886",), ("Cytoplasm",), ("10",)),
    (("Shock",), ("Linker",), ("Ser999",), ("Nucleus",), ("11",)),
    *ROWS[2:],
)


Cells = tuple[tuple[str, ...], ...]  # a row: each column's lines


def _draw(path: Path, header: Cells, rows: tuple[Cells, ...], gaps: list[float]) -> list[list[str]]:
    """A captioned table, rules only above the header and under the last row; returns its grid as read."""
    canvas = Canvas(str(path), pagesize=letter, invariant=1)
    canvas.setTitle("Gapped rows")
    top = letter[1] - 100
    canvas.setFont(FAM.regular, 9)
    canvas.drawString(COLUMNS[0], top + 14, "Table 1. Phosphorylation sites and their interactors under stress.")
    canvas.setLineWidth(0.6)
    canvas.line(COLUMNS[0], top + 4, 560, top + 4)
    canvas.setFont(FAM.regular, SIZE)
    y = top - SIZE
    for cells, step in zip([header, *rows], gaps, strict=True):
        for x, lines in zip(COLUMNS, cells, strict=True):
            for k, line in enumerate(lines):
                canvas.drawString(x, y - k * PITCH, line)
        y -= (max(len(lines) for lines in cells) - 1) * PITCH + step
    canvas.line(COLUMNS[0], y + step - SIZE / 2, 560, y + step - SIZE / 2)
    canvas.showPage()
    write_bytes(path, canvas.getpdfdata())
    return [[" ".join(lines) for lines in cells] for cells in [header, *rows]]


def render_wrapped_header(path: Path) -> list[list[str]]:
    return _draw(path, WRAPPED_HEADER, ROWS, [GAP] * (len(ROWS) + 1))


def render_one_line_header(path: Path) -> list[list[str]]:
    return _draw(path, ONE_LINE_HEADER, PAIRED, [GAP, PITCH] + [GAP] * (len(PAIRED) - 1))


GAPPED_ROW_RENDERERS: dict[str, Callable[[Path], list[list[str]]]] = {
    "wrapped_header": render_wrapped_header,
    "one_line_header": render_one_line_header,
}
