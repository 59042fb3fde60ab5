"""A life-science journal paper for the audit: the look-alikes that journal papers print (issue #20) next to
the same kinds of table with a real slip.

    from papers.journal_audit_paper import journal_audit_paper
    spec = journal_audit_paper()   # spec.planted: (check, table, row); spec.clean_tables: the look-alikes

Look-alikes, on which no error or warning may land: a Total row over RMSE, a correlation and a median age (an
overall statistic, not a sum; the N column does add up); genes that spell like metrics (TOP2A, TOP1, MCC)
among "the top 20 features"; a predictor averaging "five models trained with different seeds" beside three
model rows; bold that a table note says marks P < 0.05, not the best; 95% intervals a table evaluates
(coverage, width). Planted: a Total of counts that does not add up, a model said to stay "below 0.1 on every
dataset" that does not on one, and a "3-4 point gain on every dataset" that is 5.6 points on one (a 4.4-point
gain is within the rounding of "3-4").
"""

from __future__ import annotations

from papers.prose import paragraphs
from pipeline.fixtures.spec import Heading, PaperSpec, Paragraph, Planted, TableSpec

TOTAL_OF_SCORES = TableSpec(  # clean: Total is the pooled statistic over RMSE, r and median age; N adds up
    label="Table 1",
    caption="Expression prediction per cohort: number of samples, RMSE, Pearson r and median age.",
    rows=[
        ["Cohort", "N", "RMSE", "Pearson r", "Median age"],
        ["Discovery", "412", "1.20", "0.61", "54"],
        ["Replication", "238", "1.40", "0.72", "61"],
        ["External", "150", "1.10", "0.55", "58"],
        ["Total", "800", "1.25", "0.81", "57"],
    ],
)

TOTAL_OF_COUNTS = TableSpec(  # aggregate-row: Total cases 372 printed; 214 + 96 + 71 = 381
    label="Table 2",
    caption="Cases and controls recruited at each site.",
    rows=[
        ["Site", "Cases", "Controls"],
        ["Leeds", "214", "198"],
        ["Lyon", "96", "120"],
        ["Porto", "71", "88"],
        ["Total", "372", "406"],
    ],
)

GENES = TableSpec(  # clean: TOP2A, TOP1 and MCC are genes, not a Top-k or the Matthews correlation
    label="Table 3",
    caption="Genes with the largest fold change among the top 20 features selected by LASSO.",
    rows=[
        ["Gene", "Fold change", "P value"],
        ["TOP2A", "2.31", "0.001"],
        ["TOP1", "1.92", "0.004"],
        ["MCC", "1.64", "0.012"],
        ["MKI67", "1.48", "0.030"],
    ],
)

ENSEMBLE = TableSpec(  # clean: five models are the members behind one row, the table has three model rows
    label="Table 4",
    caption="AUC of the promoter classifiers. PromoNet averages five models trained with different seeds.",
    rows=[
        ["Classifier", "Human", "Mouse"],
        ["Logistic regression", "0.781", "0.762"],
        ["Random forest", "0.803", "0.790"],
        ["PromoNet", "0.846", "0.828"],
    ],
)

BOLD_SIGNIFICANT = TableSpec(  # clean: bold marks P < 0.05 against the baseline (the table note says so)
    label="Table 5",
    caption="AUC of three risk scores against the clinical baseline in three cohorts.",
    rows=[
        ["Score", "Cohort A", "Cohort B", "Cohort C"],
        ["Clinical baseline", "0.702", "0.688", "0.731"],
        ["Score A", "0.741", "0.739", "0.785"],
        ["Score B", "0.833", "0.721", "0.752"],
        ["Score C", "0.846", "0.754", "0.760"],
    ],
    bold={(3, 1), (4, 2), (2, 3)},
    note="Bold signifies P < 0.05 against the clinical baseline (DeLong test).",
)

INTERVALS = TableSpec(  # clean: the table evaluates the 95% intervals the methods output
    label="Table 6",
    caption="Empirical coverage and mean width of the 95% intervals of each method on held-out genes.",
    rows=[
        ["Method", "Coverage", "Mean width"],
        ["Quantile regression", "0.921", "1.84"],
        ["Conformal", "0.953", "2.07"],
        ["Gaussian process", "0.887", "1.52"],
    ],
)

BELOW_EVERYWHERE = TableSpec(  # text-claim-mismatch: "below 0.1 on every dataset", but 0.14 on Liver
    label="Table 7",
    caption="RMSE of the imputation methods on four tissues.",
    rows=[
        ["Method", "Blood", "Brain", "Liver", "Lung"],
        ["KNNImpute", "0.21", "0.30", "0.25", "0.27"],
        ["MICE", "0.12", "0.18", "0.16", "0.15"],
        ["DeepImpute", "0.05", "0.08", "0.14", "0.10"],
    ],
)

GAIN_EVERYWHERE = TableSpec(  # text-claim-mismatch: "a 3-4 point gain" is 5.6 points on Set 3 (4.4 on Set 2 rounds)
    label="Table 8",
    caption="Accuracy (%) of the variant classifiers on three test sets.",
    rows=[
        ["Classifier", "Set 1", "Set 2", "Set 3"],
        ["CADD", "82.0", "81.1", "80.2"],
        ["VarNet", "85.2", "85.5", "85.8"],
    ],
)

_TEXT = {
    "t1": "Table 1 summarises the cohorts and the prediction error of the expression model in each of them.",
    "t2": "Table 2 gives the number of cases and controls recruited at each site.",
    "t3": "We kept the top 20 features selected by LASSO and the top 3 motifs per promoter. Table 3 lists the "
    "genes among them with the largest fold change.",
    "t4": "Table 4 compares PromoNet with two classical classifiers on human and mouse promoters.",
    "t5": "Table 5 compares three risk scores with the clinical baseline.",
    "t6": "For each held-out gene, the methods provide 95% confidence intervals around the predicted expression, "
    "and Table 6 reports how often they cover the measured value and how wide they are.",
    "t7": "As Table 7 shows, DeepImpute keeps its RMSE below 0.1 on every tissue, and KNNImpute stays under "
    "0.35 on all of them.",
    "t8": "VarNet gives a 3–4 point gain over CADD on every test set (Table 8).",
}


def journal_audit_paper() -> PaperSpec:
    t = _TEXT
    intro = paragraphs(2, start=0, length=3)
    blocks: list[Heading | Paragraph | TableSpec] = [
        Heading("Background"),
        Paragraph(intro[0]),
        Heading("Results"),
        Paragraph(intro[1]),
    ]
    tables = (TOTAL_OF_SCORES, TOTAL_OF_COUNTS, GENES, ENSEMBLE, BOLD_SIGNIFICANT, INTERVALS)
    tables += (BELOW_EVERYWHERE, GAIN_EVERYWHERE)
    for key, table in zip(("t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8"), tables, strict=True):
        blocks += [Paragraph(t[key]), table]
    return PaperSpec(
        title="Expression, Risk Scores and Variant Effects in Three Cohorts",
        authors="Amara Okafor, Lena Fischer and Tomás Ribeiro",
        abstract=" ".join(paragraphs(1, start=4, length=2)),
        blocks=tuple(blocks),
        running_head="Journal look-alikes for the audit",
        planted=(
            Planted("aggregate-row", "Table 2", 4, 1, "Total cases 372; the three sites add up to 381."),
            Planted("text-claim-mismatch", "Table 7", 3, 3, "DeepImpute's RMSE on Liver is 0.14, not below 0.1."),
            Planted("text-claim-mismatch", "Table 8", 2, 3, "VarNet gains 5.6 points over CADD on Set 3, not 3-4."),
        ),
        clean_tables=tuple(t.label for t in (TOTAL_OF_SCORES, GENES, ENSEMBLE, BOLD_SIGNIFICANT, INTERVALS)),
    )
