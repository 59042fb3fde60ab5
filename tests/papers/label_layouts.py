"""Where a table's label is printed other than as "Table N." over its grid (issue 29), each with look-alikes:

- key_resources: a table named by a heading in capitals ("KEY RESOURCES TABLE", Cell Press STAR Methods)
  and continued overleaf, the part there opening with a "Continued" line inside its rules and the header
  repeated under it. Look-alike on the same pages: a section heading in capitals over prose.
- new_table_overleaf: the same first part, and at the head of the next page a table with as many columns but
  a header of its own and no "Continued" line: a new, uncaptioned table, not a continuation.
- double_spaced_caption: a manuscript set double-spaced, a caption of three lines ("Table 1 Mutations ...",
  its label bold, no punctuation) over a table, and running text whose lines start with "Table 2 of" and, in
  mid-sentence, "Table S3: Docking scores" (mentions).
- label_alone_below: the same manuscript with the caption under its table, "TABLE 1" alone and centred on
  its line and the title on the next lines; a paragraph of running text follows after a blank line.
- title_elsewhere: a manuscript printing its captions together on one page ("Table 1. Accuracy ...") and on
  the next only "Table 1" over the table. Look-alike: Table 2 there under its own full caption, which it keeps.
- paragraph_after_caption: the same manuscript, a short caption under the table ("Table 1. Mutations and their
  docking scores.") and running text right after it at the manuscript's line spacing, no blank line between.
- plain_caption: "Table 1 Accuracy of ..." set as a paragraph of the body text (no punctuation after the
  number, the label neither bold nor in another size) over a table. Look-alike: a paragraph right under the
  table that starts "Table 2 Results ...", running text.

    from papers.label_layouts import LABEL_LAYOUT_RENDERERS
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import PageBreak, Spacer
from reportlab.platypus import Paragraph as RLParagraph

from papers import tables
from papers.journal_layouts import BODY, FAM, _paper
from papers.prose import paragraphs
from pipeline.fixtures.draw import TableFlowable
from pipeline.fixtures.spec import PaperTruth, TableSpec
from pipeline.fixtures.table_layout import Rule

HEADING = ParagraphStyle("heading", parent=BODY, fontName=FAM.bold, fontSize=10, leading=12, spaceAfter=10)
DOUBLE = ParagraphStyle("double", fontName=FAM.regular, fontSize=12, leading=27.6, spaceAfter=0)  # Word: 12 pt double
DOUBLE_CENTRED = ParagraphStyle("double_centred", parent=DOUBLE, alignment=TA_CENTER)

REAGENTS = (  # (reagent, source, identifier): short cells, as a key resources table prints them
    ("Anti-V5 tag", "Abcam", "ab15828"),
    ("IL-3", "MedChemExpress", "HY-102060"),
    ("IL-6", "MedChemExpress", "HY-102058"),
    ("Formaldehyde", "Thermo Fisher", "BPF79-1"),
    ("RNase A", "Fisher", "EN0531"),
    ("Proteinase K", "Fisher", "BP1700100"),
    ("Polybrene", "Millipore-Sigma", "TR-1003-G"),
    ("Ficoll-Paque", "Sigma", "GE17-1440-02"),
    ("AMPure XP beads", "Beckman Coulter", "A63880"),
    ("Tagment DNA Buffer", "Illumina", "15027866"),
    ("RNeasy kit", "QIAGEN", "74104"),
    ("BWA v0.7.17", "Li et al., 2008", "N/A"),
    ("Bedtools v2.26.0", "Quinlan and Hall, 2010", "N/A"),
    ("MACS v2", "Zhang et al., 2008", "N/A"),
    ("HOMER v4.11", "Heinz et al., 2010", "N/A"),
    ("DESeq v1.8.1", "Love et al., 2014", "N/A"),
)
FIRST_PART = 11  # body rows on the first page


def key_resources() -> TableSpec:
    return TableSpec(
        label="KEY RESOURCES TABLE",
        caption="",
        separator="",
        rows=[["REAGENT or RESOURCE", "SOURCE", "IDENTIFIER"], *(list(r) for r in REAGENTS)],
        align="lll",
        continued_after=FIRST_PART,
    )


class MarkedPart(TableFlowable):
    """A continued part whose caption line ("Continued") is set flush left inside the table's rules: a rule
    over it, the table's top rule under it (Cell Press)."""

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        size = super().wrap(availWidth, availHeight)
        layout = self.layout
        assert layout is not None
        x0, _, x1, _ = layout.body_bbox
        layout.caption = [line.__class__(x0, line.baseline, line.text, line.font, line.size) for line in layout.caption]
        layout.rules.append(Rule(x0, 0.3, x1, 0.3, 0.5))
        return size


def _first_part(spec: TableSpec) -> TableFlowable:
    return TableFlowable(spec, FAM, list(range(spec.header_rows + FIRST_PART)), spec.label, "single")


def _prose(n: int, start: int) -> list[RLParagraph]:
    return [RLParagraph(text, BODY) for text in paragraphs(n, start=start)]


def render_key_resources(path: Path) -> PaperTruth:
    spec = key_resources()
    first = _first_part(spec)
    rest = MarkedPart(spec, FAM, [0, *range(spec.header_rows + FIRST_PART, spec.n_rows)], "Continued", "single")
    story = [
        RLParagraph("STAR METHODS", HEADING),
        first,
        PageBreak(),
        rest,
        RLParagraph("RESOURCE AVAILABILITY", HEADING),  # a heading in capitals over prose: no table
        *_prose(2, 3),
    ]
    return _paper(path, [spec], [first, rest], story, pages=2)


def render_new_table_overleaf(path: Path) -> PaperTruth:
    spec = key_resources()
    first = _first_part(spec)
    other = TableSpec(
        label="(uncaptioned)",
        caption="",
        rows=[["Sample", "Reads (M)", "Mapped (%)"], *([f"S{i}", f"{20 + 3 * i}.{i}", f"9{i}.5"] for i in range(8))],
        align="lrr",
    )
    second = TableFlowable(other, FAM, list(range(other.n_rows)), "", "single")
    story = [RLParagraph("STAR METHODS", HEADING), first, PageBreak(), second, *_prose(2, 3)]
    whole = TableSpec(label=spec.label, caption="", separator="", rows=spec.rows[: spec.header_rows + FIRST_PART])
    return _paper(path, [whole, other], [first, second], story, pages=2)


MUTATIONS = (("Native", "-113.1", "9"), ("R52D", "-102.3", "5"), ("S54E", "-121.5", "14"), ("G56H", "-114.9", "9"))
CAPTION = (
    "Mutations selected for the CDR2 and CDR3 with their docking scores and number of hydrogen bonds found by "
    "the analysis of the docked complexes, and the average number of hydrogen bonds after the simulations."
)


def mutations() -> TableSpec:
    return TableSpec(
        label="Table 1",
        caption=CAPTION,
        rows=[["Mutation", "Docking score", "H-bonds"], *(list(r) for r in MUTATIONS)],
        rules="grid",
        font_size=11.0,
    )


def _manuscript_prose(n: int, start: int) -> list[RLParagraph]:
    return [RLParagraph(text, DOUBLE) for text in paragraphs(n, start=start, length=3)]


def render_double_spaced_caption(path: Path) -> PaperTruth:
    spec = mutations()
    table = TableFlowable(spec, FAM, list(range(spec.n_rows)), "", "single")
    mention = (  # running text whose lines start with a label: mentions, not captions
        "Table 2 of the supplement lists the primers used for every mutation.<br/>The docking scores of every"
        " complex are given in the supplementary file,<br/>Table S3: Docking scores, one row for each run."
    )
    story = [
        *_manuscript_prose(1, 2),
        RLParagraph(mention, DOUBLE),
        Spacer(1, 27.6),
        RLParagraph(f"<b>Table 1</b> {CAPTION}", DOUBLE),
        table,
        *_manuscript_prose(1, 6),
    ]
    return _paper(path, [spec], [table], story)


def render_label_alone_below(path: Path) -> PaperTruth:
    spec = mutations()
    table = TableFlowable(spec, FAM, list(range(spec.n_rows)), "", "single")
    story = [
        *_manuscript_prose(1, 2),
        table,
        RLParagraph("<b>TABLE 1</b>", DOUBLE_CENTRED),
        RLParagraph(CAPTION, DOUBLE_CENTRED),
        Spacer(1, 27.6),
        *_manuscript_prose(1, 6),
    ]
    return _paper(path, [spec], [table], story)


SHORT_TITLE = "Table 1. Mutations and their docking scores."


def render_paragraph_after_caption(path: Path) -> PaperTruth:
    spec = mutations()
    table = TableFlowable(spec, FAM, list(range(spec.n_rows)), "", "single")
    story = [*_manuscript_prose(1, 2), table, RLParagraph(SHORT_TITLE, DOUBLE), *_manuscript_prose(1, 6)]
    return _paper(path, [spec], [table], story)


PLAIN_CAPTION = "Accuracy of five DNA language models on the short-range classification tasks."
MENTION = (
    "Table 2 Results of the second cohort are given in the supplement, where the same five models were "
    "fine-tuned with the recipe above and scored on the held-out split of every task."
)


def render_plain_caption(path: Path) -> PaperTruth:
    spec = tables.booktabs("Table 1")
    table = TableFlowable(spec, FAM, list(range(spec.n_rows)), "", "single")
    caption = RLParagraph(f"Table 1 {PLAIN_CAPTION}", BODY)
    story = [*_prose(1, 2), caption, table, RLParagraph(MENTION, BODY), *_prose(1, 5)]
    return _paper(path, [spec], [table], story)


TIMES = ("41.5", "18.2", "6.3", "22.7", "7.9")
LISTED_TITLE = "Table 2. Training time of every model in GPU hours, as listed with the captions."


def render_title_elsewhere(path: Path) -> PaperTruth:
    first = tables.booktabs("Table 1")
    second = tables.small("Table 2", "Training time in GPU hours.", "GPU hours", TIMES)
    listed = [RLParagraph(f"{first.label}. {first.caption}", BODY), RLParagraph(LISTED_TITLE, BODY)]
    parts = [
        TableFlowable(first, FAM, list(range(first.n_rows)), first.label, "single"),
        TableFlowable(second, FAM, list(range(second.n_rows)), second.full_caption, "single"),
    ]
    story = [*_prose(1, 2), RLParagraph("Table captions", HEADING), *listed, PageBreak(), *parts, *_prose(1, 5)]
    return _paper(path, [first, second], parts, story, pages=2)


LABEL_LAYOUT_RENDERERS: dict[str, Callable[[Path], PaperTruth]] = {
    "key_resources": render_key_resources,
    "new_table_overleaf": render_new_table_overleaf,
    "double_spaced_caption": render_double_spaced_caption,
    "label_alone_below": render_label_alone_below,
    "paragraph_after_caption": render_paragraph_after_caption,
    "plain_caption": render_plain_caption,
    "title_elsewhere": render_title_elsewhere,
}
