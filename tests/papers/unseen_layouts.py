"""Layouts that broke the extractor on papers it had never seen (issue 29), each with a look-alike that
must read as before:

- wrapped_labels: a table in one column of a two-column page whose long row labels wrap onto two lines,
  their values centred beside them (Word and InDesign tables); the first line of such a label reads like
  running text. Look-alike: the same table with short labels, running text right under it.
- note_row: a booktabs table with a row of one long note across all its columns ("Models below were ..."),
  which reads like running text; rows and the table's bottom rule follow it, so it is a row of the table.
  Look-alike: the same table without the note row.
- note_row_over_rule: the same with a rule right under the note row: nothing tells a note row from a line of
  text between two tables, so the table is read in two parts, both doubted.
- sideways_beside_references: a table set sideways in the left part of a portrait page, an upright reference
  list beside it holding most of the glyphs. Look-alike: an upright table, a sideways notice in the margin.
- numbered_caption: a manuscript's line numbers only beside a table's caption, too few to be dropped as the
  page's numbering. Look-alike: a fully numbered page (test_extract_journals, line_numbers).
- three_across / three_across_narrow: three captioned tables across a page, their captions starting on one
  line; in the narrow one the captions fill their shares, an ordinary space or two apart, so only the
  caption starts part them: each table is read under its own label, the two an ordinary space apart doubted.
  Look-alikes: one wide table whose long caption names another table mid-line; a table beside a figure
  caption on its line.
- hanging_indent: a table of words (domain, activity, reference) whose cells wrap with a hanging indent, each
  further line an indent right of the cell's first; the stub wraps flush, once after an open ';' with nothing
  beside its second line. Look-alikes inside it: a row with an empty stub whose activity starts at the column's
  edge, a row with no reference, a stub alone on its line that ends closed (a row with empty cells).
  Look-alike: sub_rows, stubs indented under a parent row beside cells at their columns' edges.
- spaced_rows: a table of words whose rows are set further apart than the lines of a cell, its cells wrapping
  flush: a wrapped line starting with a capital ('Mix Set for Illumina') is a line of the row above; a row with
  an empty stub, and a stub alone on its line (a row with empty cells), are rows.
- centred_long_labels: a table of characteristics whose row labels wrap over two to five lines, each value
  centred on its label's lines (Word, InDesign), rows set further apart than a label's lines: a label's
  first lines above its value are its own, not the end of the label above. Look-alikes inside it: a label with
  no value (a row with an empty cell); outside it: top_long_labels, each value on its label's first line.
- page_high_table: a table filling a page with no body text, its last column of short wordy cells (author,
  year) beside a column of long descriptions; the channel between them runs down the whole page like a
  page gutter. Look-alike: a full-width table over a page set in two columns of running text.

    from papers.unseen_layouts import UNSEEN_LAYOUT_PAPERS, UNSEEN_LAYOUT_RENDERERS
"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Callable
from pathlib import Path

import pypdfium2 as pdfium
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Flowable, FrameBreak, PageTemplate
from reportlab.platypus import Frame as RLFrame
from reportlab.platypus import Paragraph as RLParagraph

from papers import tables
from papers.extra_features import _SideBySide
from papers.features import feature_paper
from papers.journal_layouts import BODY, FAM, Sideways, _alone, _around, _paper, _write
from papers.prose import paragraphs
from pipeline.fixtures.draw import TableFlowable
from pipeline.fixtures.spec import Heading, NewPage, PaperSpec, PaperTruth, Paragraph, Span, TableSpec
from pipeline.fixtures.truth import table_truth
from pipeline.store import write_bytes

DATASETS = (  # (name, sequences, share): some names long enough to wrap in a column-wide table
    ("Human enhancers Cohn", "27,791", "(21)"),
    ("Human non-TATA promoters", "36,131", "(28)"),
    ("Mouse enhancers from the candidate cis-regulatory element registry of ENCODE", "1,210", "(1)"),
    ("Drosophila enhancers Stark", "6,914", "(5)"),
    ("Human open chromatin regions from the Ensembl regulatory build", "139,804", "(45)"),
    ("Human regulatory elements", "289,061", "(92)"),
    ("Coding versus intergenomic", "100,000", "(32)"),
)


def dataset_table(wrapped: bool) -> TableSpec:
    """Datasets and their sizes: with ``wrapped``, the long names wrap onto two lines inside a column-wide
    stub and the sizes sit centred on both lines; without, short names on one line each."""
    names = [name if wrapped else name.split(" from ")[0].split(" regions")[0] for name, _, _ in DATASETS]
    return TableSpec(
        label="Table 1",
        caption="Datasets of the benchmark and their sizes.",
        rows=[
            ["Dataset", "Sequences (%)"],
            *([name, f"{n} {share}"] for name, (_, n, share) in zip(names, DATASETS, strict=True)),
        ],
        wrap_widths=[(0, 165.0)],
        align="lr",
        valign="middle",
    )


def wrapped_labels(wrapped: bool = True) -> PaperSpec:
    body = [
        NewPage(columns=2),
        Heading("2 Data"),
        Paragraph(paragraphs(1, start=5, length=3)[0]),
        dataset_table(wrapped),
        *(Paragraph(p) for p in paragraphs(3, start=8)),
    ]
    return feature_paper("Datasets of a Genomic Benchmark" if wrapped else "Datasets, Short Names", body)


LIGANDS = (  # (domain, ligand, reference that reads like words)
    ("EGFL", "fibronectin", "Hauzenberger and Prieto, 1992"),
    ("FN 1-3", "tenascin-R", "Fischer and Schachner, 1997"),
    ("FN 3", "perlecan", "Sriramarao and Yokosaki, 1993"),
    ("FN 3-5", "syndecan-1", "Chung and Erickson, 1997"),
    ("FN 6-8", "contactin", "Chiquet and Ehrismann, 1991"),
    ("FN A-D", "glypican-1", "Julian and Matsuda, 1994"),
    ("FN 7-8", "neurocan", "Tremble and Werb, 1994"),
    ("FG", "phosphacan", "Aukhil and Erickson, 1993"),
    ("TN-C", "annexin II", "Salmivirta and Barnea, 1991"),
    ("TN-R", "heparin", "Rathien and Schachner, 1991"),
)


def ligand_table() -> TableSpec:
    """Forty rows: a short domain, a one-line description of about the same length in every row (its right
    edge and the references' left edge make a channel down the page), and a reference."""
    rows = [["Domain", "Ligands and activities", "Reference"]]
    for where in ("in vitro", "in vivo", "in situ", "in culture"):  # enough rows to fill the page
        rows += [
            [d, f"Binding of {ligand} to the domain and cell adhesion, {where}", ref] for d, ligand, ref in LIGANDS
        ]
    return TableSpec(
        label="Table 2",
        caption="Interactions of the domains with ligands, and the activities they support.",
        rows=rows,
        align="lll",
        font_size=8.0,
    )


INTERACTIONS = (  # (domain, activity, reference): wordy cells, some long enough to wrap
    ("EGFL + FN 6-8", "Attachment and then repulsion of neural cells transfected with channel subunits", "Xiao, 1999"),
    (
        "FN 2-3",
        "Contactin; tenascin-R enhances contactin-mediated neurite outgrowth",
        "Brummendorf, 1989; Norenberg, 1995",
    ),
    ("FN 3", "Integrin binding; endothelial cell elongation", "Sriramarao, 1993"),
    ("", "Integrin binding; glioma spreading", "Prieto, 1993"),
    ("FG", "Osteosarcoma attachment, but not spreading", ""),
    ("FN 1-5", "", ""),
    (
        "Neurocan; Phosphacan",
        "Bind amphoterin via chondroitin sulfate side chains, presence of amphoterin",
        "Milev, 1998",
    ),
    ("Neurocan; integrins", "Bind to L1", "Oleszewski, 1999"),
    ("TN-C", "Syndecan", "Salmivirta, 1991"),
)


SUB_ROWS = (  # (domain, activity, reference): one line a row, sub-rows' stubs indented under the row above
    ("TN-C", "Counteradhesion of fibroblasts", "Spring, 1989"),
    ("EGFL", "Neuronal outgrowth", "Fischer, 1997"),
    ("FN 1-3", "", ""),
    ("TN-R", "Neuron and glial adhesion", "Rathien, 1991"),
    ("FN 3", "Glioma spreading", "Prieto, 1993"),
)


def interactions_table(hanging: bool) -> TableSpec:
    """With ``hanging``, the activities and references wrap with a hanging indent and the stub wraps flush;
    without, one line a row, the stubs of some rows indented under the row above (sub-rows)."""
    layout = (
        {"wrap_widths": [(0, 46.0), (1, 170.0), (2, 90.0)], "hanging": [(1, 8.0), (2, 8.0)]}
        if hanging
        else {"indent_rows": {2, 3, 5}}
    )
    return TableSpec(
        label="Table 1",
        caption="Interactions of tenascin domains with ligands and activities.",
        rows=[["Domain", "Ligands/cells/activities", "References"], *map(list, INTERACTIONS if hanging else SUB_ROWS)],
        align="lll",
        font_size=8.0,
        **layout,
    )


RESOURCES = (  # (reagent, source, identifier): a key resources table, its rows spaced apart
    ("Ficoll-Paque-Plus gradient", "Sigma", "GE17-1440-02"),
    ("NEBNext ChIP-Seq Library Prep Master Mix Set for Illumina", "New England Biolabs", "E6240"),
    ("Tagment DNA Buffer", "Illumina", "FC-121-1030"),
    ("Deposited data", "", ""),
    ("", "Sequencing core facility of the institute", "SRA-PRJNA1"),
    ("ATAC-seq profiling of ER-Hoxa9 cells before and after inducing commitment", "This paper", "GEO: GSE178392"),
    ("RNeasy kit", "QIAGEN", "QIA-74104"),
)


def spaced_rows() -> PaperSpec:
    table = TableSpec(
        label="Table 1",
        caption="Key resources.",
        rows=[["Reagent or resource", "Source", "Identifier"], *(list(row) for row in RESOURCES)],
        align="lll",
        font_size=8.0,
        wrap_widths=[(0, 130.0), (1, 70.0)],
        row_gap=3.0,
    )
    body = [Heading("4 Methods"), Paragraph(paragraphs(1, start=3, length=3)[0]), table]
    return feature_paper("Key Resources", [*body, *(Paragraph(p) for p in paragraphs(2, start=12))])


CHARACTERISTICS = (  # (characteristic, value): labels of one to five lines in a narrow stub
    ("Sex", "Boys 14, girls 7"),
    ("Age (years)", "2.8–19.5 (median 9.6)"),
    ("Conditioning regimen based on busulfan (n)", "9 (45%)"),
    ("Time to neutrophil engraftment", ""),
    ("Systemic glucocorticoids (%)", "16 (80%)"),
    ("Median and range of cumulative dose of glucocorticoids (equivalent of prednisone)", "1463 (29–9758) mg"),
    ("Median duration of systemic glucocorticoids therapy", "105 (3–240) days"),
    ("Median time since discontinuation of glucocorticoids (range)", "3.5 (0.4–14.3) months"),
    (
        "Median time from discontinuation of immunosuppressive treatment to the second assessment (range)"
        " (16 patients)",
        "1.8 (0–9) months",
    ),
)


def characteristics(centred: bool = True) -> PaperSpec:
    table = TableSpec(
        label="Table 2",
        caption="Characteristics of the studied group.",
        rows=[["Characteristic", "Post-HSCT group"], *([name, value] for name, value in CHARACTERISTICS)],
        align="lc",
        wrap_widths=[(0, 120.0)],
        valign="middle" if centred else "top",
        row_gap=2.0,
    )
    body = [NewPage(columns=2), Heading("2 Patients"), Paragraph(paragraphs(1, start=2, length=3)[0]), table]
    title = "Characteristics of Patients" if centred else "Characteristics of Patients, Top-Aligned"
    return feature_paper(title, [*body, *(Paragraph(p) for p in paragraphs(3, start=7))])


def interactions(hanging: bool = True) -> PaperSpec:
    body = [
        Heading("2 Interactions"),
        Paragraph(paragraphs(1, start=6, length=3)[0]),
        interactions_table(hanging),
        *(Paragraph(p) for p in paragraphs(2, start=11)),
    ]
    return feature_paper("Tenascin Interactions" if hanging else "Tenascin Interactions, Sub-rows", body)


def page_high_table() -> PaperSpec:
    body = [
        Heading("2 Results"),
        Paragraph("Table 2 lists the interactions. " + paragraphs(1, start=4, length=2)[0]),
        NewPage(),
        ligand_table(),
        NewPage(),
        *(Paragraph(p) for p in paragraphs(2, start=9)),
    ]
    return feature_paper("Domains and Their Ligands", body)


def full_width_over_columns() -> PaperSpec:
    """The look-alike: a full-width table heading a page set in two columns of running text."""
    table = TableSpec(
        label="Table 2",
        caption="Interactions of the domains with ligands.",
        rows=ligand_table().rows[:7],
        align="lll",
        font_size=8.0,
    )
    body = [Heading("2 Results"), NewPage(columns=2, top=table), *(Paragraph(p) for p in paragraphs(4, start=9))]
    return feature_paper("Domains Over Two Columns", body)


SCORES = (
    ("NT-500M", "0.812", "0.774", "0.951"),
    ("HyenaDNA", "0.798", "0.781", "0.958"),
    ("Caduceus", "0.826", "0.792", "0.962"),
    ("DNABERT-2", "0.805", "0.769", "0.947"),
    ("GENA-LM", "0.817", "0.765", "0.955"),
    ("Evo-7B", "0.829", "0.801", "0.966"),
)
NOTE = "Models below were pretrained on the multispecies genomes and fine-tuned on the same task splits"


def note_row_table(note: bool, rule_after: bool = False) -> TableSpec:
    """Six models on three tasks; with ``note``, a row of one long note spanning every column after the third
    (and with ``rule_after``, a thin rule over the row under the note)."""
    rows: list[list[str | None]] = [["Model", "Promoters", "Enhancers", "Splice sites"], *map(list, SCORES)]
    spans = []
    if note:
        rows.insert(4, [NOTE, None, None, None])
        spans = [Span(4, 0, 1, 4)]
    return TableSpec(
        label="Table 1",
        caption="Accuracy of the models on three tasks.",
        rows=rows,
        spans=spans,
        rule_above={5} if rule_after else set(),
    )


def note_row(note: bool = True, rule_after: bool = False) -> PaperSpec:
    body = [
        Heading("2 Results"),
        Paragraph("Table 1 gives the accuracy. " + paragraphs(1, start=4, length=2)[0]),
        note_row_table(note, rule_after),
        *(Paragraph(p) for p in paragraphs(2, start=9)),
    ]
    return feature_paper("Models on Three Tasks" if note else "Models on Three Tasks, Plain", body)


def unseen_layout_papers() -> dict[str, PaperSpec]:
    """Fresh specs, keyed by layout: each kind first, its look-alike after."""
    return {
        "wrapped_labels": wrapped_labels(),
        "short_labels": wrapped_labels(wrapped=False),
        "note_row": note_row(),
        "note_row_over_rule": note_row(rule_after=True),
        "plain_rows": note_row(note=False),
        "page_high_table": page_high_table(),
        "hanging_indent": interactions(),
        "sub_rows": interactions(hanging=False),
        "spaced_rows": spaced_rows(),
        "centred_long_labels": characteristics(),
        "top_long_labels": characteristics(centred=False),
        "full_width_over_columns": full_width_over_columns(),
    }


UNSEEN_LAYOUT_PAPERS: dict[str, PaperSpec] = unseen_layout_papers()


def _two_frames(path: Path, left: list[Flowable], right: list[Flowable]) -> None:
    """One letter page in two frames: a narrow left one (a sideways table fits there) and a right one."""
    width, height = letter
    frames = [
        RLFrame(60, 60, 230, height - 120, leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0),
        RLFrame(310, 60, width - 370, height - 120, leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0),
    ]
    out = io.BytesIO()
    doc = BaseDocTemplate(out, pagesize=letter, invariant=1, title="Unseen layout")
    doc.addPageTemplates([PageTemplate("two", frames)])
    doc.build([*left, FrameBreak(), *right])
    write_bytes(path, out.getvalue())


def _references(n: int) -> list[Flowable]:
    style = ParagraphStyle("refs", fontName=FAM.regular, fontSize=8, leading=9.5, spaceAfter=3)
    return [RLParagraph(f"{k + 1}. {text}", style) for k, text in enumerate(paragraphs(n, start=2, length=1))]


def _truth(path: Path, spec: TableSpec, part: TableFlowable) -> PaperTruth:
    return PaperTruth(
        title="Unseen layout",
        pages=1,
        tables=[table_truth(spec, [part], letter[1])],
        headings=[],
        text_paragraphs=[],
    )


def render_sideways_beside_references(path: Path) -> PaperTruth:
    """A table turned a quarter left in the left part of a portrait page, its caption running up the page, and
    an upright reference list beside it holding most of the page's glyphs."""
    spec = tables.booktabs("Table 1")
    part = TableFlowable(spec, FAM, list(range(spec.n_rows)), spec.full_caption, "single")
    _two_frames(path, [Sideways(part)], _references(14))
    return _truth(path, spec, part)


def _margin_note(canvas: Canvas, _doc: BaseDocTemplate) -> None:
    """A download notice running up the right margin (publishers stamp one on every page)."""
    canvas.saveState()
    canvas.setFont(FAM.regular, 7)
    canvas.translate(letter[0] - 30, 80)
    canvas.rotate(90)
    for k, text in enumerate(paragraphs(3, start=6, length=1)):
        canvas.drawString(0, -9 * k, text[:150])
    canvas.restoreState()


def render_upright_beside_margin_note(path: Path) -> PaperTruth:
    """The look-alike: an upright captioned table amid running text, with a sideways notice in the margin (a
    share of the page's glyphs run sideways, but no table caption among them)."""
    spec = tables.small("Table 1", "Accuracy.", "Accuracy", ("0.812", "0.806", "0.798", "0.817", "0.826"))
    part = TableFlowable(spec, FAM, list(range(spec.n_rows)), spec.full_caption, "single")
    _write(path, _around(part), on_page=_margin_note)
    return _truth(path, spec, part)


def render_numbered_caption(path: Path) -> PaperTruth:
    """A manuscript page holding a table, whose line numbers run only beside the caption (the table and the
    space around it are not numbered): too few numbers to be taken for the page's numbering, each set apart
    at the start of a caption line."""
    spec = tables.booktabs("Supplementary Table 2")
    part = TableFlowable(spec, FAM, list(range(spec.n_rows)), spec.full_caption, "single")
    _write(path, [part])  # first without numbers, to find the caption's baseline
    with pdfium.PdfDocument(path) as doc:
        text = doc[0].get_textpage()
        baseline = letter[1] - text.get_charbox(0)[1]  # the caption's first glyph: its bottom, top-left origin

    def numbers(canvas: Canvas, _doc: BaseDocTemplate) -> None:
        canvas.setFont(FAM.regular, 8)
        for k in range(2):
            canvas.drawRightString(50, letter[1] - baseline - 18 * k, str(794 + k))

    _write(path, [part], on_page=numbers)
    return _truth(path, spec, part)


SHARES = ("0.812", "0.806", "0.798", "0.817", "0.826")


def _across(captions: list[str]) -> list[TableFlowable]:
    specs = [
        tables.small(f"Table {k + 1}", caption, column, SHARES)
        for k, (caption, column) in enumerate(zip(captions, ("Accuracy", "GPU hours", "Params"), strict=False))
    ]
    return [TableFlowable(spec, FAM, list(range(spec.n_rows)), spec.full_caption, "column") for spec in specs]


def render_three_across(path: Path) -> PaperTruth:
    parts = _across(["Accuracy on enhancers.", "Training time in GPU hours.", "Parameters of each model."])
    return _paper(path, [p.spec for p in parts], parts, _around(_SideBySide(*parts)))


def render_three_across_narrow(path: Path) -> PaperTruth:
    """Captions long enough to fill their shares, the shares 4 pt apart: no gap wider than an em parts them."""
    parts = _across(
        [
            "Accuracy of each model on Human Enhancers Cohn, fine-tuned with the default recipe.",
            "Training time in GPU hours on one A100 for every model.",
            "Parameters of each model, in millions, as reported.",
        ]
    )
    return _paper(path, [p.spec for p in parts], parts, _around(_SideBySide(*parts, gap=4.0)))


def render_caption_naming_a_table(path: Path) -> PaperTruth:
    spec = tables.booktabs("Table 3")
    caption = "Accuracy of every model on each task, fine-tuned as for Table 2: Figure 3 plots the same runs."
    return _alone(path, dataclasses.replace(spec, caption=caption))


def render_beside_figure_caption(path: Path) -> PaperTruth:
    """A small table, and beside it, on its caption's line, the caption of a figure drawn in the same float."""
    (part,) = _across(["Accuracy on enhancers."])
    figure = RLParagraph("Figure 2: Accuracy against sequence length for each model and task.", BODY)
    return _paper(path, [part.spec], [part], _around(_SideBySide(part, figure)))


UNSEEN_LAYOUT_RENDERERS: dict[str, Callable[[Path], PaperTruth]] = {
    "three_across": render_three_across,
    "three_across_narrow": render_three_across_narrow,
    "caption_naming_a_table": render_caption_naming_a_table,
    "beside_figure_caption": render_beside_figure_caption,
    "sideways_beside_references": render_sideways_beside_references,
    "upright_beside_margin_note": render_upright_beside_margin_note,
    "numbered_caption": render_numbered_caption,
}
