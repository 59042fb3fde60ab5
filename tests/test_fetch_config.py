"""Source ids and config/sources.yaml: what is accepted, and the one-line errors for what is not."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.errors import BadSourceIdError, ConfigError
from pipeline.fetch import SourceEntry, load_source_entries, parse_source_id
from pipeline.store import Workspace


@pytest.mark.parametrize(
    ("source_id", "canonical", "version"),
    [
        ("arxiv:2406.01627", "2406.01627", None),
        ("arxiv:2406.01627v2", "2406.01627", "v2"),
        ("arxiv:0704.0001", "0704.0001", None),
        ("arxiv:1412.9999v10", "1412.9999", "v10"),
        ("arxiv:q-bio/0601001", "q-bio/0601001", None),
        ("arxiv:math.GT/0309136v1", "math/0309136", "v1"),
        ("arxiv:cond-mat.mes-hall/0211022", "cond-mat/0211022", None),
    ],
)
def test_valid_arxiv_ids_are_split_into_paper_and_version(source_id: str, canonical: str, version: str | None) -> None:
    ref = parse_source_id(source_id)
    assert ref.scheme == "arxiv"
    assert ref.arxiv is not None
    assert (ref.arxiv.canonical, ref.arxiv.version) == (canonical, version)


@pytest.mark.parametrize(
    "source_id",
    [
        "2406.01627",  # no scheme
        "arXiv:2406.01627",  # scheme is lower case
        "doi:10.1101/2024.01.01",
        "arxiv:2406.1627",  # 4 digits after 2015
        "arxiv:1412.01627",  # 5 digits before 2015
        "arxiv:0612.0001",  # before new-style ids began
        "arxiv:2413.01627",  # month 13
        "arxiv:2406.01627v0",
        "arxiv:2406.01627v",
        "arxiv:2406.01627 ",
        "arxiv:q-bio/060100",
        "arxiv:Q-BIO/0601001",
        "arxiv:../x",
        "arxiv:",
        "local:",
        "local:../../etc",
        "local:..",
        "local:/etc/passwd",
        "local:a/b",
        "local:.hidden",
        "local:" + "x" * 101,
    ],
)
def test_bad_and_path_traversal_ids_are_rejected(source_id: str) -> None:
    with pytest.raises(BadSourceIdError) as info:
        parse_source_id(source_id)
    message = str(info.value)
    assert "\n" not in message
    assert source_id.partition(":")[2] in message  # names what was wrong


def test_local_names_become_safe_folders(tmp_path: Path) -> None:
    source_id = parse_source_id("local:demo-paper_v1.2").id
    assert Workspace(tmp_path).source_dir(source_id).name == "local_demo-paper_v1.2"


def write_sources(ws: Workspace, text: str) -> None:
    (ws.config_dir / "sources.yaml").write_text(text, encoding="utf-8")


def test_missing_or_empty_sources_file_lists_nothing(workspace: Workspace) -> None:
    assert load_source_entries(workspace) == []
    write_sources(workspace, "# nothing yet\n")
    assert load_source_entries(workspace) == []


def test_entries_with_versions_pins_notes_and_bare_ids(workspace: Workspace) -> None:
    sha = "AB" * 32
    write_sources(
        workspace,
        f"""sources:
  - id: arxiv:2406.01627
    version: v2
    sha256: {sha}
    notes: GenBench
  - id: arxiv:2306.15006
    version: 3
  - arxiv:q-bio/0601001
  - local:demo
""",
    )
    assert load_source_entries(workspace) == [
        SourceEntry("arxiv:2406.01627", "v2", sha.lower(), "GenBench"),
        SourceEntry("arxiv:2306.15006", "v3"),
        SourceEntry("arxiv:q-bio/0601001"),
        SourceEntry("local:demo"),
    ]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("sources: [\n", "not valid YAML (line 2"),
        ("- arxiv:2406.01627\n", "expected a mapping with one key, 'sources'"),
        ("sources:\n  - id: arxiv:2406.01627\n    sha: abc\n", "entry 1 (arxiv:2406.01627): unknown key(s) sha"),
        ("sources:\n  - id: arxiv:2406.1627\n", "entry 1 (arxiv:2406.1627): arXiv id '2406.1627'"),
        ("sources:\n  - id: local:../../etc\n", "entry 1 (local:../../etc)"),
        ("sources:\n  - version: v2\n", "entry 1: 'id' is missing"),
        ("sources:\n  - id: arxiv:2406.01627\n    version: two\n", "version 'two' is not like 'v2'"),
        ("sources:\n  - id: arxiv:2406.01627v1\n    version: v2\n", "the id says v1 but version says v2"),
        ("sources:\n  - id: local:demo\n    version: v2\n", "only arXiv sources have versions"),
        ("sources:\n  - id: arxiv:2406.01627\n    sha256: 1234\n", "sha256 must be 64 hexadecimal digits"),
        ("sources:\n  - id: arxiv:2406.01627\n    notes: [a]\n", "notes must be text"),
        ("sources:\n  - arxiv:2406.01627\n  - arxiv:2406.01627\n", "entry 2 (arxiv:2406.01627): listed twice"),
        ("sources: arxiv:2406.01627\n", "'sources' must be a list"),
    ],
)
def test_bad_sources_file_is_one_line_naming_file_and_entry(workspace: Workspace, text: str, problem: str) -> None:
    write_sources(workspace, text)
    with pytest.raises(ConfigError) as info:
        load_source_entries(workspace)
    message = str(info.value)
    assert message.startswith(str(workspace.config_dir / "sources.yaml"))
    assert problem in message
    assert "\n" not in message
