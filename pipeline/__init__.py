"""litaudit: turn the results tables of published papers into audited, citable records.

The Python API (see README, "Python API"): each stage's pure core, the data model and the workspace.
Names are imported on first use, so that ``import pipeline`` (and ``litaudit --help``) stays cheap.

    from pipeline import extract_tables, load_catalogue, map_tables, build_records, audit_tables
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "extract_tables": "pipeline.api",
    "load_catalogue": "pipeline.api",
    "map_tables": "pipeline.api",
    "build_records": "pipeline.api",
    "paper_text": "pipeline.api",
    "audit_tables": "pipeline.api",
    "write_demo_paper": "pipeline.fixtures",
    "Workspace": "pipeline.store",
    "Catalogue": "pipeline.catalogue",
    "Cell": "pipeline.model",
    "Finding": "pipeline.model",
    "Locator": "pipeline.model",
    "Record": "pipeline.model",
    "Source": "pipeline.model",
    "Table": "pipeline.model",
    "TablesFile": "pipeline.model",
    "MappingFile": "pipeline.mapping.model",
    "PaperText": "pipeline.audit.text",
    "ExtractionSettings": "pipeline.extract.settings",
    "MapSettings": "pipeline.mapping.settings",
    "AuditSettings": "pipeline.audit.settings",
    "LitauditError": "pipeline.errors",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'pipeline' has no attribute {name!r}")
    value = getattr(importlib.import_module(_EXPORTS[name]), name)
    globals()[name] = value  # imported once
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
