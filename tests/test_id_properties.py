"""Round trips of the ids that name things on disk and in reports (hypothesis): folder names from source ids,
arXiv ids, cell locators."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pipeline.errors import BadLocatorError, BadSourceIdError
from pipeline.fetch.ids import parse_arxiv_id, parse_source_id
from pipeline.model import Locator, table_key
from pipeline.store import safe_id

# generation and checking are fast, but a loaded machine must not turn a property into a timing test
LOADED = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@LOADED
@given(st.text(min_size=1, max_size=40))
def test_safe_id_is_a_plain_folder_name_and_idempotent(source_id: str) -> None:
    try:
        name = safe_id(source_id)
    except BadSourceIdError:
        return  # refused with one line: empty, padded, escaping or nothing usable
    assert re.fullmatch(r"[A-Za-z0-9._-]+", name) and not name.startswith(".") and name not in (".", "..")
    assert safe_id(name) == name


@LOADED
@given(st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_-]{0,30}[A-Za-z0-9]", fullmatch=True))
def test_a_local_source_id_keeps_its_name_as_its_folder(name: str) -> None:
    assert parse_source_id(f"local:{name}").scheme == "local"
    assert safe_id(f"local:{name}") == f"local_{name}"
    assert safe_id(name) == name


@st.composite
def new_style_ids(draw: st.DrawFn) -> tuple[str, str, str | None]:
    year = draw(st.integers(7, 29))
    month = draw(st.integers(4 if year == 7 else 1, 12))
    yymm = f"{year:02d}{month:02d}"
    digits = 4 if yymm <= "1412" else 5
    number = f"{draw(st.integers(1, 10**digits - 1)):0{digits}d}"
    version = draw(st.one_of(st.none(), st.integers(1, 30).map(lambda v: f"v{v}")))
    return f"{yymm}.{number}{version or ''}", f"{yymm}.{number}", version


@LOADED
@given(new_style_ids())
def test_a_new_style_arxiv_id_splits_into_paper_and_version(case: tuple[str, str, str | None]) -> None:
    text, canonical, version = case
    parsed = parse_arxiv_id(text)
    assert (parsed.text, parsed.canonical, parsed.version) == (text, canonical, version)
    assert parsed.canonical + (parsed.version or "") == text
    assert parse_source_id(f"arxiv:{text}").arxiv == parsed


@LOADED
@given(
    st.sampled_from(["q-bio", "math", "cond-mat", "hep-th"]),
    st.one_of(st.none(), st.sampled_from([".GT", ".GN", ".stat-mech"])),
    st.integers(91, 107).map(lambda y: y % 100),
    st.integers(1, 12),
    st.integers(1, 999),
    st.one_of(st.none(), st.integers(1, 9).map(lambda v: f"v{v}")),
)
def test_an_old_style_arxiv_id_drops_its_subject_class(
    archive: str, subject: str | None, year: int, month: int, number: int, version: str | None
) -> None:
    text = f"{archive}{subject or ''}/{year:02d}{month:02d}{number:03d}{version or ''}"
    parsed = parse_arxiv_id(text)
    assert parsed.canonical == f"{archive}/{year:02d}{month:02d}{number:03d}"
    assert parsed.version == version


@LOADED
@given(st.integers(0, 6), st.integers(1, 12), st.integers(1, 9999))
def test_a_new_style_id_before_april_2007_is_refused(year: int, month: int, number: int) -> None:
    assume(f"{year:02d}{month:02d}" < "0704")
    with pytest.raises(BadSourceIdError):
        parse_arxiv_id(f"{year:02d}{month:02d}.{number:04d}")


locators = st.builds(
    Locator,
    source_sha256=st.from_regex(r"[0-9a-f]{64}", fullmatch=True),
    page=st.integers(1, 2000),
    table_label=st.one_of(st.none(), st.text(min_size=1, max_size=20)),
    table_index=st.integers(0, 200),
    row=st.integers(0, 500),
    col=st.integers(0, 100),
    row_label=st.text(max_size=10),
    col_label=st.text(max_size=10),
    panel=st.sampled_from(["", "(a)", "(b)"]),
)


@LOADED
@given(locators)
def test_a_locator_id_reads_back_as_the_locators_parts(locator: Locator) -> None:
    parsed = Locator.parse(locator.id)
    assert parsed == locator.key
    assert str(parsed) == locator.id
    assert (parsed.source, parsed.page, parsed.row, parsed.col) == (
        locator.source_sha256[:12],
        locator.page,
        locator.row,
        locator.col,
    )
    assert parsed.table == table_key(locator.table_label, locator.table_index, locator.panel)
    assert Locator.from_dict(locator.to_dict()) == locator


@pytest.mark.parametrize("text", ["", "abc", "abc:p1:Table3:r1", "abc:pX:Table3:r1:c2", "a:b:p1:T:r1:c2"])
def test_a_malformed_locator_id_is_one_error(text: str) -> None:
    with pytest.raises(BadLocatorError, match="locator"):
        Locator.parse(text)
