"""Group rows and ruled tables at the page top (issue 29, crystallography tables and supplementary pages), each
with the look-alikes that must read as before:

- group_rows: a statistics table whose blocks open with a label alone on its line ('Refinement', 'RMSD',
  'Ramachandran plot'), set like every other label (no bold, no indent under it) and at the rows' pitch: each
  names the rows under it and spans the table; the label above it had room for its first word, so it is no
  wrapped end of that label. Look-alike: wrapped_stub, labels wrapped in a narrow stub whose second line
  starts with a capital ('Mean B factor of' / 'Protein atoms'): the next word did not fit, so it is the label's
  second line.
- ruled_group_rows: the group labels right under the widest label (no room was left there), in a table ruled
  under every row: the rule parts them. Look-alike: unruled_group_rows, the same unruled: nothing tells the
  group label from the label's second line; it is joined, and the table is doubted.
- centred_values: labels wrapped over three lines beside values set centred on them; the first line of a label
  has room after the last line of the label above, so it is no part of it, and it ends on a word that cannot
  end a label ('Median time since') over a line going on in lower case: the first line of the label below.
  Look-alike: lower_sub_rows, group names that end closed ('Sex') over rows named in lower case ('male'):
  each names the rows under it.
- grid_at_page_top: a full-grid table at the very top of a page, its caption below it (supplementary pages):
  its top rule lies where running heads put theirs, but the header row under it is closed by the next rule,
  so it is the table's. Look-alike: grid_under_head_rule, a running head over a rule and the same table right
  under it: the head stays out of the table.

    from papers.group_rows import GROUP_ROW_RENDERERS
"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Callable, Sequence
from pathlib import Path

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Flowable, PageTemplate
from reportlab.platypus import Frame as RLFrame
from reportlab.platypus import Paragraph as RLParagraph

from papers.journal_layouts import BODY, FAM, _around, _paper, _whole
from papers.prose import paragraphs
from papers.unseen_layouts import _truth
from pipeline.fixtures.draw import TableFlowable
from pipeline.fixtures.spec import PaperTruth, Span, TableSpec
from pipeline.store import write_bytes

STATISTICS: tuple[tuple[str, str | None, str | None], ...] = (  # (label, value, value); None: a group label
    ("Wavelength (Å)", "0.97918", "0.97933"),
    ("Average B factor of all atoms (Å2)", "59.8", "61.2"),
    ("Space group", "P 21", "P 61"),
    ("Multiplicity", "20.2 (14.1)", "13.2 (13.4)"),
    ("Refinement", None, None),
    ("Reflections used in refinement", "67544 (6630)", "10363 (1011)"),
    ("Rwork (%)", "21.0 (36.2)", "20.5 (27.9)"),
    ("Protein", "6091", "5874"),
    ("RMSD", None, None),
    ("Bond lengths (Å)", "0.002", "0.010"),
    ("Bond angles (°)", "0.45", "1.14"),
    ("Ramachandran plot", None, None),
    ("Favored (%)", "98.1", "92.7"),
    ("Outliers (%)", "0.0", "0.6"),
)


def statistics_table(
    rows: Sequence[tuple[str, str | None, str | None]] = STATISTICS, ruled: bool = False, label: str = "Table 1"
) -> TableSpec:
    """Data collection and refinement statistics of two structures; ``ruled``: a rule under every row."""
    body = [[name, a, b] if a is not None else [name, None, None] for name, a, b in rows]
    return TableSpec(
        label=label,
        caption="Data collection and refinement statistics.",
        rows=[["Statistic", "Apo", "Complex"], *body],
        spans=[Span(r, 0, 1, 3) for r, row in enumerate(body, start=1) if row[1] is None],
        align="lcc",
        rule_above=set(range(2, len(body) + 1)) if ruled else set(),
    )


UNDER_WIDEST: tuple[tuple[str, str | None, str | None], ...] = (  # each group label under the widest label
    ("Wavelength (Å)", "0.97918", "0.97933"),
    ("Reflections used in refinement", "67544 (6630)", "10363 (1011)"),
    ("Refinement", None, None),
    ("Rwork (%)", "21.0 (36.2)", "20.5 (27.9)"),
    ("Reflections used in refinement", "3197 (271)", "1011 (98)"),
    ("RMSD", None, None),
    ("Bond lengths (Å)", "0.002", "0.010"),
)


WRAPPED = (  # labels wrapped in a narrow stub, the second line starting with a capital
    ("Wavelength (Å)", "0.97918", "0.97933"),
    ("Mean B factor of Protein atoms (Å2)", "45.8", "52.1"),
    ("Reflections used for Rfree", "3197 (271)", "1011 (98)"),
    ("Ramachandran outliers in Chain A", "0.0", "0.6"),
    ("Bond lengths (Å)", "0.002", "0.010"),
)


CENTRED = (  # long labels wrapped over three lines, each value set centred on its label's lines
    ("Patients", "20", "33"),
    ("Median time since discontinuation of glucocorticoids", "3.5 (0.4–14.3)", "2.1 (0.2–9.8)"),
    ("Median time from discontinuation of immunosuppressive treatment (range)", "1.8 (0–9)", "2.4 (0–11)"),
    ("Median age at transplantation (range)", "9.6 (2.8–19.5)", "10.5 (1.5–19)"),
)


SUB_ROWS = (  # group names ending closed over rows named in lower case
    ("Age at transplantation (years)", "9.6", "10.5"),
    ("Patients", "20", "33"),
    ("Sex", None, None),
    ("male", "12", "20"),
    ("female", "8", "13"),
    ("Smoking status", None, None),
    ("never", "11", "19"),
    ("current", "9", "14"),
)


def render_lower_sub_rows(path: Path) -> PaperTruth:
    return _alone(path, statistics_table(SUB_ROWS))


def render_centred_values(path: Path) -> PaperTruth:
    spec = dataclasses.replace(statistics_table(CENTRED), wrap_widths=[(0, 110.0)], valign="middle")
    return _alone(path, spec)


def render_group_rows(path: Path) -> PaperTruth:
    return _alone(path, statistics_table())


def render_wrapped_stub(path: Path) -> PaperTruth:
    return _alone(path, dataclasses.replace(statistics_table(WRAPPED), wrap_widths=[(0, 72.0)]))


def render_ruled_group_rows(path: Path) -> PaperTruth:
    return _alone(path, statistics_table(UNDER_WIDEST, ruled=True))


def render_unruled_group_rows(path: Path) -> PaperTruth:
    return _alone(path, statistics_table(UNDER_WIDEST))


def _alone(path: Path, spec: TableSpec) -> PaperTruth:
    part = _whole(spec)
    return _paper(path, [spec], [part], _around(part))


SAMPLES = (
    ("Sample type", "Sample name", "Stage", "Age", "Sex"),
    ("Control", "CTRL-1", "0", "84", "Male"),
    ("Control", "CTRL-2", "0", "83", "Female"),
    ("Braak III", "Braak_III_1", "2.5", "88", "Male"),
    ("Braak III", "Braak_III_2", "3", "92", "Female"),
    ("Braak V/VI", "Braak_V-VI_1", "6", "71", "Male"),
)
TOP = 52.0  # pt from the page top to the frame: a table there has its top rule where running heads put theirs


def samples_table() -> TableSpec:
    return TableSpec(
        label="Supplementary Table 1",
        caption="Demographics of the brain samples.",
        rows=[list(row) for row in SAMPLES],
        rules="grid",
        caption_position="below",
        separator="|",
        bold={(0, c) for c in range(len(SAMPLES[0]))},
        align="lllll",
    )


class HuggingTopRule(TableFlowable):
    """A grid whose top border sits right on the header's glyphs (a Word table with no cell margin above)."""

    DROP = 2.3  # pt the top border comes down from the fixtures' padding

    def draw(self) -> None:
        assert self.layout is not None, "wrap() runs before draw()"
        rules = self.layout.rules
        top = min(r.y0 for r in rules if r.y0 == r.y1)
        self.layout.rules = [
            dataclasses.replace(r, y0=r.y0 + self.DROP, y1=r.y1 + self.DROP) if r.y0 == r.y1 == top else r
            for r in rules
        ]
        super().draw()
        self.layout.rules = rules


def _head(canvas: Canvas, _doc: BaseDocTemplate) -> None:
    """A running head over a rule as long as the text width, right above the frame."""
    width, height = letter
    canvas.setFont(FAM.italic, 8)
    canvas.drawCentredString(width / 2, height - 38, "Supplementary material of a genomic study")
    canvas.setLineWidth(0.5)
    canvas.line(72, height - 44, width - 72, height - 44)


def _write_top(path: Path, story: list[Flowable], on_page: Callable[[Canvas, BaseDocTemplate], None]) -> None:
    width, height = letter
    frame = RLFrame(72, 72, width - 144, height - 72 - TOP, leftPadding=0, rightPadding=0, topPadding=0)
    out = io.BytesIO()
    doc = BaseDocTemplate(out, pagesize=letter, invariant=1, title="Supplementary tables")
    doc.addPageTemplates([PageTemplate("one", [frame], onPage=on_page)])
    doc.build(story)
    write_bytes(path, out.getvalue())


def _at_top(path: Path, on_page: Callable[[Canvas, BaseDocTemplate], None]) -> PaperTruth:
    spec = samples_table()
    part = _whole(spec, HuggingTopRule)
    _write_top(path, [part, RLParagraph(paragraphs(1, start=5)[0], BODY)], on_page)
    return _truth(path, spec, part)


def render_grid_at_page_top(path: Path) -> PaperTruth:
    return _at_top(path, lambda canvas, doc: None)


def render_grid_under_head_rule(path: Path) -> PaperTruth:
    return _at_top(path, _head)


GROUP_ROW_RENDERERS: dict[str, Callable[[Path], PaperTruth]] = {
    "group_rows": render_group_rows,
    "wrapped_stub": render_wrapped_stub,
    "ruled_group_rows": render_ruled_group_rows,
    "unruled_group_rows": render_unruled_group_rows,
    "centred_values": render_centred_values,
    "lower_sub_rows": render_lower_sub_rows,
    "grid_at_page_top": render_grid_at_page_top,
    "grid_under_head_rule": render_grid_under_head_rule,
}
