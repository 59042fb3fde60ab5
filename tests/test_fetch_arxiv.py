"""Reading the arXiv API's Atom feed: metadata, latest version, and the HTTP-200 answers that mean 'no'."""

from __future__ import annotations

import pytest
from arxiv_server import atom_feed, empty_feed, error_feed

from pipeline.errors import BadInputError, FetchError, UnknownSourceError
from pipeline.fetch.arxiv import ArxivApiError, ArxivNotFoundError, AtomFeedError, abs_url, parse_feed, pdf_url
from pipeline.fetch.ids import parse_arxiv_id
from pipeline.settings import Settings

ORIGIN = "http://test/api/query?id_list=2406.01627"


def test_feed_gives_title_authors_dates_categories_and_latest_version() -> None:
    meta = parse_feed(atom_feed("2406.01627", "v3"), parse_arxiv_id("2406.01627"), ORIGIN)
    assert meta.version == "v3"
    assert meta.title == "A Benchmark of Genomic Foundation Models"  # hard wrap collapsed
    assert meta.authors == ["Ada Example", "Grace Sample"]
    assert (meta.published, meta.updated) == ("2024-06-03T17:52:29Z", "2024-06-20T09:15:02Z")
    assert meta.categories == ["q-bio.GN", "cs.LG"]  # primary category first


def test_feed_for_an_old_style_id_matches_its_canonical_form() -> None:
    meta = parse_feed(atom_feed("math/0309136", "v1"), parse_arxiv_id("math.GT/0309136"), ORIGIN)
    assert (meta.arxiv_id, meta.version) == ("math/0309136", "v1")


def test_feed_without_entry_means_unknown_paper() -> None:
    with pytest.raises(ArxivNotFoundError, match="arXiv has no such paper") as info:
        parse_feed(empty_feed("2406.99999"), parse_arxiv_id("2406.99999"), ORIGIN)
    assert isinstance(info.value, UnknownSourceError)


def test_error_entry_is_reported_with_arxivs_reason() -> None:
    with pytest.raises(ArxivApiError, match=r"rejected it \(incorrect id format for 2406.01627\)") as info:
        parse_feed(error_feed("2406.01627"), parse_arxiv_id("2406.01627"), ORIGIN)
    assert isinstance(info.value, BadInputError)


def test_entry_for_another_paper_or_version_is_not_accepted() -> None:
    with pytest.raises(ArxivNotFoundError, match="answered for"):
        parse_feed(atom_feed("2406.01628"), parse_arxiv_id("2406.01627"), ORIGIN)
    with pytest.raises(ArxivNotFoundError, match="knows v2, not v5"):
        parse_feed(atom_feed("2406.01627", "v2"), parse_arxiv_id("2406.01627v5"), ORIGIN)


@pytest.mark.parametrize(("body", "hint"), [("Rate exceeded.", "Rate exceeded."), ("<html><body/></html>", "html")])
def test_answer_that_is_not_an_atom_feed(body: str, hint: str) -> None:
    with pytest.raises(AtomFeedError, match="not an Atom feed") as info:
        parse_feed(body, parse_arxiv_id("2406.01627"), ORIGIN)
    assert isinstance(info.value, FetchError)
    assert ORIGIN in str(info.value)
    assert hint in str(info.value)


def test_urls_name_the_exact_version() -> None:
    arxiv = parse_arxiv_id("math.GT/0309136")
    settings = Settings(arxiv_pdf_base="http://mirror.test/pdf")
    assert pdf_url(settings, arxiv, "v2") == "http://mirror.test/pdf/math/0309136v2"
    assert abs_url(parse_arxiv_id("2406.01627"), "v2") == "https://arxiv.org/abs/2406.01627v2"
