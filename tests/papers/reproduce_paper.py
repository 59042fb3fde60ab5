"""A probe-leaderboard paper for ``litaudit probe reproduce``: the 4-mer reference, the null control and a
model whose weights nobody has, in linear-probe accuracy (%) on GUE, Genomic Benchmarks and a generated
dataset. The values are given by the test (honest ones come from a probe run, planted ones are inflated),
so the typeset PDF prints exactly what the test knows.

The catalogue knows none of these configurations nor the generated dataset, so the paper comes with the
workspace files that name them: a catalogue file, a protocol for the generated data and a model entry.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from pipeline.fixtures.spec import Heading, PaperSpec, Paragraph, TableSpec
from pipeline.probe.synthetic import planted_motif, write_sequences
from pipeline.shipped import SHIPPED_CONFIG

TITLE = "Do DNA Language Models Beat a 4-mer Spectrum? A Linear-Probe Leaderboard"
MODELS = ("4-mer", "Null control", "DNAHuge-7B")
MOTIF = "Planted Motif"  # the generated dataset: a motif planted in the positives (pipeline/probe/synthetic.py)
# Printed row label -> the catalogue dataset the map stage links it to (config/catalogue/genbench.yaml).
REAL_DATASETS = {
    "Human Nontata Promoters": "GenBench Human Nontata Promoters",
    "Mouse Transcription Factor Prediction, dataset 3": "GenBench Mouse Transcription Factor Prediction, dataset 3",
}

CATALOGUE_YAML = """
datasets:
- id: genbench-planted-motif
  name: GenBench Planted Motif
  benchmark: genbench
  protocol: genbench-finetune
  task: Planted Motif
  metrics: [accuracy]
  aliases: [Planted Motif]
configurations:
- {id: genbench-4mer, name: 4-mer (GenBench), model: 4-mer, benchmark: genbench, aliases: [4-mer]}
- {id: genbench-null, name: Null control (GenBench), model: Null control, benchmark: genbench, aliases: [Null control]}
- {id: genbench-dnahuge, name: DNAHuge-7B (GenBench), model: DNAHuge-7B, benchmark: genbench, aliases: [DNAHuge-7B]}
"""

PROTOCOL_YAML = """
name: motif-probe
description: The generated planted-motif dataset, probed like Genomic Benchmarks (small, for tests).
seeds: [7]
probe: {scaler: true, c_grid: [0.1, 1.0, 10.0], cv_folds: 3, max_iter: 500}
metrics: [accuracy, macro_f1]
bootstrap: {resamples: 200, confidence: 0.95}
variants:
  default: {train_size: 120}
datasets:
  motif: {path: motif/planted_motif.csv.gz, min_length: 80, max_length: 80, labels: [0, 1]}
catalogue:
  "GenBench Planted Motif": [motif]
"""

MODEL_ENTRY_YAML = """
- configuration: DNAHuge-7B
  embedder: hf:models/dnahuge-7b
  revision: v1.0 (never downloaded here)
  notes: A model whose weights this workspace does not have.
"""


def reproduce_paper(values: Mapping[str, Sequence[str]]) -> PaperSpec:
    """The paper printing ``values``: per dataset row label, the three models' accuracies as printed."""
    rows = [["Dataset", *MODELS], *([label, *printed] for label, printed in values.items())]
    table = TableSpec(
        label="Table 1",
        caption="Linear-probe accuracy (%) on GenBench datasets of frozen embeddings: the 4-mer spectrum, a "
        "null control of random features, and DNAHuge-7B.",
        rows=rows,
        separator=".",
        align="l" + "r" * len(MODELS),
    )
    text = (
        "Each model's last-layer embeddings, averaged over tokens, feed a logistic-regression probe fitted on "
        "500 training sequences; Table 1 reports test accuracy in percent. The null control must sit at chance."
    )
    return PaperSpec(
        title=TITLE,
        authors="A. Prober and B. Baseline",
        abstract="We compare a DNA language model with a 4-mer spectrum and a null control under one probe.",
        blocks=(Heading("1 Results"), Paragraph(text), table),
    )


def write_board_workspace(config_dir: Path, data_file: Path) -> None:
    """The generated dataset at ``data_file`` and the workspace config the paper needs: the shipped catalogue and
    protocols plus this paper's catalogue file and motif protocol, the shipped model registry plus DNAHuge-7B."""
    sequences, labels = planted_motif(400, length=80, seed=5)
    write_sequences(data_file, sequences, labels, ["train" if i < 250 else "test" for i in range(400)])
    for folder in ("catalogue", "protocols"):
        (config_dir / folder).mkdir(parents=True, exist_ok=True)
        for path in (SHIPPED_CONFIG / folder).glob("*.yaml"):
            (config_dir / folder / path.name).write_text(path.read_text())
    (config_dir / "catalogue" / "reproduce_paper.yaml").write_text(CATALOGUE_YAML)
    protocol = PROTOCOL_YAML.replace("motif/planted_motif.csv.gz", str(data_file.resolve()))
    (config_dir / "protocols" / "motif-probe.yaml").write_text(protocol)
    (config_dir / "models.yaml").write_text((SHIPPED_CONFIG / "models.yaml").read_text() + MODEL_ENTRY_YAML)
