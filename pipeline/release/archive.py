"""Deterministic .tar.gz archives of a release folder, and safe extraction of them.

Same folder in, same bytes out: entries sorted, one fixed mtime, owner 0/0 with no names, modes
normalised, and a gzip header without a file name or timestamp.
"""

from __future__ import annotations

import gzip
import os
import tarfile
import zlib
from pathlib import Path

from pipeline.errors import EXIT_PROBLEMS, LitauditError
from pipeline.store import atomic_writer

FILE_MODE, DIR_MODE = 0o644, 0o755
COMPRESS_LEVEL = 6  # PDFs barely compress; 9 costs time for nothing
_CHUNK = 1 << 20


class DamagedArchiveError(LitauditError):
    """A release archive is truncated, corrupt or holds entries that could escape the folder."""

    exit_code = EXIT_PROBLEMS


def _entries(folder: Path) -> list[tuple[str, Path]]:
    found = []
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            found.append((path.relative_to(folder).as_posix(), path))
    return sorted(found)


def _info(name: str, mtime: int, size: int = 0, is_dir: bool = False) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = tarfile.DIRTYPE if is_dir else tarfile.REGTYPE
    info.mode = DIR_MODE if is_dir else FILE_MODE
    info.size = size
    info.mtime = mtime
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    return info


def write_archive(folder: Path, dest: Path, top: str, mtime: int) -> Path:
    """Archive ``folder`` as ``top/...`` into ``dest`` (written to a temporary file, then renamed)."""
    with (
        atomic_writer(dest, "wb") as raw,
        gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=COMPRESS_LEVEL) as gz,
        tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as tar,
    ):
        tar.addfile(_info(top, mtime, is_dir=True))
        for rel, path in _entries(folder):
            if path.is_symlink() or not (path.is_dir() or path.is_file()):
                raise DamagedArchiveError(f"{path}: not a plain file or folder; refusing to archive it")
            if path.is_dir():
                tar.addfile(_info(f"{top}/{rel}", mtime, is_dir=True))
                continue
            with open(path, "rb") as fh:
                tar.addfile(_info(f"{top}/{rel}", mtime, size=path.stat().st_size), fh)
    return dest


def _check_member(archive: Path, member: tarfile.TarInfo, top: str | None) -> str:
    name = member.name
    parts = Path(name).parts
    if name.startswith(("/", "\\")) or ".." in parts or not parts:
        raise DamagedArchiveError(f"{archive}: unsafe entry {name!r} (absolute or leaves the folder)")
    if not (member.isfile() or member.isdir()):
        raise DamagedArchiveError(f"{archive}: entry {name!r} is a link or special file; releases hold none")
    if top is not None and parts[0] != top:
        raise DamagedArchiveError(f"{archive}: entry {name!r} is outside the release folder {top!r}")
    return parts[0]


def _check_stream(archive: Path, end: int) -> None:
    """The whole gzip stream read to its trailer (CRC-32 and length checked), and nothing but the tar's closing
    zeros after its last entry (``end``): tarfile takes a corrupt header after the first for the end of the
    archive, so a damaged one otherwise reads as a release with files missing."""
    try:
        with gzip.open(archive, "rb") as stream:
            offset = 0
            while chunk := stream.read(_CHUNK):
                tail = chunk[max(end - offset, 0) :]
                if tail.strip(b"\0"):
                    raise DamagedArchiveError(
                        f"{archive}: damaged archive: its tar check failed (an unreadable entry header at or after"
                        f" byte {end} of the tar)"
                    )
                offset += len(chunk)
    except (OSError, EOFError, zlib.error) as exc:  # gzip.BadGzipFile is an OSError
        raise DamagedArchiveError(f"{archive}: damaged archive: its gzip check failed ({exc})") from None


def extract_archive(archive: Path, dest: Path) -> Path:
    """Extract a release archive into ``dest`` and return its one top folder; damage -> one-line error."""
    try:
        with tarfile.open(archive, "r:gz") as tar:
            members = tar.getmembers()  # reads every header, so a truncated archive fails here
            if not members:
                raise DamagedArchiveError(f"{archive}: empty archive")
            top: str | None = None
            for member in members:
                top = _check_member(archive, member, top)
            _check_stream(archive, tar.offset)
            tar.extractall(dest, members=members, filter="data")
    except (tarfile.TarError, EOFError, zlib.error, gzip.BadGzipFile) as exc:
        _check_stream(archive, 1 << 62)  # a stream that fails gzip's check is named so
        raise DamagedArchiveError(f"{archive}: damaged archive: its tar check failed ({exc})") from None
    assert top is not None
    return dest / top
