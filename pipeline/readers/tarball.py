"""A LaTeX tarball read as untrusted input: in memory, never unpacked to disk, never handed to a shell.

Refused outright: a member whose name is absolute or climbs out (``../``), a link pointing outside the
archive, more than ``MAX_MEMBERS`` members, or sizes (as the headers claim them, before any byte is read)
beyond the limits. Only the LaTeX text members are kept.
"""

from __future__ import annotations

import posixpath
import tarfile
from pathlib import Path

from pipeline.errors import BadInputError
from pipeline.readers.limits import MAX_TEXT_BYTES, too_large

MAX_MEMBERS = 5000
MAX_TOTAL_BYTES = 500 * 1024 * 1024  # everything the headers claim, figures included
TEXT_SUFFIXES = (".tex", ".ltx", ".bbl")


class UnsafeArchiveError(BadInputError):
    """A tarball with a member that would escape it, or claims beyond the limits."""


def _inside(name: str) -> str | None:
    """The member's normalised path inside the archive, or None when it would escape it."""
    if name.startswith(("/", "\\")) or "\x00" in name:
        return None
    norm = posixpath.normpath(name.replace("\\", "/"))
    return None if norm == ".." or norm.startswith("../") else norm


def read_tarball(path: Path, text_limit: int = MAX_TEXT_BYTES) -> dict[str, bytes]:
    """The LaTeX text members of a tar (gzip'd or not), by normalised name, together at most ``text_limit``
    bytes (the extract setting max_text_bytes); one line per refusal."""
    origin = str(path)
    found: dict[str, bytes] = {}
    claimed = text = 0
    try:
        with tarfile.open(path, mode="r:*") as archive:
            for count, member in enumerate(archive, 1):
                if count > MAX_MEMBERS:
                    raise UnsafeArchiveError(f"{origin}: more than {MAX_MEMBERS} members")
                name = _inside(member.name)
                if name is None:
                    raise UnsafeArchiveError(f"{origin}: member {member.name!r} would be written outside the archive")
                if member.issym() or member.islnk():
                    target = posixpath.join(posixpath.dirname(name), member.linkname)
                    if member.islnk():
                        target = member.linkname
                    if member.linkname.startswith("/") or _inside(target) is None:
                        raise UnsafeArchiveError(f"{origin}: link {member.name!r} points outside the archive")
                    continue  # links inside are not followed either: the file itself is in the archive
                if not member.isfile():
                    continue
                claimed += member.size
                if claimed > MAX_TOTAL_BYTES:
                    raise UnsafeArchiveError(f"{origin}: members claim more than {MAX_TOTAL_BYTES} bytes in all")
                if not name.lower().endswith(TEXT_SUFFIXES):
                    continue
                text += member.size
                if text > text_limit:
                    raise too_large(f"{origin}!{name}", f"with the members before it {text}", text_limit)
                handle = archive.extractfile(member)
                if handle is not None:
                    found[name] = handle.read(member.size)
    except (tarfile.TarError, EOFError, OSError, ValueError) as exc:
        raise BadInputError(f"{origin}: not a readable tar archive ({exc})") from None
    return found
