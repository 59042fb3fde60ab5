"""``litaudit verify``: re-hash a release and name every missing, changed or extra file.

bagit's ``Bag.validate`` stops at the first failing phase (a missing file fails the Payload-Oxum check
before any file is named), so the full check compares the manifests bagit parsed with the files on
disk itself. The fast check is bagit's: the Payload-Oxum (file count and bytes) only.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import bagit

from pipeline.errors import LitauditError
from pipeline.release.freeze import ALGORITHMS, RELEASE_FILE, RELEASE_ID, file_digests
from pipeline.store import read_json, sha256_file

REQUIRED = (
    "bagit.txt",
    "bag-info.txt",
    RELEASE_FILE,
    *(f"manifest-{a}.txt" for a in ALGORITHMS),
    *(f"tagmanifest-{a}.txt" for a in ALGORITHMS),
)


@dataclass(frozen=True)
class Problem:
    path: str  # relative to the release folder
    kind: str  # "missing" | "changed" | "extra" | "invalid"
    detail: str = ""

    def __str__(self) -> str:
        return f"{self.kind:<8} {self.path}" + (f": {self.detail}" if self.detail else "")


@dataclass
class VerifyReport:
    """What a verify found; ``ok`` when nothing is wrong."""

    path: str
    release_id: str
    fast: bool
    files: int = 0  # payload files (data/), as the Payload-Oxum counts them, so --fast and a full check agree
    bytes: int = 0
    tag_files: int = 0  # checked by a full verify only
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "path": self.path,
            "id": self.release_id,
            "check": "payload-oxum only (contents not re-hashed)" if self.fast else "full (every file re-hashed)",
            "files": self.files,
            "bytes": self.bytes,
            "tag_files": self.tag_files,
            "problems": [{"path": p.path, "kind": p.kind, "detail": p.detail} for p in self.problems],
        }


def _files_on_disk(bag_dir: Path) -> set[str]:
    return {p.relative_to(bag_dir).as_posix() for p in bag_dir.rglob("*") if p.is_file() or p.is_symlink()}


def _open_bag(bag_dir: Path, report: VerifyReport) -> bagit.Bag | None:
    if not (bag_dir / "bagit.txt").is_file():
        report.problems.append(Problem("bagit.txt", "missing"))
        return None
    try:
        return bagit.Bag(str(bag_dir))
    except bagit.BagError as exc:
        report.problems.append(Problem("bagit.txt", "invalid", str(exc)))
        return None


def _check_id(bag_dir: Path, report: VerifyReport) -> None:
    """The folder name is the release id: the date, then 12 hex of the payload manifest's SHA-256."""
    match = RELEASE_ID.match(bag_dir.name)
    manifest = bag_dir / "manifest-sha256.txt"
    if match is None:
        report.problems.append(Problem(".", "invalid", f"folder name {bag_dir.name!r} is not a release id"))
    elif manifest.is_file() and sha256_file(manifest)[:12] != match.group(2):
        report.problems.append(Problem("manifest-sha256.txt", "changed", "its SHA-256 no longer gives the release id"))
    release_file = bag_dir / RELEASE_FILE
    if release_file.is_file():
        try:
            data = read_json(release_file)
        except LitauditError as exc:
            report.problems.append(Problem(RELEASE_FILE, "invalid", str(exc)))
            return
        claimed = data.get("id") if isinstance(data, dict) else None
        if claimed != bag_dir.name:
            report.problems.append(Problem(RELEASE_FILE, "invalid", f"names release {claimed!r}"))


def _full_check(bag_dir: Path, bag: bagit.Bag, report: VerifyReport) -> None:
    listed: dict[str, dict[str, str]] = {Path(k).as_posix(): v for k, v in bag.entries.items()}
    on_disk = _files_on_disk(bag_dir)
    roots = {f"tagmanifest-{a}.txt" for a in ALGORITHMS}
    for rel in sorted(set(REQUIRED) - on_disk):
        report.problems.append(Problem(rel, "missing"))
    for rel in sorted(set(listed) - on_disk - set(REQUIRED)):
        report.problems.append(Problem(rel, "missing"))
    for rel in sorted(on_disk - set(listed) - roots):
        report.problems.append(Problem(rel, "extra", "not in any manifest"))
    for rel in sorted(set(listed) & on_disk):
        path = bag_dir / rel
        if path.is_symlink():
            report.problems.append(Problem(rel, "changed", "is a link"))
            continue
        algorithms = tuple(a for a in listed[rel] if a in hashlib.algorithms_available)
        found = file_digests(path, algorithms)
        if rel.startswith("data/"):
            report.files += 1
            report.bytes += path.stat().st_size
        else:
            report.tag_files += 1
        wrong = sorted(a for a in algorithms if found[a] != listed[rel][a].lower())
        if wrong:
            report.problems.append(Problem(rel, "changed", f"{', '.join(wrong)} differs from the manifest"))


def verify_bag(bag_dir: Path, fast: bool = False, shown_as: str | None = None) -> VerifyReport:
    """Check one release folder; ``fast`` checks only the Payload-Oxum (count and size of payload files)."""
    report = VerifyReport(shown_as or str(bag_dir), bag_dir.name, fast)
    bag = _open_bag(bag_dir, report)
    if bag is None:
        return report
    if fast:
        try:
            bag.validate(fast=True)
        except bagit.BagError as exc:
            report.problems.append(Problem("bag-info.txt", "invalid", str(exc)))
        oxum = str(bag.info.get("Payload-Oxum", "0.0"))
        size, _, count = oxum.partition(".")
        report.bytes, report.files = (int(size), int(count)) if size.isdigit() and count.isdigit() else (0, 0)
        return report
    _full_check(bag_dir, bag, report)
    _check_id(bag_dir, report)
    return report
