"""An on-disk embedding cache keyed by model revision hash and sequence hash.

Each batch of new vectors is one ``.npz`` file (keys and vectors) under ``<dir>/<model hash>/``, written
atomically; a file is never changed after it appears, so an interrupted run loses at most its last batch
and two runs never corrupt each other.
"""

from __future__ import annotations

import hashlib
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from pipeline.errors import BadInputError
from pipeline.probe.embedders import Embedder
from pipeline.store import atomic_writer


class CacheError(BadInputError):
    """The embedding cache folder cannot be read or written."""


def sequence_key(sequence: str) -> str:
    return hashlib.sha256(sequence.encode("ascii")).hexdigest()


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "litaudit" / "embeddings"


@dataclass
class EmbeddingCache:
    root: Path
    _index: dict[str, dict[str, tuple[Path, int]]] = field(default_factory=dict, repr=False)

    def _model_dir(self, revision: str) -> Path:
        return self.root / revision[:32]

    def _load_index(self, revision: str) -> dict[str, tuple[Path, int]]:
        if revision not in self._index:
            index: dict[str, tuple[Path, int]] = {}
            folder = self._model_dir(revision)
            for chunk in sorted(folder.glob("*.npz")) if folder.is_dir() else []:
                try:
                    with np.load(chunk) as data:
                        keys = data["keys"]
                except (OSError, ValueError, KeyError):
                    continue  # a foreign or damaged file: ignore it, the vectors get recomputed
                index.update({str(k): (chunk, row) for row, k in enumerate(keys)})
            self._index[revision] = index
        return self._index[revision]

    def get(self, revision: str, keys: list[str]) -> dict[str, np.ndarray]:
        """The cached vectors among ``keys``."""
        index = self._load_index(revision)
        wanted: dict[Path, list[tuple[str, int]]] = {}
        for key in keys:
            if key in index:
                chunk, row = index[key]
                wanted.setdefault(chunk, []).append((key, row))
        found: dict[str, np.ndarray] = {}
        for chunk, entries in wanted.items():
            with np.load(chunk) as data:
                vectors = data["vectors"]
            found.update({key: vectors[row] for key, row in entries})
        return found

    def put(self, revision: str, keys: list[str], vectors: np.ndarray) -> None:
        if not keys:
            return
        name = hashlib.sha256("\n".join(keys).encode()).hexdigest()[:24]
        path = self._model_dir(revision) / f"{name}.npz"
        try:
            with atomic_writer(path, "wb") as fh:
                np.savez(fh, keys=np.array(keys), vectors=vectors.astype(np.float32))
        except OSError as exc:
            raise CacheError(f"{path}: cannot write the embedding cache ({exc.strerror or exc})") from None
        index = self._load_index(revision)
        index.update({key: (path, row) for row, key in enumerate(keys)})


@dataclass
class EmbedStats:
    """What embedding cost: sequences computed (not from the cache) and the seconds spent on them."""

    computed: int = 0
    cached: int = 0
    seconds: float = 0.0


def embed_all(
    embedder: Embedder,
    sequences: list[str],
    cache: EmbeddingCache | None,
    stats: EmbedStats,
    show_progress: bool = False,
) -> np.ndarray:
    """Vectors for every sequence (each distinct sequence embedded once), through the cache when one is given."""
    keys = [sequence_key(s) for s in sequences]
    unique = dict(zip(keys, sequences, strict=True))
    known = cache.get(embedder.revision, list(unique)) if cache else {}
    missing = [k for k in unique if k not in known]
    if missing:
        started = time.perf_counter()
        computed = embedder.embed([unique[k] for k in missing], show_progress)
        stats.seconds += time.perf_counter() - started
        stats.computed += len(missing)
        if cache:
            cache.put(embedder.revision, missing, computed)
        known.update(zip(missing, computed, strict=True))
    stats.cached += len(unique) - len(missing)
    return np.stack([known[k] for k in keys]).astype(np.float32) if keys else np.zeros((0, 0), np.float32)
