"""Source ids: ``arxiv:<arXiv id>[vN]`` or ``local:<name>``, checked before anything touches disk or network."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.errors import BadSourceIdError
from pipeline.store import safe_id

ID_FORMS = "expected arxiv:<id> (e.g. arxiv:2406.01627, arxiv:2406.01627v2, arxiv:q-bio/0601001) or local:<name>"

# New style (April 2007 on): YYMM.NNNN until 2014, YYMM.NNNNN from 2015.
_NEW_STYLE = re.compile(r"(?P<yymm>\d{2}(?:0[1-9]|1[0-2]))\.(?P<number>\d{4,5})(?P<version>v[1-9]\d*)?")
# Old style (to March 2007): archive[.SUBJECT-CLASS]/YYMMNNN, e.g. q-bio/0601001, math.GT/0309136.
_OLD_STYLE = re.compile(
    r"(?P<archive>[a-z]+(?:-[a-z]+)*)(?P<subject>\.[A-Za-z]+(?:-[A-Za-z]+)*)?/(?P<number>\d{2}(?:0[1-9]|1[0-2])\d{3})"
    r"(?P<version>v[1-9]\d*)?"
)
_LOCAL_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
VERSION = re.compile(r"v[1-9]\d*")


@dataclass(frozen=True)
class ArxivId:
    """An arXiv identifier split into the paper (``canonical``, as the API and URLs spell it) and its version."""

    text: str  # as written after "arxiv:", version included
    canonical: str  # without version and without an old-style subject class (math.GT/0309136 -> math/0309136)
    version: str | None


@dataclass(frozen=True)
class SourceRef:
    """A parsed source id: which scheme, and the arXiv id or local name behind it."""

    id: str
    scheme: str  # "arxiv" | "local"
    arxiv: ArxivId | None = None


def parse_arxiv_id(text: str) -> ArxivId:
    """Check an arXiv id (without the ``arxiv:`` prefix) and split off its version."""
    new = _NEW_STYLE.fullmatch(text)
    if new:
        yymm, number = new["yymm"], new["number"]
        if yymm < "0704":
            raise BadSourceIdError(f"arXiv id {text!r}: new-style ids start in April 2007 (0704)")
        expected_digits = 4 if yymm <= "1412" else 5
        if len(number) != expected_digits:
            raise BadSourceIdError(f"arXiv id {text!r}: ids of {yymm} have {expected_digits}-digit numbers")
        return ArxivId(text, f"{yymm}.{number}", new["version"])
    old = _OLD_STYLE.fullmatch(text)
    if old:
        return ArxivId(text, f"{old['archive']}/{old['number']}", old["version"])
    raise BadSourceIdError(f"arXiv id {text!r}: not a valid arXiv identifier; {ID_FORMS}")


def parse_source_id(source_id: str) -> SourceRef:
    """Validate a source id; the one-line error says which forms are accepted."""
    scheme, sep, rest = source_id.partition(":")
    if not sep or scheme not in ("arxiv", "local"):
        raise BadSourceIdError(f"source id {source_id!r}: {ID_FORMS}")
    if scheme == "arxiv":
        ref = SourceRef(source_id, "arxiv", parse_arxiv_id(rest))
    elif _LOCAL_NAME.fullmatch(rest) and ".." not in rest:
        ref = SourceRef(source_id, "local")
    else:
        raise BadSourceIdError(
            f"source id {source_id!r}: a local name is 1-100 of [A-Za-z0-9._-], starts with a letter or digit"
            " and has no '..'"
        )
    safe_id(source_id)  # the last word on what may become a path
    return ref
