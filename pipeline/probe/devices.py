"""Where embeddings are computed: ``--device cuda`` when a GPU is usable, else the CPU with a note saying why."""

from __future__ import annotations

import importlib
import importlib.util


def resolve_device(requested: str, model_kind: str) -> tuple[str, str]:
    """(the device used, a note when it is not the one asked for)."""
    if requested != "cuda":
        return "cpu", ""
    if model_kind != "hf":
        return "cpu", f"{model_kind} embeddings are computed with numpy on the CPU; --device cuda does not apply"
    if importlib.util.find_spec("torch") is None:
        return "cpu", "--device cuda: torch is not installed (pip install 'litaudit[models]'); ran on the CPU"
    torch = importlib.import_module("torch")
    if not torch.cuda.is_available():
        return "cpu", "--device cuda: no CUDA device is visible to torch; ran on the CPU"
    return "cuda", ""
