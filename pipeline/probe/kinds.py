"""The kinds of model a probe embeds with (``--model`` values, the registry's ``embedder:``), known without
numpy: the map stage reads the model registry for its names, and needs no probe extra for that."""

from __future__ import annotations

# name (the part before ':') -> (how it is written, what it is); pipeline/probe/embedders.py makes each one
KINDS: dict[str, tuple[str, str]] = {
    "kmer": ("kmer:K", "normalised k-mer spectrum, the reference to beat"),
    "null": ("null[:DIM]", "seeded random features, the control at chance"),
    "hf": ("hf:PATH", "a local Hugging Face model folder (the models extra)"),
}
