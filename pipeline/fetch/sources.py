"""config/sources.yaml: which papers to fetch, each entry checked before anything is downloaded."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.errors import ConfigError, LitauditError
from pipeline.fetch.ids import VERSION, parse_source_id
from pipeline.store import Workspace
from pipeline.yamlio import read_yaml

SOURCES_FILE = "sources.yaml"
ENTRY_KEYS = ("id", "version", "sha256", "notes")
_SHA256 = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class SourceEntry:
    """One paper to fetch: its id, and optionally a version, a pinned SHA-256 and notes."""

    id: str
    version: str | None = None
    sha256: str | None = None
    notes: str | None = None


def _entry(path: Path, number: int, raw: Any) -> SourceEntry:
    where = f"{path}: entry {number}"
    if isinstance(raw, str):
        raw = {"id": raw}
    if not isinstance(raw, dict):
        raise ConfigError(f"{where}: expected an id or a mapping with keys {', '.join(ENTRY_KEYS)}")
    if not isinstance(raw.get("id"), str):
        raise ConfigError(f"{where}: 'id' is missing or not text")
    where = f"{where} ({raw['id']})"
    unknown = sorted(str(k) for k in raw if k not in ENTRY_KEYS)
    if unknown:
        raise ConfigError(f"{where}: unknown key(s) {', '.join(unknown)}; allowed: {', '.join(ENTRY_KEYS)}")
    try:
        ref = parse_source_id(raw["id"])
    except LitauditError as exc:
        raise ConfigError(f"{where}: {exc}") from None
    version = raw.get("version")
    if isinstance(version, int) and not isinstance(version, bool):
        version = f"v{version}"
    if version is not None and (not isinstance(version, str) or not VERSION.fullmatch(version)):
        raise ConfigError(f"{where}: version {raw.get('version')!r} is not like 'v2'")
    if version and ref.scheme != "arxiv":
        raise ConfigError(f"{where}: only arXiv sources have versions")
    if version and ref.arxiv and ref.arxiv.version and ref.arxiv.version != version:
        raise ConfigError(f"{where}: the id says {ref.arxiv.version} but version says {version}")
    sha256 = raw.get("sha256")
    if sha256 is not None and (not isinstance(sha256, str) or not _SHA256.fullmatch(sha256.lower())):
        raise ConfigError(f"{where}: sha256 must be 64 hexadecimal digits")
    notes = raw.get("notes")
    if notes is not None and not isinstance(notes, str):
        raise ConfigError(f"{where}: notes must be text")
    return SourceEntry(ref.id, version, sha256.lower() if sha256 else None, notes)


def load_source_entries(ws: Workspace) -> list[SourceEntry]:
    """The sources listed in config/sources.yaml ([] when the file does not exist)."""
    path = ws.config_dir / SOURCES_FILE
    data = read_yaml(path) if path.exists() else None
    if data is None:
        return []
    if not isinstance(data, dict) or set(data) - {"sources"}:
        raise ConfigError(f"{path}: expected a mapping with one key, 'sources' (a list of entries)")
    raw_entries = data.get("sources") or []
    if not isinstance(raw_entries, list):
        raise ConfigError(f"{path}: 'sources' must be a list of entries")
    entries = [_entry(path, number, raw) for number, raw in enumerate(raw_entries, 1)]
    seen: set[str] = set()
    for number, entry in enumerate(entries, 1):
        if entry.id in seen:
            raise ConfigError(f"{path}: entry {number} ({entry.id}): listed twice")
        seen.add(entry.id)
    return entries
