"""A leaderboard README in the shapes GENEB's publishes (models and numbers invented): no blank lines between
blocks, a key-numbers fact sheet under an empty header, a ranked top-six table with parameter counts and
Macro / Micro means, the same six models over six categories with task counts in the headers and bold for the
best of the six as the text says, key findings quoting cells in parentheses, and a table of every model.

``readme(planted=True)`` plants three problems: a bold value that is not the best of the six in its column,
a finding quoting 0.625 where the table prints 0.652, and "All 12 evaluated models" above an 11-row table."""

from __future__ import annotations

MODELS = ["Alpha-3b", "Beta-default-step9M", "Alpha-1.2b", "Gamma-4B", "Dorado-2.5B-MS", "Epsilon-1B"]
PARAMS = ["3B", "2B", "1.2B", "4B", "2.5B", "1B"]
MACRO_MICRO = [(0.605, 0.598), (0.589, 0.579), (0.581, 0.581), (0.573, 0.563), (0.573, 0.561), (0.568, 0.560)]
CATEGORIES = [
    "Histone mod. (30)",
    "Promoters (22)",
    "Enhancers (8)",
    "DNA methyl. (8)",
    "Splice sites (7)",
    "lncRNA (6)",
]
SCORES = [
    [0.537, 0.774, 0.488, 0.440, 0.648, 0.453],
    [0.533, 0.746, 0.479, 0.323, 0.636, 0.508],
    [0.521, 0.768, 0.485, 0.397, 0.629, 0.438],
    [0.545, 0.739, 0.488, 0.231, 0.580, 0.396],
    [0.498, 0.739, 0.487, 0.356, 0.652, 0.372],
    [0.505, 0.759, 0.474, 0.290, 0.604, 0.323],
]
OTHERS = ["Zeta-7B", "Eta-500M", "Theta-336M", "Iota-100M", "Kappa-55M", "Lambda-2M"]
VALUES = len(MODELS) * 2 + len(MODELS) * len(CATEGORIES)  # 48 printed scores
PLANTED_BOLD = (0, 0)  # (model, category): bold on 0.537 where 0.545 is the best of the six
PLANTED_QUOTE = "0.625"  # the table prints 0.652 (Dorado-2.5B-MS, splice sites)


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _category_rows(planted: bool) -> list[str]:
    rows = []
    for m, model in enumerate(MODELS):
        cells = []
        for c, score in enumerate(SCORES[m]):
            best = score == max(row[c] for row in SCORES)
            if planted and c == PLANTED_BOLD[1]:
                best = m == PLANTED_BOLD[0]
            cells.append(f"**{score:.3f}**" if best else f"{score:.3f}")
        rows.append(_row([model, *cells]))
    return rows


def readme(planted: bool = False) -> str:
    everyone = MODELS + OTHERS
    listed = everyone[:-1] if planted else everyone
    quote = PLANTED_QUOTE if planted else "0.652"
    lines = [
        "# BENCH: choosing genomic foundation models",
        f"BENCH covers **{len(everyone)} models**, **100 DNA classification tasks** and **13 categories**, in "
        "full-data, 10-shot and 1-shot settings.",
        "---",
        "## Benchmark",
        "| | |",
        "|---|---|",
        f"| Genomic foundation models | {len(everyone)} |",
        "| DNA classification tasks | 100 |",
        "| Functional categories | 13 |",
        "| Data regimes | full, 10-shot, 1-shot |",
        "| Primary metric | Matthews correlation coefficient (MCC) |",
        "| Repetitions | 5 random seeds |",
        "Use the category-level tables to choose a model for a task.",
        "## Key findings",
        "**1. Rankings are unstable.** Within the top 6 by macro MCC, Gamma-4B ranks 4th overall yet is the "
        f"strongest of that group on histone modification (0.545), and Dorado-2.5B-MS ranks 5th yet is the "
        f"strongest on splice sites ({quote}).",
        "**2. Scale helps little.** The largest model of the top 6, Gamma-4B, macro 0.573, scores below both "
        "Alpha models (0.605 / 0.581).",
        "---",
        f"## Leaderboard — top 6 of {len(everyone)}",
        "Full-shot, MCC. **Macro** = mean of the 13 category scores; **Micro** = mean over all 100 tasks.",
        "| # | Model | Params | Macro | Micro |",
        "|---|-------|--------|-------|-------|",
        *[
            _row([str(k + 1), model, PARAMS[k], f"**{a:.3f}**" if k == 0 else f"{a:.3f}", f"{b:.3f}"])
            for k, (model, (a, b)) in enumerate(zip(MODELS, MACRO_MICRO, strict=True))
        ],
        "The same six models across 6 of the 13 categories. Numbers in headers are task counts; **bold** marks "
        f"the best of these six models in a column, not the best of all {len(everyone)}.",
        _row(["Model", *CATEGORIES]),
        "|" + "------|" * (len(CATEGORIES) + 1),
        *_category_rows(planted),
        "---",
        "## Models covered",
        f"All {len(everyone)} evaluated models (architecture · params)",
        "| Model | Architecture | Params |",
        "|-------|--------------|--------|",
        *[_row([model, "T-dec", "1B"]) for model in listed],
        "---",
        "## Evaluate your model",
        "```bash",
        "python3 run.py --model my-model | tee log.txt",
        "```",
    ]
    return "\n".join(lines) + "\n"
