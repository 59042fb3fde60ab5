"""Opening a release (a folder or its .tar.gz) and reading what it holds, for diff and export."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.errors import BadInputError
from pipeline.release.archive import extract_archive
from pipeline.release.freeze import RELEASE_FILE
from pipeline.store import read_json, read_jsonl, safe_id

ARCHIVE_SUFFIXES = (".tar.gz", ".tgz")


class NotAReleaseError(BadInputError):
    """A path given as a release is neither a release folder nor a release archive."""


@contextmanager
def opened_release(path: Path) -> Iterator[Path]:
    """The release folder: ``path`` itself, or its archive extracted (safely) into a temporary folder."""
    if path.is_dir():
        if not any((path / name).exists() for name in ("bagit.txt", RELEASE_FILE, "manifest-sha256.txt")):
            raise NotAReleaseError(f"{path}: not a release folder (no bagit.txt, release.json or manifest)")
        yield path
    elif path.is_file() and path.name.endswith(ARCHIVE_SUFFIXES):
        with tempfile.TemporaryDirectory(prefix="litaudit-release-") as tmp:
            yield extract_archive(path, Path(tmp))
    elif path.exists():
        raise NotAReleaseError(f"{path}: not a release (expected a release folder or its .tar.gz)")
    else:
        raise NotAReleaseError(f"{path}: not found")


@dataclass
class ReleaseContents:
    """A release's description (release.json), its source records and its released records."""

    release: dict[str, Any]
    sources: list[dict[str, Any]]  # source.json of each source, plus its summary from release.json
    records: list[dict[str, Any]]

    @property
    def release_id(self) -> str:
        return str(self.release.get("id", ""))


def read_release(bag_dir: Path) -> ReleaseContents:
    release = read_json(bag_dir / RELEASE_FILE)
    if not isinstance(release, dict) or not isinstance(release.get("sources"), list):
        raise NotAReleaseError(f"{bag_dir / RELEASE_FILE}: not a litaudit release description")
    sources: list[dict[str, Any]] = []
    records: list[dict[str, Any]] = []
    for summary in release["sources"]:
        name = str(summary.get("folder", ""))
        if not name or safe_id(name) != name:
            raise NotAReleaseError(f"{bag_dir / RELEASE_FILE}: source folder {name!r} is not a plain folder name")
        folder = bag_dir / "data" / "sources" / name
        source = read_json(folder / "source.json")
        sources.append({**source, "release": summary})
        records.extend(read_jsonl(folder / "records.jsonl"))
    return ReleaseContents(release, sources, records)
