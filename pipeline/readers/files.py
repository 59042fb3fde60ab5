"""The text of a stored artifact: decoded safely, and a LaTeX source's files (a .tex, a gzip'd .tex or a tarball)."""

from __future__ import annotations

import zlib
from pathlib import Path

from pipeline.errors import BadInputError
from pipeline.readers.tarball import MAX_MEMBER_BYTES, read_tarball

TEXT_SAMPLE = 64 * 1024


class NotTextError(BadInputError):
    """A file named as text (.tex, .html, .md) that holds binary data."""


def decode(data: bytes, origin: str) -> str:
    """UTF-8 text (Latin-1 as LaTeX sources of old allow); a NUL byte marks binary data, not text."""
    if b"\x00" in data[:TEXT_SAMPLE]:
        raise NotTextError(f"{origin}: binary data, not a text file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read_text(path: Path) -> str:
    try:
        return decode(path.read_bytes(), str(path))
    except OSError as exc:
        raise BadInputError(f"{path}: cannot read ({exc.strerror or exc})") from None


def gunzip_limited(data: bytes, origin: str, limit: int = MAX_MEMBER_BYTES) -> bytes:
    """A gzip'd file's content, refused when it would unpack beyond ``limit`` bytes."""
    inflater = zlib.decompressobj(wbits=31)
    try:
        out = inflater.decompress(data, limit + 1)
    except zlib.error as exc:
        raise BadInputError(f"{origin}: not a valid gzip file ({exc})") from None
    if len(out) > limit:
        raise BadInputError(f"{origin}: unpacks to more than {limit} bytes")
    return out


def is_tarball(data: bytes) -> bool:
    """Whether gzip'd bytes hold a tar archive (the "ustar" magic at offset 257 of the first block)."""
    try:
        head = zlib.decompressobj(wbits=31).decompress(data[: 64 * 1024], 512)
    except zlib.error:
        return False
    return head[257:262] == b"ustar"


def latex_files(path: Path, name: str = "main.tex") -> dict[str, str]:
    """The .tex files of a LaTeX source, by name: a (gzip'd) tarball, a gzip'd .tex or one .tex (``name``),
    told apart by their bytes, not by the file's name."""
    origin = str(path)
    data = path.read_bytes()
    if (data[:2] == b"\x1f\x8b" and is_tarball(data)) or data[257:262] == b"ustar":
        return {member: decode(text, f"{origin}!{member}") for member, text in read_tarball(path).items()}
    if data[:2] == b"\x1f\x8b":
        data = gunzip_limited(data, origin)
    return {name: decode(data, origin)}
