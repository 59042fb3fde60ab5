"""``litaudit freeze``: a release as a BagIt bag ``releases/<date>-<12 hex>/`` plus a deterministic .tar.gz.

The 12 hex characters are the start of the SHA-256 of ``manifest-sha256.txt``, so the same inputs give
the same id. bagit-python writes the payload manifests in sorted order but the tag manifests in
``os.listdir`` order, so we rewrite those sorted; ``Bagging-Date`` is the release date, not today.
``release.json`` is a tag file (not payload): it names the id, which the payload manifest determines.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import tempfile
from dataclasses import dataclass
from datetime import date as Date
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import bagit

from pipeline import __version__
from pipeline.errors import EXIT_PROBLEMS, BadInputError, LitauditError
from pipeline.release.archive import DIR_MODE, FILE_MODE, write_archive
from pipeline.release.payload import build_payload, plan_sources, release_counts
from pipeline.selection import Selection
from pipeline.settings import Settings
from pipeline.store import Workspace, dumps, sha256_file, write_text

ALGORITHMS = ("sha256", "sha512")
RELEASE_FILE = "release.json"
RELEASE_ID = re.compile(r"^(\d{4}-\d{2}-\d{2})-([0-9a-f]{12})$")

# bagit logs each file at INFO, each problem at WARNING and failures with a traceback: we report them ourselves
logging.getLogger("bagit").setLevel(logging.CRITICAL)


class NothingToFreezeError(BadInputError):
    """No source has been fetched, so there is nothing to release."""


class ReleaseConflictError(LitauditError):
    """A release folder with this id exists but holds something else than this freeze would write."""

    exit_code = EXIT_PROBLEMS


@dataclass(frozen=True)
class FreezeOptions:
    """How to freeze: ``date`` is the release date (YYYY-MM-DD, UTC), injectable for reproducible ids."""

    date: str
    with_pdfs: bool = False

    def __post_init__(self) -> None:
        try:
            valid = re.fullmatch(r"\d{4}-\d{2}-\d{2}", self.date) is not None and bool(Date.fromisoformat(self.date))
        except ValueError:
            valid = False
        if not valid:
            raise BadInputError(f"release date {self.date!r}: expected a date as YYYY-MM-DD")


@dataclass
class FreezeResult:
    release_id: str
    path: Path
    archive: Path
    counts: dict[str, Any]
    notes: list[str]
    already_frozen: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.release_id,
            "path": str(self.path),
            "archive": str(self.archive),
            "counts": self.counts,
            "notes": self.notes,
            "already_frozen": self.already_frozen,
        }


def today_utc() -> str:
    return datetime.now(timezone.utc).date().isoformat()


def midnight_utc(day: str) -> int:
    """The archive's fixed mtime: the release date at 00:00 UTC."""
    return int(datetime.combine(Date.fromisoformat(day), datetime.min.time(), timezone.utc).timestamp())


def file_digests(path: Path, algorithms: tuple[str, ...] = ALGORITHMS) -> dict[str, str]:
    """Every digest of a file from one read."""
    hashers = {alg: hashlib.new(alg) for alg in algorithms}
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            for hasher in hashers.values():
                hasher.update(block)
    return {alg: h.hexdigest() for alg, h in hashers.items()}


def tag_files(bag_dir: Path) -> list[str]:
    """Every file of the bag outside ``data/`` except the tag manifests themselves, sorted."""
    found = []
    for path in bag_dir.rglob("*"):
        rel = path.relative_to(bag_dir).as_posix()
        if path.is_file() and not rel.startswith("data/") and not rel.startswith("tagmanifest-"):
            found.append(rel)
    return sorted(found)


def write_tag_manifests(bag_dir: Path) -> None:
    """Tag manifests in sorted order (bagit's own follow os.listdir, which differs between machines)."""
    digests = {rel: file_digests(bag_dir / rel) for rel in tag_files(bag_dir)}
    for alg in ALGORITHMS:
        write_text(bag_dir / f"tagmanifest-{alg}.txt", "".join(f"{d[alg]}  {rel}\n" for rel, d in digests.items()))


def normalise_modes(folder: Path) -> None:
    """Readable by all, like any published file (atomic writes leave temporary files' mode, 0600)."""
    for path in [folder, *folder.rglob("*")]:
        path.chmod(DIR_MODE if path.is_dir() else FILE_MODE)


def _bag(folder: Path, day: str, n_sources: int) -> None:
    bag_info = {
        "Bagging-Date": day,
        "Bag-Software-Agent": f"litaudit {__version__} (bagit.py {bagit.VERSION})",
        "External-Description": f"litaudit release of {n_sources} source(s)",
    }
    bagit.make_bag(str(folder), bag_info=bag_info, checksums=list(ALGORITHMS))


def freeze(ws: Workspace, settings: Settings, selection: Selection, options: FreezeOptions) -> FreezeResult:
    """Build the release in a temporary folder and rename it into place; an identical one is left as is."""
    if not selection.ids and not selection.problems:
        raise NothingToFreezeError("nothing to freeze: no source fetched yet (litaudit fetch)")
    plans = plan_sources(ws, selection, options.with_pdfs)
    payload = build_payload(ws, settings, plans)
    counts = release_counts(payload)
    ws.releases_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".freeze-", dir=ws.releases_dir) as tmp:
        bag_dir = Path(tmp) / "bag"
        payload.write(bag_dir)
        _bag(bag_dir, options.date, len(plans))
        manifest_sha = sha256_file(bag_dir / "manifest-sha256.txt")
        release_id = f"{options.date}-{manifest_sha[:12]}"
        release = {
            "id": release_id,
            "date": options.date,
            "tool": {"name": "litaudit", "version": __version__},
            "payload_manifest_sha256": manifest_sha,
            "with_pdfs": options.with_pdfs,
            "counts": counts,
            "sources": payload.sources,
            "notes": payload.notes,
        }
        write_text(bag_dir / RELEASE_FILE, dumps(release))
        write_tag_manifests(bag_dir)
        normalise_modes(bag_dir)
        final = ws.releases_dir / release_id
        already = final.exists()
        if already:
            new, old = bag_dir / "tagmanifest-sha256.txt", final / "tagmanifest-sha256.txt"
            if not old.is_file() or old.read_bytes() != new.read_bytes():
                raise ReleaseConflictError(
                    f"{final}: exists but differs from what this freeze writes (check it: litaudit verify {final})"
                )
        else:
            os.rename(bag_dir, final)
    archive = ws.releases_dir / f"{release_id}.tar.gz"
    if not archive.exists():
        write_archive(final, archive, release_id, midnight_utc(options.date))
        archive.chmod(FILE_MODE)
    return FreezeResult(release_id, final, archive, counts, payload.notes, already)
