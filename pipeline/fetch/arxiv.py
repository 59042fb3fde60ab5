"""arXiv: where a paper version's PDF and metadata live, and reading the API's Atom feed.

The API answers HTTP 200 even for ids it does not know: the feed then has no entry, or one entry
titled "Error" whose id points at http://arxiv.org/api/errors. Both are caught here.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

from pipeline.errors import BadInputError, FetchError, UnknownSourceError
from pipeline.fetch.http import PoliteClient
from pipeline.fetch.ids import ArxivId, parse_arxiv_id
from pipeline.settings import Settings

ABS_BASE = "https://arxiv.org/abs/"
NS = {"atom": "http://www.w3.org/2005/Atom", "arxiv": "http://arxiv.org/schemas/atom"}
_ENTRY_ID = re.compile(r"/abs/(?P<id>.+?)(?P<version>v[1-9]\d*)$")


class ArxivNotFoundError(UnknownSourceError):
    """arXiv has no paper (or no such version) under this id."""


class ArxivApiError(BadInputError):
    """The API rejected the query (its feed holds an "Error" entry)."""


class AtomFeedError(FetchError):
    """The API answered something that is not an Atom feed (e.g. "Rate exceeded.")."""


@dataclass(frozen=True)
class ArxivMetadata:
    """What the arXiv API says about one paper version."""

    arxiv_id: str  # canonical, without version
    version: str  # "v2"
    title: str | None
    authors: list[str] = field(default_factory=list)
    published: str | None = None  # first version's submission time
    updated: str | None = None  # this version's submission time
    categories: list[str] = field(default_factory=list)  # primary category first


def pdf_url(settings: Settings, arxiv: ArxivId, version: str) -> str:
    return f"{settings.arxiv_pdf_base.rstrip('/')}/{arxiv.canonical}{version}"


def abs_url(arxiv: ArxivId, version: str) -> str:
    return f"{ABS_BASE}{arxiv.canonical}{version}"


def _text(element: ET.Element, path: str) -> str | None:
    found = element.find(path, NS)
    if found is None or found.text is None:
        return None
    return " ".join(found.text.split()) or None


def parse_feed(xml_text: str, arxiv: ArxivId, origin: str) -> ArxivMetadata:
    """The metadata of ``arxiv`` from an API answer; ``origin`` (the query URL) names it in errors."""
    try:
        feed = ET.fromstring(xml_text)
    except ET.ParseError:
        start = " ".join(xml_text.split())[:60]
        raise AtomFeedError(f"{origin}: not an Atom feed (starts {start!r})") from None
    if feed.tag != f"{{{NS['atom']}}}feed":
        raise AtomFeedError(f"{origin}: not an Atom feed (root element {feed.tag!r})")
    entries = feed.findall("atom:entry", NS)
    if not entries:
        raise ArxivNotFoundError(f"arXiv id {arxiv.text!r}: arXiv has no such paper (the API returned no entry)")
    entry = entries[0]
    entry_id = _text(entry, "atom:id") or ""
    title = _text(entry, "atom:title")
    authors = [name for a in entry.findall("atom:author", NS) if (name := _text(a, "atom:name"))]
    if "/api/errors" in entry_id or (title == "Error" and not authors):
        reason = _text(entry, "atom:summary") or entry_id
        raise ArxivApiError(f"arXiv id {arxiv.text!r}: the arXiv API rejected it ({reason})")
    match = _ENTRY_ID.search(entry_id)
    if match is None or parse_arxiv_id(match["id"]).canonical != arxiv.canonical:
        raise ArxivNotFoundError(f"arXiv id {arxiv.text!r}: the API answered for {entry_id or 'no id'!r} instead")
    if arxiv.version and match["version"] != arxiv.version:
        raise ArxivNotFoundError(f"arXiv id {arxiv.text!r}: the API knows {match['version']}, not {arxiv.version}")
    if title is None and not authors:
        raise ArxivNotFoundError(f"arXiv id {arxiv.text!r}: arXiv has no such paper (empty entry)")
    primary = entry.find("arxiv:primary_category", NS)
    categories = [c.get("term", "") for c in entry.findall("atom:category", NS) if c.get("term")]
    if primary is not None and primary.get("term"):
        categories = [primary.get("term", ""), *(c for c in categories if c != primary.get("term"))]
    return ArxivMetadata(
        arxiv_id=arxiv.canonical,
        version=match["version"],
        title=title,
        authors=authors,
        published=_text(entry, "atom:published"),
        updated=_text(entry, "atom:updated"),
        categories=categories,
    )


def fetch_metadata(client: PoliteClient, settings: Settings, arxiv: ArxivId, version: str | None) -> ArxivMetadata:
    """Ask the API about one paper; without a version it reports the latest one."""
    query = f"{arxiv.canonical}{version or ''}"
    url = settings.arxiv_api_base
    text = client.get_text(url, params={"id_list": query, "max_results": "1"})
    return parse_feed(text, ArxivId(arxiv.text, arxiv.canonical, version), f"{url}?id_list={query}")
