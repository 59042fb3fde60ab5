"""One small paper per kind of count relation: planted slips beside the legitimate look-alikes a careless rule
would flag (a caption that counts something else, shares over their own denominators, a mean (SD) row that
prints like a count, a Total of rounded measures, a row of detection rates under a +/- grid).

    from papers.counts_paper import COUNTS_PAPERS, counts_paper
    spec = counts_paper("shares")   # spec.planted: (check, table, row); spec.clean_tables: the look-alikes

The planted rows are grid rows of the table the finding is reported on.
"""

from __future__ import annotations

from collections.abc import Callable

from papers.prose import paragraphs
from pipeline.fixtures.spec import Heading, PaperSpec, Paragraph, Planted, TableSpec, paper_named

AUTHORS = "Amara Okafor, Lukas Brandt and Mei Tanaka"


def _paper(kind: str, tables: list[TableSpec], planted: tuple[Planted, ...], clean: tuple[str, ...],
           abstract: str = "") -> PaperSpec:  # fmt: skip
    body: list[Heading | Paragraph | TableSpec] = []
    for table in tables:
        body += [Paragraph(f"{table.label} lists the counts. " + paragraphs(1, start=7, length=2)[0]), table]
    return PaperSpec(
        title=f"Counts and Their Totals: {kind.title()}",
        authors=AUTHORS,
        abstract=(abstract + " " if abstract else "") + " ".join(paragraphs(1, start=0, length=2)),
        blocks=(Heading("1 Introduction"), Paragraph(paragraphs(1, start=3)[0]), Heading("2 Results"), *body),
        running_head=f"Counts: {kind}",
        planted=planted,
        clean_tables=clean,
    )


def shares_paper() -> PaperSpec:
    indications = TableSpec(  # no N printed: 11 of 12 rows fit n / 33, ALL's 15 (36) does not (15/33 = 45.5%);
        # the neoplasm shares add up to 60 while their counts add up to the total's 23 (70)
        label="Table 1",
        caption="Indications for transplantation in the pre-treatment group.",
        rows=[
            ["Condition", "n (%)"],
            ["Acute lymphoblastic leukemia (ALL)", "15 (36)"],
            ["Acute myeloblastic leukemia (AML)", "5 (15)"],
            ["Acute bilineage leukemia", "1 (3)"],
            ["Juvenile myelomonocytic leukemia", "1 (3)"],
            ["Myelodysplastic syndrome", "1 (3)"],
            ["Neoplasms (total)", "23 (70)"],
            ["Severe aplastic anemia", "4 (12)"],
            ["Chronic granulomatous disease", "3 (9)"],
            ["Autoimmune lymphoproliferative syndrome", "1 (3)"],
            ["Hyper-IgM syndrome", "1 (3)"],
            ["Inherited neutropenia", "1 (3)"],
            ["Nonneoplastic conditions (total)", "10 (30)"],
        ],
    )
    groups = TableSpec(  # N rows govern the rows below them: 23 (71%) under N = 33 (69.7%); 14 + 7 under N = 20;
        # the mean (SD) row and the dose cell print like counts and are none
        label="Table 2",
        caption="Characteristics of the two groups studied.",
        rows=[
            ["Characteristic", "Value"],
            ["Pre-treatment group, N", "33"],
            ["Sex", "Boys 25, girls 8"],
            ["Age, mean (SD)", "10 (4)"],
            ["Chemotherapy before transplant (%)", "23 (71%)"],
            ["Local radiotherapy (%)", "7 (21%)"],
            ["Cranial dose", "5 (12 Gy-4, 18 Gy-1)"],
            ["Post-treatment group, N", "20"],
            ["Sex", "Boys 14, girls 7"],
            ["Conditioning with busulfan (n)", "9 (45%)"],
            ["Total body irradiation (n)", "6 (30%)"],
            ["Graft-versus-host disease (n)", "14 (70%)"],
            ["Systemic glucocorticoids (n)", "16 (80%)"],
        ],
    )
    followup = TableSpec(  # the caption's n = 40 (not the 53 of the cohort) is the denominator every row fits; one
        # share, 2 (45%), is the share of no whole number of cases at all (2/4 = 50%, 2/5 = 40%)
        label="Table 3",
        caption="Complications among the children with follow-up (n = 40).",
        rows=[
            ["Complication", "Children, n (%)"],
            ["Infection", "18 (45.0)"],
            ["Mucositis", "12 (30.0)"],
            ["Hepatic veno-occlusive disease", "2 (45)"],
            ["Renal impairment", "6 (15.0)"],
            ["Hypertension", "9 (22.5)"],
            ["All children", "40 (100)"],
        ],
    )
    own = TableSpec(  # each row's share over its own non-missing cases: most rows fit no one N, so none is flagged
        label="Table 4",
        caption="Laboratory results available per participant, n (%) of those measured.",
        rows=[
            ["Measurement", "Participants, n (%)"],
            ["Ferritin above 1000", "88 (80.0)"],
            ["HbA1c above 6.5%", "21 (25.0)"],
            ["eGFR below 60", "14 (17.5)"],
            ["BMI above 30", "40 (36.4)"],
            ["LDL above 160", "19 (21.6)"],
        ],
    )
    planted = (
        Planted("derived-shares", "Table 1", 1, 1, "15 of 33 is 45.5%, printed 36."),
        Planted("derived-shares", "Table 1", 6, 1, "the neoplasm shares add to 60, the total prints 70."),
        Planted("derived-shares", "Table 2", 4, 1, "23 of 33 is 69.7%, printed 71%."),
        Planted("derived-sum", "Table 2", 8, 1, "14 + 7 = 21 under N = 20."),
        Planted("derived-shares", "Table 3", 3, 1, "no whole N gives 2 (45%); 2 of 40 is 5%."),
    )
    return _paper("counts and shares", [indications, groups, followup, own], planted, ("Table 4",))


def sizes_paper() -> PaperSpec:
    panel = TableSpec(  # the column adds up to 227; the caption and the abstract say 228 plants from 12 populations
        label="Table 1",
        caption="Panel of 228 plants and the sites of the populations studied.",
        rows=[
            ["Population", "Region", "Population size", "Elevation (m)"],
            ["Abh-01", "Zanjan", "28", "1543"],
            ["Qzv-01", "Qazvin", "14", "1315"],
            ["Qzv-02", "Qazvin", "22", "1315"],
            ["Sam-01", "Hamadan", "17", "1858"],
            ["Sam-02", "Hamadan", "13", "1858"],
            ["Dez-01", "Khuzestan", "24", "144"],
            ["Zah-01", "Sistan", "13", "1352"],
            ["Mal-01", "Hamadan", "16", "1729"],
            ["Sqz-01", "Kurdistan", "27", "1480"],
            ["San-02", "Kurdistan", "16", "1464"],
            ["Sir-01", "Kerman", "20", "1754"],
            ["Nhv-01", "Hamadan", "17", "1666"],
        ],
    )
    lines = TableSpec(  # adds up to the caption's 96 lines exactly
        label="Table 2",
        caption="Collection of 96 lines by breeding program.",
        rows=[
            ["Program", "No. of lines", "Release year"],
            ["North", "21", "1998"],
            ["South", "18", "2003"],
            ["East", "25", "2007"],
            ["West", "17", "2011"],
            ["Central", "15", "2015"],
        ],
    )
    planned = TableSpec(  # the caption's 30 samples is a plan per site, not the column's size: far from its sum
        label="Table 3",
        caption="Sampling sites; 30 samples per site were planned, fewer were collected where access was limited.",
        rows=[
            ["Site", "No. of samples", "Depth (m)"],
            ["Bay A", "28", "12"],
            ["Bay B", "30", "8"],
            ["Reef C", "21", "15"],
            ["Reef D", "30", "22"],
            ["Shelf E", "26", "40"],
            ["Shelf F", "30", "55"],
        ],
    )
    planted = (Planted("derived-sum", "Table 1", 1, 2, "the sizes add up to 227; caption and abstract say 228."),)
    abstract = "We genotyped 228 plants from 12 populations across the country."
    return _paper("stated sizes", [panel, lines, planned], planted, ("Table 2", "Table 3"), abstract)


def marks_paper() -> PaperSpec:
    incidence = TableSpec(  # each total counts the plants of the rows marked "+" (weighted by n); VirC prints 13
        # where its rows add up to 12
        label="Table 1",
        caption="Virus combinations found in the surveyed fields. + present, - absent.",
        rows=[
            ["Combination", "VirA", "VirB", "VirC", "VirD", "VirE", "Plants, n (%)"],
            ["None", "-", "-", "-", "-", "-", "4 (10.0)"],
            ["A", "+", "-", "-", "-", "-", "6 (15.0)"],
            ["B", "-", "+", "-", "-", "-", "5 (12.5)"],
            ["A+C", "+", "-", "+", "-", "-", "7 (17.5)"],
            ["B+D", "-", "+", "-", "+", "-", "3 (7.5)"],
            ["A+B+C", "+", "+", "+", "-", "-", "4 (10.0)"],
            ["C+D+E", "-", "-", "+", "+", "+", "1 (2.5)"],
            ["A+B+D+E", "+", "+", "-", "+", "+", "10 (25.0)"],
            ["Plants infected", "27", "22", "13", "14", "11", ""],
        ],
    )
    rates = TableSpec(  # a row of detection rates under the marks is no count of them
        label="Table 2",
        caption="Assays that detect each virus (+) and their detection rate.",
        rows=[
            ["Assay", "VirA", "VirB", "VirC", "VirD"],
            ["ELISA", "+", "+", "-", "+"],
            ["RT-PCR", "+", "+", "+", "+"],
            ["LAMP", "-", "+", "+", "-"],
            ["Microarray", "+", "-", "+", "+"],
            ["Detection rate (%)", "91.2", "88.4", "79.5", "93.0"],
        ],
    )
    planted = (Planted("derived-sum", "Table 1", 9, 3, "VirC: 7 + 4 + 1 = 12 plants, printed 13."),)
    return _paper("incidence grids", [incidence, rates], planted, ("Table 2",))


def exact_paper() -> PaperSpec:
    sources = TableSpec(  # counts add exactly: 1,280 + 4 + 1 + 1 + 1 + 1 + 1 = 1289, not 1,285
        label="Table 1",
        caption="Number of sequences and genomes per source database.",
        rows=[
            ["Source", "Sequences", "Genomes"],
            ["RefSeq", "1,280", "12"],
            ["GenBank", "4", "3"],
            ["ENA", "1", "3"],
            ["DDBJ", "1", "1"],
            ["PDB", "1", "1"],
            ["UniProt", "1", "1"],
            ["Other", "1", "1"],
            ["Total", "1,285", "22"],
        ],
    )
    times = TableSpec(  # run times printed to the second: their total is within rounding of the parts, not exact
        label="Table 2",
        caption="Wall-clock time of each stage on one node.",
        rows=[
            ["Stage", "CPU time (s)", "GPU time (s)"],
            ["Download", "1,280", "0"],
            ["Index", "4", "12"],
            ["Align", "1", "31"],
            ["Call", "1", "17"],
            ["Filter", "1", "5"],
            ["Annotate", "1", "2"],
            ["Report", "1", "1"],
            ["Total", "1,291", "68"],
        ],
    )
    planted = (Planted("aggregate-row", "Table 1", 8, 1, "1,280 + 4 + 1 + 1 + 1 + 1 + 1 = 1289, printed 1,285."),)
    return _paper("exact counts", [sources, times], planted, ("Table 2",))


COUNTS_PAPERS: dict[str, Callable[[], PaperSpec]] = {
    "shares": shares_paper,
    "sizes": sizes_paper,
    "marks": marks_paper,
    "exact": exact_paper,
}


def counts_paper(kind: str) -> PaperSpec:
    """The spec of one count relation's paper (KeyError names the kinds there are)."""
    return paper_named(COUNTS_PAPERS, kind, "counts paper")
