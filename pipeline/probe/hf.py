"""``hf:PATH``: a transformers model from a local folder, last layer mean-pooled over real tokens.

torch and transformers are the optional ``models`` extra, imported only here. Sequences are batched by
length, so same-length datasets are never padded (padding leaks into causal models such as HyenaDNA).
"""

from __future__ import annotations

import hashlib
import inspect
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from pipeline.extras import import_extra
from pipeline.probe.embedders import ModelOptions, ModelSpecError
from pipeline.progress import progress
from pipeline.store import sha256_file


def _import_models_extra() -> tuple[Any, Any]:
    feature = "hf: models"
    return import_extra("torch", "models", feature), import_extra("transformers", "models", feature)


def folder_revision(folder: Path) -> str:
    """A hash of every file of the model folder (weights, config, tokenizer, remote code)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        rel = path.relative_to(folder).as_posix()
        if any(part.startswith(".") or part == "__pycache__" for part in Path(rel).parts):
            continue
        digest.update(f"{rel}\0{sha256_file(path)}\n".encode())
    return digest.hexdigest()


@dataclass
class HFEmbedder:
    spec: str
    folder: Path
    options: ModelOptions
    folder_hash: str
    model: Any = field(repr=False)
    tokenizer: Any = field(repr=False)
    device: str = "cpu"
    cheap: bool = False

    @classmethod
    def load(cls, folder: Path, spec: str, options: ModelOptions) -> HFEmbedder:
        if not (folder / "config.json").is_file():
            raise ModelSpecError(f"model {spec!r}: {folder} is not a model folder (no config.json)")
        torch, transformers = _import_models_extra()
        transformers.logging.set_verbosity_error()  # its warnings would drown our one-line errors
        kwargs = {"local_files_only": True, "trust_remote_code": options.trust_remote_code}
        try:
            tokenizer = transformers.AutoTokenizer.from_pretrained(str(folder), **kwargs)
            model = transformers.AutoModel.from_pretrained(str(folder), **kwargs)
        except (OSError, ValueError) as exc:
            hint = "" if options.trust_remote_code else " (if it ships its own code, add --trust-remote-code)"
            first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise ModelSpecError(f"model {spec!r}: cannot load from {folder}: {first_line}{hint}") from None
        device = options.device or ("cuda" if torch.cuda.is_available() else "cpu")
        model.to(device).eval()
        return cls(spec, folder, options, folder_revision(folder), model, tokenizer, device)

    @property
    def max_length(self) -> int | None:
        limit = self.options.max_length or getattr(self.tokenizer, "model_max_length", None)
        return limit if limit is not None and limit < 1_000_000 else None  # transformers' "no limit" is 1e30

    @property
    def revision(self) -> str:
        """The folder's hash plus what else changes the vectors (truncation, pooling)."""
        key = f"{self.folder_hash}:max_length={self.max_length}:pooling=mean-last-layer:v1"
        return hashlib.sha256(key.encode()).hexdigest()

    def embed(self, sequences: list[str], show_progress: bool = False) -> np.ndarray:
        torch, _ = _import_models_extra()
        by_length: dict[int, list[int]] = {}
        for i, seq in enumerate(sequences):
            by_length.setdefault(len(seq), []).append(i)
        size = self.options.batch_size
        batches = [rows[j : j + size] for rows in by_length.values() for j in range(0, len(rows), size)]
        out: np.ndarray | None = None
        with torch.inference_mode():
            for batch in progress(batches, len(batches), f"embedding {self.folder.name}", show_progress):
                pooled = self._pool([sequences[i] for i in batch])
                if out is None:
                    out = np.zeros((len(sequences), pooled.shape[1]), dtype=np.float32)
                out[batch] = pooled
        return out if out is not None else np.zeros((0, 0), dtype=np.float32)

    def _pool(self, batch: list[str]) -> np.ndarray:
        limit = self.max_length
        enc = self.tokenizer(batch, return_tensors="pt", padding=True, truncation=limit is not None, max_length=limit)
        ids = enc["input_ids"].to(self.device)
        mask = enc.get("attention_mask")
        mask = (ids != self.tokenizer.pad_token_id) if mask is None else mask.to(self.device)
        inputs: dict[str, Any] = {"input_ids": ids}
        if "attention_mask" in inspect.signature(self.model.forward).parameters:
            inputs["attention_mask"] = mask
        outputs = self.model(**inputs)
        hidden = outputs.last_hidden_state if hasattr(outputs, "last_hidden_state") else outputs[0]
        weights = mask.unsqueeze(-1).to(hidden.dtype)
        pooled = (hidden * weights).sum(dim=1) / weights.sum(dim=1).clamp(min=1)
        return pooled.float().cpu().numpy()  # type: ignore[no-any-return]

    def describe(self) -> dict[str, Any]:
        config = getattr(self.model, "config", None)
        return {
            "spec": self.spec,
            "kind": "hf",
            "id": self.folder.name,
            "model_type": getattr(config, "model_type", None),
            "revision": self.revision,
            "weights_revision": self.folder_hash,
            "max_length": self.max_length,
            "folder": str(self.folder),
            "trust_remote_code": self.options.trust_remote_code,
            "device": self.device,
            "pooling": "mean over attention-masked tokens of the last layer",
            "batch_size": self.options.batch_size,
        }
