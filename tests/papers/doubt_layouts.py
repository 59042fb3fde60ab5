"""Pages that give a reader reason to doubt a table, each beside a clean look-alike, and a table printed as an
image: typeset with the project's fixture code. Each renderer writes the PDF and returns its truth."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pypdfium2 as pdfium
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph as RLParagraph

from papers import tables
from papers.extra_features import wrapped_grid
from papers.features import results_paper
from papers.prose import paragraphs
from pipeline.fixtures.draw import TableFlowable
from pipeline.fixtures.fonts import family
from pipeline.fixtures.render import render_paper
from pipeline.fixtures.spec import PaperTruth, TableSpec
from pipeline.fixtures.table_layout import CAPTION_SIZE, LEADING, TextLine
from pipeline.fixtures.truth import table_truth
from pipeline.store import write_bytes

FAM = family("times")
BODY = ParagraphStyle("body", fontName=FAM.regular, fontSize=10, leading=12)
MARGIN = 72.0
PROTEINS = ("ECFP", "Cerulean", "mTurquoise", "mCerulean3")
NARROW = 260.0  # a column as wide as a narrow table


def _spec(label: str, rows: list[list[str]], **style: object) -> TableSpec:
    return TableSpec(label=label, caption="Results of each run on the held-out split.", rows=rows, **style)  # type: ignore[arg-type]


def header_of_values() -> TableSpec:
    """A header row printing measured values (a data row set where the header goes)."""
    rows = [["Model", "0.812", "0.806", "0.798"], *[[f"Run {k}", "0.774", "0.781", "0.792"] for k in range(1, 5)]]
    return _spec("Table 1", rows)


def header_of_years() -> TableSpec:
    """The look-alike: a header of years and sizes, numbers that name columns."""
    rows = [["Model", "2019", "2020", "2021"], *[[f"Run {k}", "0.774", "0.781", "0.792"] for k in range(1, 5)]]
    return _spec("Table 1", rows)


def two_numbers_in_cells() -> TableSpec:
    """Cells printing two plain numbers side by side, as two columns read as one print."""
    rows = [["Task", "Train test", "Accuracy"], *[[f"Task {k}", f"{1200 + k} {300 + k}", "0.81"] for k in range(5)]]
    return _spec("Table 1", rows)


def one_value_per_cell() -> TableSpec:
    """The look-alike: a mean with its spread, and a coordinate triple, in one cell each."""
    rows = [["Task", "Accuracy", "Cell (Å)"], *[[f"Task {k}", f"0.8{k} ± 0.02", "80.9, 83.0"] for k in range(5)]]
    return _spec("Table 1", rows)


def label_starting_anew() -> TableSpec:
    """A row label wrapped so that its second line starts with a capital (a label row joined to a row)."""
    rows = [["Statistic", "Value"], ["Rfree (%) Atoms", "23.3"], ["Protein", "6091"], ["Bonds", "0.002"]]
    return _spec("Table 1", rows, wrap_widths=[(0, 40.0)])


def label_wrapping_on() -> TableSpec:
    """The look-alike: a long row label whose second line continues it in lower case."""
    rows = [
        ["Statistic", "Value"],
        ["Reflections used in refinement", "67544"],
        ["Protein", "6091"],
        ["Bonds", "0.002"],
    ]
    return _spec("Table 1", rows, wrap_widths=[(0, 70.0)])


def rows_continued_in_lower_case() -> TableSpec:
    """A row with an empty stub whose text starts in lower case under a filled cell: a wrapped line as a row."""
    rows = [
        ["Domain", "Ligand", "Reference"],
        ["FN 2-3", "Contactin enhances", "Brummendorf, 1989"],
        ["", "neurite outgrowth in culture", "1995"],
        ["FN 3-5", "Binds lectin domains", "Aspberg, 1997"],
    ]
    return _spec("Table 1", rows)


def group_rows() -> TableSpec:
    """The look-alike: group label rows with an empty stub, starting with a capital."""
    rows = [
        ["Domain", "Ligand", "Reference"],
        ["FN 2-3", "Contactin enhances outgrowth", "Brummendorf, 1989"],
        ["", "Other interactions of note", ""],
        ["FN 3-5", "Binds lectin domains", "Aspberg, 1997"],
    ]
    return _spec("Table 1", rows)


def bands_of_rows() -> TableSpec:
    """Ruled cells each holding several short items, each line ended short of the column (the next item would
    have fitted), in two columns alike: rows of their own or one row of lists, the page cannot tell."""
    item = "Moderate LV dysfunction.\nLVEF 40%.\nMild MR.\nNormal RV."
    rows = [["Group", "Findings", "Diagnosis"], ["Normal ECG", item, item], ["Abnormal ECG", item, item]]
    return _spec("Table 1", rows, rules="grid", wrap_widths=[(1, 110.0), (2, 110.0)])


def sub_labels_in_header() -> TableSpec:
    """Column labels each wrapped onto the same second line (a row of sub-labels set in the labels' cells)."""
    head = ["Grammar", *(f"{name} Sens (spec)" for name in ("Viterbi", "Inference", "Sampling"))]
    rows = [head, *[[f"G{k}", "0.41", "0.18", "0.40"] for k in range(1, 5)]]
    return _spec("Table 1", rows, wrap_widths=[(c, 38.0) for c in (1, 2, 3)])


def labels_wrapped_apart() -> TableSpec:
    """The look-alike: column labels wrapped onto second lines of their own words."""
    head = ["Grammar", "Viterbi decoding", "Maximum expected accuracy", "Posterior sampling"]
    rows = [head, *[[f"G{k}", "0.41", "0.18", "0.40"] for k in range(1, 5)]]
    return _spec("Table 1", rows, wrap_widths=[(c, 38.0) for c in (1, 2, 3)])


GRID_LAYOUTS: dict[str, tuple[Callable[[], TableSpec], Callable[[], TableSpec]]] = {
    # signal: (the doubtful layout, its clean look-alike)
    "numbers in header": (header_of_values, header_of_years),
    "two numbers": (two_numbers_in_cells, one_value_per_cell),
    "stub new line": (label_starting_anew, label_wrapping_on),
    "continuing row": (rows_continued_in_lower_case, group_rows),
    "rows of lines": (bands_of_rows, wrapped_grid),
    "header line repeated": (sub_labels_in_header, labels_wrapped_apart),
}


def render_grid_layout(spec: TableSpec, path: Path) -> PaperTruth:
    return render_paper(results_paper(spec, "Runs of a Genomic Language Model"), path)


class OpenFoot(TableFlowable):
    """A table printed with no rule under its last row (it runs on in the next column or overleaf)."""

    def draw(self) -> None:
        assert self.layout is not None, "wrap() runs before draw()"
        bottom = max(r.y0 for r in self.layout.rules)
        self.layout.rules = [r for r in self.layout.rules if r.y0 < bottom - 0.5]
        super().draw()


def render_at_foot(path: Path, closed: bool) -> PaperTruth:
    """Prose, then a booktabs table whose last row sits at the foot of the text area, closed by its bottom rule
    or open (no rule: the table may run on)."""
    spec = tables.booktabs("Table 1")
    part = (TableFlowable if closed else OpenFoot)(spec, FAM, list(range(spec.n_rows)), spec.full_caption, "single")
    width, height = letter
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=letter, invariant=1)
    _, table_height = part.wrap(width - 2 * MARGIN, height - 2 * MARGIN)
    top = height - MARGIN
    for text in paragraphs(3, start=5):
        para = RLParagraph(text, BODY)
        _, h = para.wrap(width - 2 * MARGIN, height)
        if top - h < MARGIN + table_height + 12:
            break
        para.drawOn(canvas, MARGIN, top - h)
        top -= h + 8
    part.drawOn(canvas, MARGIN, MARGIN)
    canvas.showPage()
    canvas.save()
    write_bytes(path, out.getvalue())
    return PaperTruth("At the foot", 1, [table_truth(spec, [part], height)], [], [])


class OpenHead(TableFlowable):
    """A table printed with no rule over its header row, the header set as close under the caption as the
    caption's own lines: a reader may take the header for the caption's last line."""

    def draw(self) -> None:
        assert self.layout is not None, "wrap() runs before draw()"
        top = min(r.y0 for r in self.layout.rules)
        self.layout.rules = [r for r in self.layout.rules if r.y0 > top + 0.5]
        header = min(line.baseline for cell in self.layout.cells for line in cell.lines)
        shift = header - max(line.baseline for line in self.layout.caption) - LEADING * CAPTION_SIZE
        for line in self.layout.caption:
            line.baseline += shift
        super().draw()


def render_header_under_caption(path: Path, open_head: bool) -> PaperTruth:
    """Prose, then a narrow booktabs table under a caption as wide as itself, with its top rule (closed) or with
    its header line set under the caption like one more line of it (open)."""
    caption = (
        "Ablations of the components of our method, each switched on or off alone; we report the accuracy and"
        " the calibration error averaged over the fifteen corruptions of the benchmark."
    )
    runs = [["no", "no", "no", "55.5", "10.5"], ["yes", "no", "no", "44.9", "36.8"], ["no", "yes", "no", "63.4", "9.4"]]
    runs += [["no", "no", "yes", "59.1", "12.7"], ["yes", "yes", "yes", "66.3", "3.2"]]
    rows = [["Entropy", "Discrepancy", "Shifting", "Acc. (%)", "ECE (%)"], *runs]
    spec = TableSpec(label="Table 1", caption=caption, rows=rows, stub_cols=0, align="ccccc", col_pad=3.0)
    part = (OpenHead if open_head else TableFlowable)(spec, FAM, list(range(spec.n_rows)), spec.full_caption, "single")
    return _under_prose(path, part, NARROW, "Header under caption")  # (the caption as wide as the table)


def _under_prose(path: Path, part: TableFlowable, room: float, title: str) -> PaperTruth:
    """A paragraph, then the table in ``room`` points of width."""
    width, height = letter
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=letter, invariant=1)
    top = height - MARGIN
    for text in paragraphs(1, start=5):
        para = RLParagraph(text, BODY)
        _, h = para.wrap(width - 2 * MARGIN, height)
        para.drawOn(canvas, MARGIN, top - h)
        top -= h + 12
    _, table_height = part.wrap(room, height - 2 * MARGIN)
    part.drawOn(canvas, MARGIN, top - table_height)
    canvas.showPage()
    canvas.save()
    write_bytes(path, out.getvalue())
    return PaperTruth(title, 1, [table_truth(part.spec, [part], height)], [], [])


class LostSymbol(TableFlowable):
    """Each '±' printed from a symbol font that gives it no character of its own: the text layer reads the
    digit '6' there, in a font of its own (as PDFs typeset with such fonts do)."""

    def _text(self, line: TextLine) -> None:
        if "±" not in line.text:
            return super()._text(line)
        x = line.x
        before, after = line.text.split("±", 1)
        for text, font in ((before, line.font), ("6", "Symbol"), (after, line.font)):
            self.canv.setFont(font, line.size)
            self.canv.drawString(x, self.height - line.baseline, text)
            x += stringWidth(text, font, line.size)
        return None


def render_lost_symbol(path: Path, lost: bool) -> PaperTruth:
    """Prose, then a table of means ± spread, each '±' printed in the text font (kept) or from a symbol font whose
    glyph the text layer reads as a digit (lost)."""
    rows = [["Protein", "Lifetime (ns)", "Half-life (s)"]]
    rows += [[name, f"{3.1 + k / 10:.2f}", f"{640 + 37 * k}±{88 - 9 * k}"] for k, name in enumerate(PROTEINS)]
    spec = TableSpec(label="Table 1", caption="Lifetimes of the variants, mean ± SD.", rows=rows, align="lrr")
    part = (LostSymbol if lost else TableFlowable)(spec, FAM, list(range(spec.n_rows)), spec.full_caption, "single")
    return _under_prose(path, part, letter[0] - 2 * MARGIN, "Lost symbol")


def render_image_table(path: Path, dpi: int = 200) -> PaperTruth:
    """A generated table printed as a picture: its caption is text, its body an image with no text layer (a
    screenshot pasted under a caption). The truth's boxes are the body's on the page."""
    spec = tables.booktabs("Table 1")
    part = TableFlowable(spec, FAM, list(range(spec.n_rows)), spec.full_caption, "single")
    width, height = letter
    source = io.BytesIO()
    canvas = Canvas(source, pagesize=letter, invariant=1)
    _, table_height = part.wrap(width - 2 * MARGIN, height - 2 * MARGIN)
    part.drawOn(canvas, MARGIN, height - MARGIN - table_height)
    canvas.showPage()
    canvas.save()
    truth = table_truth(spec, [part], height)
    x0, top, x1, bottom = (v - 3 if i < 2 else v + 3 for i, v in enumerate(truth.bbox))
    scale = dpi / 72
    page = pdfium.PdfDocument(source.getvalue())[0]
    picture = (
        page.render(scale=scale)
        .to_pil()
        .crop((int(x0 * scale), int(top * scale), int(x1 * scale), int(bottom * scale)))
    )
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=letter, invariant=1)
    canvas.setFont(FAM.regular, 9)
    canvas.drawString(x0 + 3, height - top + 6, spec.full_caption)
    canvas.drawImage(ImageReader(picture), x0, height - bottom, x1 - x0, bottom - top)
    para = RLParagraph(" ".join(paragraphs(1, start=5)), BODY)
    _, h = para.wrap(width - 2 * MARGIN, height)
    para.drawOn(canvas, MARGIN, height - bottom - 24 - h)
    canvas.showPage()
    canvas.save()
    write_bytes(path, out.getvalue())
    return PaperTruth("Image table", 1, [truth], [], [])


def render_uncaptioned(path: Path, at_head: bool) -> PaperTruth:
    """A table printed with no caption, at the head of the page (where the rest of a table cut at the foot of the
    page before would start) or in the middle of the page's prose."""
    spec = tables.booktabs("Table 1")
    part = TableFlowable(spec, FAM, list(range(spec.n_rows)), "", "single")
    width, height = letter
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=letter, invariant=1)
    _, table_height = part.wrap(width - 2 * MARGIN, height - 2 * MARGIN)
    top = height - MARGIN
    texts = paragraphs(3, start=5)
    if at_head:
        part.drawOn(canvas, MARGIN, top - table_height)
        top -= table_height + 12
    for k, text in enumerate(texts):
        para = RLParagraph(text, BODY)
        _, h = para.wrap(width - 2 * MARGIN, height)
        para.drawOn(canvas, MARGIN, top - h)
        top -= h + 8
        if k == 0 and not at_head:
            part.drawOn(canvas, MARGIN, top - table_height)
            top -= table_height + 12
    canvas.showPage()
    canvas.save()
    write_bytes(path, out.getvalue())
    return PaperTruth("Uncaptioned", 1, [table_truth(spec, [part], height)], [], [])
