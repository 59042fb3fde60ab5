"""Models that turn sequences into fixed-size vectors: ``kmer:K``, ``null[:DIM]`` and ``hf:PATH``.

``kmer`` is the conventional reference a DNA model must beat; ``null`` is the control that must sit at
chance (features drawn at random from a seed and the sequence's hash, so they carry no label signal).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from pipeline.errors import BadInputError
from pipeline.probe.kinds import KINDS

_CHUNK = 4096  # sequences per vectorised k-mer count (bounds memory on long sequences)
_CODES = np.full(256, 255, dtype=np.uint8)
for _code, _base in enumerate(b"ACGT"):
    _CODES[_base] = _code


class ModelSpecError(BadInputError):
    """A --model value names no model we know how to run."""


class Embedder(Protocol):
    @property
    def spec(self) -> str:
        """The --model value it was made from."""

    @property
    def revision(self) -> str:
        """A hash of everything that determines the vectors (weights, code version, settings)."""

    @property
    def cheap(self) -> bool:
        """True when computing vectors is faster than reading them back from the cache."""

    def embed(self, sequences: list[str], show_progress: bool = False) -> np.ndarray: ...

    def describe(self) -> dict[str, Any]: ...


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class KmerEmbedder:
    """Normalised k-mer spectrum: counts of each ACGT k-mer divided by the number of k-mers without N."""

    k: int
    spec: str = ""
    cheap: bool = True

    @property
    def revision(self) -> str:
        return _hash(f"kmer:k={self.k}:frequency:v1")

    def embed(self, sequences: list[str], show_progress: bool = False) -> np.ndarray:
        out = np.zeros((len(sequences), 4**self.k), dtype=np.float32)
        by_length: dict[int, list[int]] = {}
        for i, seq in enumerate(sequences):
            by_length.setdefault(len(seq), []).append(i)
        for length, rows in by_length.items():
            for start in range(0, len(rows), _CHUNK) if length >= self.k else ():
                chunk = rows[start : start + _CHUNK]
                out[chunk] = self._spectra([sequences[i] for i in chunk])
        return out

    def _spectra(self, sequences: list[str]) -> np.ndarray:
        """Spectra of equal-length sequences, all in one bincount."""
        bases = _CODES[np.frombuffer("".join(sequences).encode("ascii"), dtype=np.uint8)].reshape(len(sequences), -1)
        windows = np.lib.stride_tricks.sliding_window_view(bases, self.k, axis=1)  # n x positions x k
        valid = (windows != 255).all(axis=2)
        weights = 4 ** np.arange(self.k - 1, -1, -1, dtype=np.int64)
        codes = (windows.astype(np.int64) * weights).sum(axis=2)
        size = 4**self.k
        rows = np.broadcast_to(np.arange(len(sequences))[:, None], codes.shape)
        counts = np.bincount((rows * size + codes)[valid], minlength=len(sequences) * size).reshape(-1, size)
        totals = valid.sum(axis=1, keepdims=True)
        return np.divide(counts, totals, out=np.zeros(counts.shape), where=totals > 0)

    def describe(self) -> dict[str, Any]:
        return {"spec": self.spec, "kind": "kmer", "id": f"kmer:{self.k}", "revision": self.revision, "k": self.k}


@dataclass(frozen=True)
class NullEmbedder:
    """Seeded random features: a standard normal vector drawn from the seed and the sequence's hash."""

    dim: int = 64
    seed: int = 0
    spec: str = ""
    cheap: bool = True

    @property
    def revision(self) -> str:
        return _hash(f"null:dim={self.dim}:seed={self.seed}:v1")

    def embed(self, sequences: list[str], show_progress: bool = False) -> np.ndarray:
        out = np.empty((len(sequences), self.dim), dtype=np.float32)
        for i, seq in enumerate(sequences):
            entropy = int.from_bytes(hashlib.sha256(f"{self.seed}:{seq}".encode()).digest()[:16], "big")
            out[i] = np.random.default_rng(entropy).standard_normal(self.dim)
        return out

    def describe(self) -> dict[str, Any]:
        return {
            "spec": self.spec,
            "kind": "null",
            "id": f"null:{self.dim}",
            "revision": self.revision,
            "dim": self.dim,
            "seed": self.seed,
        }


@dataclass(frozen=True)
class ModelOptions:
    """How to run an ``hf:`` model; ignored by the others."""

    trust_remote_code: bool = False
    batch_size: int = 32
    device: str | None = None  # None: cuda when present, else cpu
    max_length: int | None = None  # tokens; None: the tokenizer's own limit


def _int_part(spec: str, text: str, low: int, high: int) -> int:
    if not text.isdigit() or not low <= int(text) <= high:
        raise ModelSpecError(f"model {spec!r}: expected a whole number from {low} to {high} after ':'")
    return int(text)


def _kmer(spec: str, arg: str, options: ModelOptions) -> Embedder:
    return KmerEmbedder(_int_part(spec, arg, 1, 8), spec=spec)


def _null(spec: str, arg: str, options: ModelOptions) -> Embedder:
    return NullEmbedder(_int_part(spec, arg, 1, 100_000) if arg else 64, spec=spec)


def _hf(spec: str, arg: str, options: ModelOptions) -> Embedder:
    if not arg:
        raise ModelSpecError(f"model {spec!r}: hf: needs a local model folder (hf:PATH)")
    from pipeline.probe.hf import HFEmbedder  # torch and transformers: the models extra

    return HFEmbedder.load(Path(arg), spec, options)


@dataclass(frozen=True)
class EmbedderKind:
    """One kind of ``--model`` value: how it is written, what it is, and how to make it."""

    form: str  # as the help shows it: "kmer:K"
    summary: str
    make: Callable[[str, str, ModelOptions], Embedder]  # (spec, the part after ':', options)


# The kinds of --model value, keyed by the part before ':' (named in pipeline/probe/kinds.py). A new embedder:
# its class, its line there and its maker here.
_MAKERS: dict[str, Callable[[str, str, ModelOptions], Embedder]] = {"kmer": _kmer, "null": _null, "hf": _hf}
EMBEDDERS: dict[str, EmbedderKind] = {
    name: EmbedderKind(form, summary, _MAKERS[name]) for name, (form, summary) in KINDS.items()
}


def model_help() -> str:
    """The --model help, from the registry."""
    return "; ".join(f"{kind.form}: {kind.summary}" for kind in EMBEDDERS.values()) + "."


def parse_model(spec: str, options: ModelOptions | None = None) -> Embedder:
    """The embedder a ``--model`` value names."""
    name, _, arg = spec.partition(":")
    kind = EMBEDDERS.get(name)
    if kind is None:
        forms = ", ".join(k.form for k in EMBEDDERS.values())
        raise ModelSpecError(f"model {spec!r}: unknown kind (expected {forms})")
    return kind.make(spec, arg, options or ModelOptions())
