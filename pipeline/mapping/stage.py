"""The map stage: extracted/<source>/tables.json + the catalogue + pins -> extracted/<source>/mapping.json."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, TypeVar

from pipeline.catalogue import Catalogue, check_catalogue, load_catalogue, resolve_catalogue_dir
from pipeline.catalogue.load import BUNDLED_DIR
from pipeline.errors import ConfigError
from pipeline.mapping.document import map_tables
from pipeline.mapping.overrides import load_overrides
from pipeline.mapping.registry import with_registry_models
from pipeline.mapping.settings import MapSettings
from pipeline.probe.models import load_models
from pipeline.settings import Settings
from pipeline.stage_settings import load_settings
from pipeline.stages import StageReport
from pipeline.store import Workspace, read_tables, sha256_file, write_json

T = TypeVar("T")


def usable_catalogue(ws: Workspace) -> tuple[Catalogue, dict[str, Any]]:
    """The workspace's catalogue, refused when `litaudit catalogue check` would find problems."""
    folder = resolve_catalogue_dir(ws.config_dir)
    catalogue = load_catalogue(ws.config_dir)
    problems = check_catalogue(catalogue)
    if problems:
        raise ConfigError(
            f"{folder}: {len(problems)} catalogue problem(s), first: {problems[0]} (run 'litaudit catalogue check')"
        )
    if folder == BUNDLED_DIR and not folder.is_relative_to(ws.root.resolve()):
        where = "shipped with litaudit"
    else:
        where = os.path.relpath(folder, ws.root)
    files = [Path(f).name for f in catalogue.files]
    return catalogue, {"dir": where.replace(os.sep, "/"), "files": files, "digest": catalogue.digest}


def run(ws: Workspace, source_id: str, settings: Settings) -> StageReport:
    tables_path = ws.extracted_dir(source_id) / "tables.json"
    tables = read_tables(tables_path)
    catalogue, info = usable_catalogue(ws)
    catalogue = with_registry_models(catalogue, load_models(ws.config_dir))
    pins = load_overrides(ws.config_dir / "overrides.yaml", catalogue, source_id)
    knobs = load_settings(MapSettings, ws.config_dir, settings.overrides)
    mapping = map_tables(tables, catalogue, pins, sha256_file(tables_path), info, knobs)
    write_json(ws.extracted_dir(source_id) / "mapping.json", mapping.to_dict())
    summary = {**mapping.summary, "pins_unused": len(mapping.overrides["unused"])}
    return StageReport(problems=summary["cells_unmapped"], summary=summary)
