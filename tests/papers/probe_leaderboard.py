"""A Markdown probe leaderboard of GUE human transcription factor 0 in MCC, as a README prints one: rows named
as the model registry's aliases ("4-mer spectrum", "null embedding") and a model nobody has weights for."""

from __future__ import annotations

from collections.abc import Mapping

DATASET = "GUE Transcription Factor Prediction (Human), dataset 0"
PROTOCOL_DATASET = "leannmlindsey_GUE_human_tf_0"
ABSENT_MODEL = "Caduceus-PH-1k"
ABSENT_ENTRY = f"- configuration: {ABSENT_MODEL}\n  embedder: hf:models/caduceus-ph-1k\n"


def leaderboard(rows: Mapping[str, str]) -> str:
    lines = [
        "# A linear-probe leaderboard",
        "MCC on GUE human tf 0 (full-shot linear probe on frozen embeddings).",
        "| Model | human tf 0 |",
        "|---|---|",
        *[f"| {model} | {value} |" for model, value in rows.items()],
    ]
    return "\n".join(lines) + "\n"
