"""Generated labelled sequences with a known answer: a motif planted in the positives only.

A probe that works must find the motif; the null control must not: a check of the probe that needs no
downloaded data (the tests use it; the benchmark runs on real data).
"""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np

from pipeline.store import atomic_writer


def planted_motif(
    n: int, length: int = 100, motif: str = "TATAAAAGGC", copies: int = 2, seed: int = 0
) -> tuple[list[str], list[int]]:
    """``n`` random ACGT sequences, half of them (label 1) carrying ``copies`` of ``motif`` at random places."""
    rng = np.random.default_rng(seed)
    sequences, labels = [], []
    for i in range(n):
        bases = ["ACGT"[b] for b in rng.integers(0, 4, length)]
        label = i % 2
        if label:
            for start in rng.choice(length - len(motif) + 1, size=copies, replace=False):
                bases[start : start + len(motif)] = motif
        sequences.append("".join(bases))
        labels.append(label)
    order = rng.permutation(n)
    return [sequences[i] for i in order], [labels[i] for i in order]


def write_sequences(path: Path, sequences: list[str], labels: list[int], splits: list[str] | None = None) -> Path:
    """A ``text,label,split`` CSV (or ``seq<TAB>label`` TSV when no splits are given); gzip for ``.gz``."""
    if splits is None:
        lines = ["seq\tlabel"] + [f"{s}\t{y}" for s, y in zip(sequences, labels, strict=True)]
    else:
        lines = ["text,label,split"] + [f"{s},{y},{p}" for s, y, p in zip(sequences, labels, splits, strict=True)]
    data = ("\n".join(lines) + "\n").encode()
    with atomic_writer(path, "wb") as fh:
        fh.write(gzip.compress(data, mtime=0) if path.suffix == ".gz" else data)
    return path
