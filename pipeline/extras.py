"""Importing optional dependencies (pip extras) with a one-line error that says what to install."""

from __future__ import annotations

import importlib
from types import ModuleType

from pipeline.errors import MissingExtraError


def import_extra(module: str, extra: str, feature: str) -> ModuleType:
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingExtraError(
            f"{feature} needs {exc.name or module}, which is not installed: pip install 'litaudit[{extra}]'"
        ) from None
