"""Table headers as journals print them (issue 29, kind 4), each beside the look-alike a rule must leave alone:

- bottom_set_labels: labels set flush with the body, the wrapped ones starting on the line above the others.
  Look-alike: the same labels set from the top (the wrapped ones end on the line below the others).
- three_level_header: a group over sub-groups over column labels, each level ruled under its groups: three header
  rows. Look-alike of the joining above (every level's labels sit one per column in their own lines).
- open_bracket_label: a label wrapped onto three lines beside a group label, its bracket closing on the line of
  the group's sub-labels: the closing line is part of the label. Look-alike: the label on one line.
- spread_row: a row of bare spreads ('±2%', '± SD') under the column labels, the precision of every value under
  them: a header row. Look-alike: a first data row all in words (no values) under a ruled header.
- headerless_bands: a framed table whose header is not printed with it (printed as a picture, or on the page
  before), its rows ruled in bands of four: the first band is data, not a header. Look-alike: the same table
  with its header.
- unruled: a table with no rules at all, its header in the body's type over words: nothing marks where the
  header ends (doubted). Look-alikes: the header in bold, or over values.

    from papers.header_layouts import HEADER_LAYOUTS, render_headerless
"""

from __future__ import annotations

import io
from pathlib import Path

from reportlab.lib.pagesizes import letter
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph as RLParagraph

from papers.doubt_layouts import BODY, FAM, MARGIN
from papers.prose import paragraphs
from pipeline.fixtures.draw import TableFlowable
from pipeline.fixtures.spec import PaperTruth, Span, TableSpec
from pipeline.fixtures.table_layout import TextLine
from pipeline.fixtures.truth import table_truth
from pipeline.store import write_bytes

CAPTION = "Photophysical properties of the fluorescent proteins."
PROTEINS = (  # (name, quantum yield, lifetime, pK, bleached share, time constant)
    ("ECFP", "0.40", "2.52", "5.6", "23", "0.6"),
    ("Cerulean", "0.67", "3.05", "5.2", "33", "1.0"),
    ("mTurquoise", "0.85", "4.06", "3.4", "8", "1.4"),
    ("SCFP3A", "0.56", "3.17", "4.5", "12", "0.9"),
)
LABELS = ["Protein", "Quantum yield of the chromophore", "Average lifetime (ns)", "pK", "Rev (%)", "Tau (s)"]


def bottom_set_labels(valign: str = "bottom") -> TableSpec:
    """Two labels wrapped onto two lines in narrow columns, the others on one: ``valign`` 'bottom' sets every
    label's last line on one line (flush with the body), 'top' every label's first line."""
    rows = [LABELS, *[list(p) for p in PROTEINS]]
    return TableSpec(label="Table 1", caption=CAPTION, rows=rows, wrap_widths=[(1, 70.0), (2, 55.0)], valign=valign)


def three_level_header() -> TableSpec:
    """'Photostability' over 'on beads' (two columns) and 'in cells' (one), over the column labels; the labels
    of the first columns stand alone, centred over all three levels."""
    rows = [
        ["Protein", "Quantum yield", "pK", "Photostability", None, None],
        [None, None, None, "on beads", None, "in cells"],
        [None, None, None, "Rev (%)", "Tau (s)", "Tau (s)"],
        *[[p[0], p[1], p[3], p[4], p[5], str(round(float(p[5]) * 700))] for p in PROTEINS],
    ]
    spans = [Span(0, 0, 3, 1), Span(0, 1, 3, 1), Span(0, 2, 3, 1), Span(0, 3, 1, 3), Span(1, 3, 1, 2)]
    return TableSpec(label="Table 1", caption=CAPTION, rows=rows, header_rows=3, spans=spans)


def spread_row() -> TableSpec:
    """The column labels, then a row printing each column's precision ('±0.04 ns') over an empty stub."""
    rows = [LABELS, ["", "±0.02", "±0.04 ns", "", "±2%", "± SD"], *[list(p) for p in PROTEINS]]
    return TableSpec(label="Table 1", caption=CAPTION, rows=rows, header_rows=2)


def open_bracket_label(wrapped: bool = True) -> TableSpec:
    """A group label over three sub-labels beside a label wrapped onto three lines whose bracket closes on the
    sub-labels' line ('Average length (number of' ... 'residues)'); not ``wrapped``, the label fits one line."""
    rows = [
        ["Task", "Number of sequences", None, None, "Average length (number of residues)"],
        [None, "Train", "Validation", "Test", None],
        *[[name, a, b, c, d] for name, a, b, c, d in DATASET_SIZES],
    ]
    spans = [Span(0, 0, 2, 1), Span(0, 1, 1, 3), Span(0, 4, 2, 1)]
    widths = [(4, 60.0)] if wrapped else []
    return TableSpec(label="Table 2", caption="Datasets.", rows=rows, header_rows=2, spans=spans, wrap_widths=widths)


DATASET_SIZES = (
    ("GFP", "21,446", "5,362", "27,217", "237.0"),
    ("AAV", "28,626", "3,181", "50,776", "736.3"),
    ("GB1", "2,691", "299", "5,743", "265.0"),
)


NOTE = "* One prediction for each protein, or for each residue in Disorder and SecStr."


def noted() -> TableSpec:
    """The datasets with their note ('* One prediction ...') under the bottom rule."""
    rows = [["Task", "Train", "Validation", "Test", "Length"], *[list(d) for d in DATASET_SIZES]]
    return TableSpec(label="Table 2", caption="Datasets.", rows=rows, note=NOTE)


def words_first_row() -> TableSpec:
    """The look-alike: under the ruled labels, a first data row of words (a protein not measured)."""
    rows = [LABELS, ["EBFP", "dim", "not measured", "n.d.", "none", "none"], *[list(p) for p in PROTEINS]]
    return TableSpec(label="Table 1", caption=CAPTION, rows=rows)


def banded(header: bool = True) -> TableSpec:
    """Eight strains in a framed table ruled after every fourth row; the header row is printed unless not
    ``header`` (see render_headerless)."""
    names = ("BY4741", "BY4742", "W303", "S288C", "YPH499", "YPH500", "CEN.PK", "RM11")
    rows = [
        ["Strain", "Reads (M)", "Mapped (%)", "Duplicates (%)"],
        *[[n, f"{10 + k * 1.3:.1f}", f"{90 + k * 0.7:.1f}", f"{4 + k * 0.4:.1f}"] for k, n in enumerate(names)],
    ]
    return TableSpec(label="Table S1", caption="Sequencing of each strain.", rows=rows, rule_above={5})


class Headerless(TableFlowable):
    """A table printed without its header row (the header set as a picture, or on the page before): the frame
    and the rules stay, the header's text and the rule under it are not drawn."""

    def draw(self) -> None:
        assert self.layout is not None, "wrap() runs before draw()"
        header = [c for c in self.layout.cells if c.row < self.spec.header_rows]
        below = min(line.baseline for c in self.layout.cells if c.row >= self.spec.header_rows for line in c.lines)
        self.layout.cells = [c for c in self.layout.cells if c not in header]
        top = min(r.y0 for r in self.layout.rules)
        self.layout.rules = [r for r in self.layout.rules if not (top < r.y0 < below - 9 and r.y0 == r.y1)]
        super().draw()


class RuleOverLastHeaderRow(TableFlowable):
    """The rule under the header drawn over its last row instead (PLOS sets a precision row under the rule)."""

    def draw(self) -> None:
        assert self.layout is not None, "wrap() runs before draw()"
        last = self.spec.header_rows - 1
        above = max(c.bbox[3] for c in self.layout.cells if c.row == last - 1)
        below = min(c.bbox[1] for c in self.layout.cells if c.row == last)
        under = min(c.bbox[1] for c in self.layout.cells if c.row == last + 1)
        for rule in self.layout.rules:
            if rule.y0 == rule.y1 and below < rule.y0 < under:
                rule.y0 = rule.y1 = (above + below) / 2
        super().draw()


class TightTop(TableFlowable):
    """The frame's top rule drawn close over the header's glyphs (Word tables with no cell margin)."""

    def draw(self) -> None:
        assert self.layout is not None, "wrap() runs before draw()"
        top = min(r.y0 for r in self.layout.rules)
        for rule in self.layout.rules:
            if rule.y0 == rule.y1 == top:
                rule.y0 = rule.y1 = top + 2.2
            elif rule.y0 == top:
                rule.y0 = top + 2.2
        super().draw()


class Unruled(TableFlowable):
    """A table printed with no rules at all (Word tables with their borders turned off)."""

    def draw(self) -> None:
        assert self.layout is not None, "wrap() runs before draw()"
        self.layout.rules = []
        super().draw()


def strains(bold_header: bool = False, values: bool = False) -> TableSpec:
    """Strains and where they come from, in words; with ``values``, their read counts instead."""
    rows = [
        ["Strain", "Genotype", "Source" if not values else "Reads (M)"],
        ["BY4741", "MATa his3 leu2", "Euroscarf" if not values else "12.4"],
        ["BY4742", "MATalpha his3", "Euroscarf" if not values else "10.8"],
        ["W303", "MATa ade2", "ATCC" if not values else "11.1"],
        ["S288C", "MATalpha gal2", "ATCC" if not values else "9.7"],
    ]
    bold = {(0, c) for c in range(3)} if bold_header else set()
    return TableSpec(label="Table 1", caption="Strains used in this study.", rows=rows, bold=bold)


SAMPLES = (  # (type, name, stage, sex, age, post-mortem interval): words mostly, a few values
    ("Control", "CTRL-1", "0", "Male", "84", "Unknown"),
    ("Control", "CTRL-2", "0", "Male", "83", "18"),
    ("Control", "CTRL-3", "0", "Female", "68", "Unknown"),
    ("Braak III", "BRK-1", "III", "Female", "79", "10"),
    ("Braak III", "BRK-2", "III", "Male", "91", "Unknown"),
    ("Braak V", "BRK-3", "V", "Male", "88", "Unknown"),
)


def sample_grid(bold: bool = True, levels: bool = False) -> TableSpec:
    """A full-grid supplementary table of samples whose rows print more words than values (no row of numbers
    tells where the header ends), its header in bold unless not ``bold``; with ``levels``, a bold group row
    ('Donor' over sex and age) over the labels."""
    labels = ["Sample type", "Sample name", "Braak stage", "Sex", "Age", "PMI"]
    head = [["", "", "", "Donor", None, ""], labels] if levels else [labels]
    rows = [*head, *[list(s) for s in SAMPLES]]
    n = len(head)
    spans = [Span(0, 3, 1, 2)] if levels else []
    bolded = {(r, c) for r in range(n) for c in range(6) if rows[r][c]} if bold else set()
    return TableSpec(
        label="Supplemental Table 1",
        caption="Donors of the samples.",
        rows=rows,
        header_rows=n,
        spans=spans,
        bold=bolded,
        rules="grid",
        stub_cols=2,
    )


def measured(sign: str = "±") -> TableSpec:
    """Lifetimes with their spread in one cell ('3.05±0.12')."""
    rows = [
        ["Protein", "Lifetime (ns)", "n"],
        *[[p[0], f"{p[2]}{sign}0.1{k}", f"{20 + k}"] for k, p in enumerate(PROTEINS)],
    ]
    return TableSpec(label="Table 1", caption=CAPTION, rows=rows)


class SymbolAsDigit(TableFlowable):
    """Each '±' drawn as the code of a digit ('6') in a font of its own, as old typesetters set signs through a
    symbol font whose codes the PDF leaves unmapped (Courier stands in for that font here)."""

    sign, code = "±", "6"

    def _text(self, line: TextLine) -> None:
        before, sign, after = line.text.partition(self.sign)
        if not sign or not before[-1:].isdigit():
            super()._text(line)
            return
        x = line.x
        for font, piece in ((FAM.regular, before), ("Courier", self.code), (FAM.regular, after)):
            self.canv.setFont(font, line.size)
            self.canv.drawString(x, self.height - line.baseline, piece)
            x += stringWidth(piece, font, line.size)


class PointInMathFont(SymbolAsDigit):
    """The look-alike: each number's point set in a font of its own (TeX sets '$0.81$' with the math font's
    point), mapped as the point it is."""

    sign, code = ".", "."


def render_table(
    spec: TableSpec, path: Path, flowable: type[TableFlowable] = TableFlowable, high: bool = False
) -> PaperTruth:
    """A page of prose with the table, printed by ``flowable``, set under its first paragraph; or, ``high``, set
    first, its top rule near the head of the page (supplementary tables set page by page, caption below)."""
    part = flowable(spec, FAM, list(range(spec.n_rows)), spec.full_caption, "single")
    width, height = letter
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=letter, invariant=1)
    top = height - (45.0 if high else MARGIN)
    first, *rest = paragraphs(3, start=11)
    for k, text in enumerate([None, first, *rest] if high else [first, None, *rest]):
        if text is None:
            _, table_height = part.wrap(width - 2 * MARGIN, height - 2 * MARGIN)
            part.drawOn(canvas, MARGIN, top - table_height)
            top -= table_height + 14
            continue
        para = RLParagraph(text, BODY)
        _, h = para.wrap(width - 2 * MARGIN, height)
        para.drawOn(canvas, MARGIN, top - h)
        top -= h + (14 if k == 0 else 8)
    canvas.showPage()
    canvas.save()
    write_bytes(path, out.getvalue())
    return PaperTruth("Headers", 1, [table_truth(spec, [part], height)], [], [])


HEADER_LAYOUTS = {  # name: (spec, how it is printed)
    "bottom_set_labels": (bottom_set_labels, TableFlowable),
    "top_set_labels": (lambda: bottom_set_labels("top"), TableFlowable),
    "three_level_header": (three_level_header, TableFlowable),
    "spread_row": (spread_row, TableFlowable),
    "spread_row_under_rule": (spread_row, RuleOverLastHeaderRow),
    "words_first_row": (words_first_row, TableFlowable),
    "open_bracket_label": (open_bracket_label, TableFlowable),
    "one_line_label": (lambda: open_bracket_label(wrapped=False), TableFlowable),
    "note_under_rule": (noted, TableFlowable),
    "banded": (banded, TableFlowable),
    "unruled_bold_header": (lambda: strains(bold_header=True), Unruled),
    "unruled_over_values": (lambda: strains(values=True), Unruled),
    "measured": (measured, TableFlowable),
    "sample_grid": (sample_grid, TableFlowable),
    "sample_grid_levels": (lambda: sample_grid(levels=True), TableFlowable),
    "measured_sign_in_own_font": (lambda: measured("∓"), TableFlowable),  # mapped: '∓' is no plain character
}
