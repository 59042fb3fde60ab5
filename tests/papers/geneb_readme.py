"""A GENEB-like README: a leaderboard, a category table where bold marks the best of six models, and key
findings quoting table numbers in prose. Three problems are planted: a bold value that is not the best of its
row, a finding that quotes a number no cell gives, and a count of models no table shows."""

from __future__ import annotations

MODELS = ["NT", "DNABERT2", "HyenaDNA", "GENA-LM", "Caduceus", "GROVER"]

# (row, bolded model) of the planted problem: Enhancers' best is Caduceus (0.812) but GENA-LM is bold
PLANTED_BOLD = ("Enhancers", "GENA-LM")
PLANTED_CLAIM = "0.915"  # the prose says NT averages 0.915 on Promoters; the table prints 0.881
PLANTED_COUNT = 7  # "covers 7 models": the tables show 6 (leaderboard 3)

CATEGORIES = {
    "Promoters": [0.881, 0.874, 0.842, 0.861, 0.869, 0.852],
    "Enhancers": [0.795, 0.803, 0.781, 0.799, 0.812, 0.774],
    "Histone Mod.": [0.912, 0.934, 0.887, 0.921, 0.905, 0.898],
}


def _category_row(name: str, scores: list[float]) -> str:
    best = max(range(len(scores)), key=lambda k: scores[k])
    if name == PLANTED_BOLD[0]:
        best = MODELS.index(PLANTED_BOLD[1])
    cells = [f"**{s:.3f}**" if k == best else f"{s:.3f}" for k, s in enumerate(scores)]
    return f"| {name} | " + " | ".join(cells) + " |"


def readme(models_said: int = PLANTED_COUNT) -> str:
    leaderboard = [
        ("Caduceus", 0.862, 1),
        ("DNABERT2", 0.870, 2),
        ("NT", 0.863, 3),
    ]
    lines = [
        "# GENEB: a benchmark of genomic foundation models",
        "",
        f"GENEB covers {models_said} models on 3 task categories.",
        "",
        "## Leaderboard",
        "",
        "GENEB mean accuracy over all tasks (higher is better).",
        "",
        "| Model | Mean accuracy | Rank |",
        "|:--|--:|--:|",
        *[f"| {m} | {v:.3f} | {r} |" for m, v, r in leaderboard],
        "",
        "## Results by category",
        "",
        "GENEB accuracy per task category; the best model of each category is in **bold**.",
        "",
        "| Category | " + " | ".join(MODELS) + " |",
        "|---|" + "---:|" * len(MODELS),
        *[_category_row(name, scores) for name, scores in CATEGORIES.items()],
        "",
        "## Key findings",
        "",
        f"- NT reaches {PLANTED_CLAIM} accuracy on Promoters, the best of all models.",
        "- DNABERT2 reaches 0.934 accuracy on Histone Mod.",
        "",
    ]
    return "\n".join(lines)


def configurations_yaml() -> str:
    """The six models as GENEB configurations (the shipped catalogue lists GENEB's categories, not its models)."""
    entries = [
        f"- id: geneb-readme-{m.lower()}\n  name: {m} (GENEB)\n  model: {m}\n  benchmark: geneb\n  aliases: [{m}]\n"
        for m in MODELS
    ]
    return "configurations:\n" + "".join(entries)
