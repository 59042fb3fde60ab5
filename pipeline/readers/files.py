"""The text of a stored artifact: decoded safely, and a LaTeX source's files (a .tex, a gzip'd .tex or a tarball)."""

from __future__ import annotations

import zlib
from pathlib import Path

from pipeline.errors import BadInputError
from pipeline.readers.limits import MAX_TEXT_BYTES, too_large
from pipeline.readers.tarball import read_tarball

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


def read_text(path: Path, limit: int = MAX_TEXT_BYTES) -> str:
    """The file's text, refused before a byte is read when it is larger than ``limit``: every reader holds a
    text source several times over (text, lines, parse tree, tables) while it reads it."""
    try:
        size = path.stat().st_size
        if size > limit:
            raise too_large(str(path), size, limit)
        return decode(path.read_bytes(), str(path))
    except OSError as exc:
        raise BadInputError(f"{path}: cannot read ({exc.strerror or exc})") from None


def check_text(path: Path, origin: str) -> None:
    """That a file named as text holds text, from its first bytes (fetch stores it; extract reads it whole)."""
    try:
        with path.open("rb") as handle:
            decode(handle.read(TEXT_SAMPLE), origin)
    except OSError as exc:
        raise BadInputError(f"{origin}: cannot read ({exc.strerror or exc})") from None


def gunzip_limited(data: bytes, origin: str, limit: int = MAX_TEXT_BYTES) -> bytes:
    """A gzip'd file's content, refused when it would unpack beyond ``limit`` bytes."""
    inflater = zlib.decompressobj(wbits=31)
    try:
        out = inflater.decompress(data, limit + 1)
    except zlib.error as exc:
        raise BadInputError(f"{origin}: not a valid gzip file ({exc})") from None
    if len(out) > limit:
        raise too_large(origin, f"more than {limit}", limit)
    return out


def is_tarball(data: bytes) -> bool:
    """Whether gzip'd bytes hold a tar archive (the "ustar" magic at offset 257 of the first block)."""
    try:
        head = zlib.decompressobj(wbits=31).decompress(data[: 64 * 1024], 512)
    except zlib.error:
        return False
    return head[257:262] == b"ustar"


def latex_files(path: Path, name: str = "main.tex", limit: int = MAX_TEXT_BYTES) -> dict[str, str]:
    """The .tex files of a LaTeX source, by name: a (gzip'd) tarball, a gzip'd .tex or one .tex (``name``),
    told apart by their bytes, not by the file's name; their text together at most ``limit`` bytes."""
    origin = str(path)
    with path.open("rb") as handle:
        head = handle.read(64 * 1024)
    if (head[:2] == b"\x1f\x8b" and is_tarball(head)) or head[257:262] == b"ustar":
        return {member: decode(text, f"{origin}!{member}") for member, text in read_tarball(path, limit).items()}
    if head[:2] == b"\x1f\x8b":
        return {name: decode(gunzip_limited(path.read_bytes(), origin, limit), origin)}
    return {name: read_text(path, limit)}
