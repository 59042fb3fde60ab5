"""A kinetics-and-structure paper whose text and tables disagree in ways a careful reader catches: a shell range
sticking out of its overall range, a rate quoted without its header's power of ten, a comparison whose two
values are swapped, an accession that lost its last digit. Beside each slip, the legitimate look-alikes: a
shell that nests, an interquartile range beside its full range, a rate quoted with its scale or converted,
comparisons in the right direction, a negated one, a figure legend's sentence, an accession that is a prefix
of another data set's.

    from papers.relations_paper import relations_paper
    spec = relations_paper()   # spec.planted: (check, table, row of the first cell)
"""

from __future__ import annotations

from papers.prose import paragraphs
from pipeline.fixtures.spec import Heading, PaperSpec, Paragraph, Planted, TableSpec

AUTHORS = "Mina Okafor, Lars Brandt and Yuki Tanaka"


def relations_paper() -> PaperSpec:
    kinetics = TableSpec(
        label="Table 1",
        caption="Kinetic parameters of nucleotide incorporation by the polymerase.",
        rows=[
            ["Template:dNTP", "Km (μM)", "kcat (10-3 s-1)", "kcat/Km"],
            ["dA:dTTP", "6.5 ± 0.4", "89.2 ± 2.9", "13.6"],
            ["dA:FdUTP", "8.3 ± 0.6", "84.7 ± 4.2", "10.3"],
            ["dG:FdUTP", "105.9 ± 13.4", "26.7 ± 1.4", "0.25"],
            ["HX:FdUTP", "69.9 ± 4.6", "25.9 ± 0.4", "0.37"],
        ],
    )
    crystal = TableSpec(  # the data-collection shell (1.95-1.88) sticks out of 48.20-1.90; the refinement one nests
        label="Table 2",
        caption="Data collection and refinement statistics.",
        rows=[
            ["Statistic", "Value"],
            ["Resolution range (Å)", "48.20–1.90 (1.95–1.88)"],
            ["Completeness (%)", "99.1 (97.4)"],
            ["Multiplicity", "6.8 (6.1)"],
            ["Refinement resolution (Å)", "48.20–1.90 (1.95–1.90)"],
            ["Rwork (%)", "18.2 (25.1)"],
        ],
        note="Statistics for the highest resolution shell are shown in parentheses.",
    )
    cohort = TableSpec(  # an interquartile range beside the full range: the full range holds it, no slip; the "All"
        # row's interquartile range leaves the groups' full ranges out, as it may
        label="Table 3",
        caption="Donors of the primary cells: median age with its interquartile range and, in parentheses, the "
        "full range.",
        rows=[
            ["Group", "Donors", "Age (years)"],
            ["Controls", "12", "41–58 (23–71)"],
            ["Patients", "15", "47–63 (29–80)"],
            ["All", "27", "44–61"],
        ],
    )
    donors = TableSpec(  # the "All" range 5–24 omits donor C6's 3 h; the IQR row of Table 3 promises nothing
        label="Table 5",
        caption="Post-mortem interval (PMI, hours) of the donors; the last row gives the mean and range.",
        rows=[
            ["Donor", "Age", "PMI (h)"],
            ["C1", "54", "12"],
            ["C2", "61", "5"],
            ["C6", "47", "3"],
            ["P1", "66", "24"],
            ["P2", "58", "14"],
            ["All", "57.2 (47–66)", "11.6 (5–24)"],
        ],
    )
    resources = TableSpec(  # GSE7424 lost a digit (the methods give GSE74246); GSE5678 and GSE56789 are two sets
        label="Table 4",
        caption="Data sets used in this study.",
        rows=[
            ["Data set", "Source", "Identifier"],
            ["ATAC-seq of GMPs", "Corces et al.", "GEO: GSE74912"],
            ["RNA-seq of GMPs", "Corces et al.", "GEO: GSE7424"],
            ["ChIP-seq of HX cells", "This study", "GEO: GSE5678"],
            ["RNA-seq of HX cells", "This study", "GEO: GSE56789"],
        ],
    )
    text = [
        Paragraph(
            "We determined the kinetic parameters of incorporation opposite each template (Table 1). "
            + paragraphs(1, start=7, length=1)[0]
        ),
        Paragraph(
            "The turnover numbers (kcat) for dA:dTTP and dA:FdUTP were similar (89.2 s-1 versus 84.7 s-1), but "
            "the Km value was slightly higher in dA:FdUTP (6.5 μM versus 8.3 μM). "
            "The kcat of HX:FdUTP, 25.9 × 10-3 s-1, matched that of dG:FdUTP, or 0.0267 s-1. "
            "The Km value for HX:FdUTP was lower than that of dG:FdUTP (69.9 μM versus 105.9 μM). "
            "Incorporation across dG was about 40-fold less efficient than across dA (0.25 versus 10.3). "
            "The efficiency was not higher for dG:FdUTP (0.25 versus 0.37)."
        ),
        Paragraph(
            "Error bars represent the standard deviation of three replicates, and the rates are higher at 37 °C "
            "(89.2 versus 84.7). " + paragraphs(1, start=3, length=2)[0]
        ),
        crystal,
        Paragraph("The structure was solved by molecular replacement and refined to 1.90 Å (Table 2)."),
        cohort,
        Paragraph("Donors were matched for age and sex (Table 3). " + paragraphs(1, start=5, length=2)[0]),
        donors,
        Paragraph("Post-mortem intervals are listed in Table 5."),
        resources,
        Paragraph(
            "ATAC-seq data were obtained from GSE74912 and RNA-seq data from GSE74246. Our own profiles are "
            "deposited under GSE5678 and GSE56789."
        ),
    ]
    planted = (
        Planted("text-unit-scale", "Table 1", 1, 2, "89.2 s-1 and 84.7 s-1 quote cells in 10-3 s-1."),
        Planted("text-comparison-swapped", "Table 1", 1, 1, "Km higher in dA:FdUTP, yet 6.5 versus 8.3."),
        Planted("range-nesting", "Table 2", 1, 1, "The shell 1.95-1.88 sticks out of 48.20-1.90."),
        Planted("identifier-truncated", "Table 4", 2, 2, "GSE7424 is GSE74246 less its last digit."),
        Planted("range-nesting", "Table 5", 6, 2, "The overall range 5-24 omits C6's 3."),
    )
    return PaperSpec(
        title="Incorporation of a Fluorinated Nucleotide by a Translesion Polymerase",
        authors=AUTHORS,
        abstract=" ".join(paragraphs(1, start=0, length=3)),
        blocks=(
            Heading("1 Introduction"),
            Paragraph(paragraphs(1, start=3)[0]),
            Heading("2 Results"),
            kinetics,
            *text,
        ),
        running_head="Polymerase kinetics",
        planted=planted,
        clean_tables=("Table 3",),
    )
