"""Tables of wordy rows set with no space between them, each row's short cells centred on its tallest cell (Word
and InDesign tables in clinical journals), with their look-alikes:

- centred_rows: findings wrapped onto one to three lines beside a diagnosis and a Yes/No centred on them (a
  single-line cell halfway between two lines, or on the middle one of three), a one-line finding centred on a
  two-line diagnosis, and a header whose short labels sit centred on a label wrapped onto three lines.
- centred_rows_sideways: the same table set sideways on portrait pages and continued overleaf under
  'Table 2: Continued.' with its header repeated.
- grouped_centred_rows: the same rows under a first column naming two groups of patients, each label wrapped
  and centred on its block, a rule between the blocks: the labels span their blocks, the rule joins nothing.
- rows_beside_centred_source: the look-alike: every line a row of its own (a pathway and its identifier), a
  source and a share centred beside each block of rows: the lines stay rows, the centred cells span them.
- top_aligned_rows: the look-alike: the same findings with every cell set on its row's first line and an
  ejection fraction beside each: a finding's later lines are no rows (they hold no value), and no cell is
  centred on them.

    from papers.centred_rows import CENTRED_ROW_RENDERERS
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

from reportlab.platypus import PageBreak

from papers.journal_layouts import FAM, Sideways, _around, _paper
from pipeline.fixtures.draw import TableFlowable
from pipeline.fixtures.spec import PaperTruth, Span, TableSpec

FINDINGS = (  # (finding, diagnosis, useful): findings of one to three lines, diagnoses of one or two
    ("Moderate aortic stenosis with mild aortic insufficiency", "Orthostatic hypotension", "No"),
    ("Severe aortic stenosis", "Undetermined cause", "No"),
    (
        "Right atrial enlargement. Right ventricular hypertrophy. Severe tricuspid regurgitation. Mild mitral "
        "regurgitation.",
        "Orthostatic hypotension",
        "No",
    ),
    ("Reduced ejection fraction of 30%. Diffuse hypokinesis", "Acute heart failure with respiratory failure", "No"),
    ("Moderate left atrial enlargement", "Unknown", "No"),
    (
        "Left ventricular hypertrophy. Paradoxical motion of the interventricular septum with preserved systolic "
        "function. Mild to moderate tricuspid insufficiency of the valve.",
        "Sinus bradycardia after medication overdose",
        "Yes",
    ),
    ("Generalized hypokinesis with paradoxical septal motion", "Paradoxical septal motion", "Yes"),
    ("Patient in atrial fibrillation rhythm. Moderate hypokinesis of the left ventricle.", "Unknown", "No"),
    ("Large pericardial effusion", "Large pericardial effusion", "Yes"),
    ("Severe aortic stenosis. Normal ejection fraction.", "Severe aortic stenosis", "Yes"),
)
HEADER = ["Echocardiographic findings", "Discharge diagnosis", "Echo useful in diagnosis of syncope?"]


EJECTION = ("55", "60", "45", "30", "50", "40", "25", "35", "50", "60")  # a value per row, for the look-alike


def findings_table(valign: str = "middle", continued_after: int | None = None) -> TableSpec:
    """Findings wrapped in a 230 pt column, diagnoses in a 95 pt one, the third column's label wrapped onto
    three lines; every cell centred on its row (``valign`` "middle"), or set on its first line ("top") with an
    ejection fraction in the third column."""
    third = [useful for _, _, useful in FINDINGS] if valign == "middle" else list(EJECTION)
    header = HEADER if valign == "middle" else [*HEADER[:2], "Ejection fraction at discharge (%)"]
    return TableSpec(
        label="Table 2",
        caption="Echocardiographic findings in patients with an abnormal echocardiogram.",
        rows=[
            header,
            *([finding, diagnosis, value] for (finding, diagnosis, _), value in zip(FINDINGS, third, strict=True)),
        ],
        stub_cols=0,
        wrap_widths=[(0, 230.0), (1, 95.0), (2, 45.0)],
        align="llc",
        valign=valign,
        continued_after=continued_after,
        rule_above={1 + continued_after} if continued_after else set(),  # under the header repeated overleaf
    )


def grouped_findings_table() -> TableSpec:
    """The findings under a first column naming two groups of patients, each label wrapped and centred on its
    block of rows, a rule between the blocks."""
    base = findings_table()
    body = [list(row) for row in base.rows[1:]]
    first, second = "Normal ECG with abnormal echo (n = 4)", "Abnormal ECG with abnormal echo (n = 6)"
    rows = [
        ["", *base.rows[0]],
        *([first if i == 0 else second if i == 4 else None, *row] for i, row in enumerate(body)),
    ]
    return dataclasses.replace(
        base,
        rows=rows,
        spans=[Span(1, 0, 4, 1), Span(5, 0, 6, 1)],
        stub_cols=1,
        wrap_widths=[(0, 50.0), (1, 200.0), (2, 95.0), (3, 45.0)],
        align="lllc",
        rule_above={5},
    )


def ruled_findings_table() -> TableSpec:
    """The look-alike: the findings ruled apart, row by row, under two group rows set on lines of their own."""
    base = findings_table()
    body = [list(row) for row in base.rows[1:]]
    rows = [
        base.rows[0],
        ["In vitro application", None, None],
        *body[:4],
        ["In vivo application", None, None],
        *body[4:],
    ]
    return dataclasses.replace(
        base, rows=rows, spans=[Span(1, 0, 1, 3), Span(6, 0, 1, 3)], rule_above=set(range(2, len(rows)))
    )


def render_ruled_groups(path: Path) -> PaperTruth:
    spec = ruled_findings_table()
    part = TableFlowable(spec, FAM, list(range(spec.n_rows)), spec.full_caption, "single")
    return _paper(path, [spec], [part], _around(part))


def render_grouped_centred_rows(path: Path) -> PaperTruth:
    spec = grouped_findings_table()
    part = TableFlowable(spec, FAM, list(range(spec.n_rows)), spec.full_caption, "single")
    return _paper(path, [spec], [part], _around(part))


def render_centred_rows(path: Path) -> PaperTruth:
    spec = findings_table()
    part = TableFlowable(spec, FAM, list(range(spec.n_rows)), spec.full_caption, "single")
    return _paper(path, [spec], [part], _around(part))


def render_centred_rows_sideways(path: Path) -> PaperTruth:
    """The table turned a quarter left on two portrait pages, its second part under 'Table 2: Continued.'."""
    spec = findings_table(continued_after=6)
    split = spec.header_rows + 6
    first = TableFlowable(spec, FAM, list(range(split)), spec.full_caption, "single")
    rest = [0, *range(split, spec.n_rows)]
    second = TableFlowable(spec, FAM, rest, "Table 2: Continued.", "single")
    return _paper(path, [spec], [first, second], [Sideways(first), PageBreak(), Sideways(second)], pages=2)


def render_top_aligned_rows(path: Path) -> PaperTruth:
    spec = findings_table(valign="top")
    part = TableFlowable(spec, FAM, list(range(spec.n_rows)), spec.full_caption, "single")
    return _paper(path, [spec], [part], _around(part))


PATHWAYS = (  # (block of (pathway, identifier) rows, source, share): each source and share centred on its block
    (
        (("Ribosome", "hsa03010"), ("Primary immunodeficiency", "hsa05340"), ("Cell lineage", "hsa05213")),
        "KEGG",
        "26.5",
    ),
    ((("Hemoglobin chaperone", "h_ahsp"), ("Th1/Th2 differentiation", "h_th1th2")), "BIOCARTA", "10.3"),
    (
        (
            ("Influenza infection", "REACT_6167"),
            ("Metabolism of proteins", "REACT_17015"),
            ("Metabolism of porphyrins", "REACT_9431"),
            ("Gene expression", "REACT_71"),
        ),
        "REACTOME",
        "17.6",
    ),
    ((("Heme biosynthesis", "P02976"),), "PANTHER", "14.5"),
)


def pathway_table() -> TableSpec:
    """Pathways, one a row, beside the source that publishes each block of them and the share of genes in it,
    both centred on the block (on its middle line, or between two lines)."""
    rows: list[list[str | None]] = [["Pathway", "Map", "Published by", "Genes (%)"]]
    spans = []
    for block, source, share in PATHWAYS:
        if len(block) > 1:
            spans += [Span(len(rows), 2, len(block), 1), Span(len(rows), 3, len(block), 1)]
        rows.append([*block[0], source, share])
        rows += [[*line, None, None] for line in block[1:]]
    return TableSpec(
        label="Table 4",
        caption="Pathways of the differentially expressed genes.",
        rows=rows,
        spans=spans,
        align="lccc",
    )


def render_rows_beside_centred_source(path: Path) -> PaperTruth:
    spec = pathway_table()
    part = TableFlowable(spec, FAM, list(range(spec.n_rows)), spec.full_caption, "single")
    return _paper(path, [spec], [part], _around(part))


CENTRED_ROW_RENDERERS: dict[str, Callable[[Path], PaperTruth]] = {
    "centred_rows": render_centred_rows,
    "centred_rows_sideways": render_centred_rows_sideways,
    "grouped_centred_rows": render_grouped_centred_rows,
    "rows_beside_centred_source": render_rows_beside_centred_source,
    "top_aligned_rows": render_top_aligned_rows,
    "ruled_groups": render_ruled_groups,
}
