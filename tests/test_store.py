"""The workspace store: safe ids, atomic writes, one-line read errors; and settings validation."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.errors import BadInputError, BadSourceIdError, ConfigError
from pipeline.settings import Settings
from pipeline.store import atomic_writer, read_json, read_jsonl, safe_id, write_json


@pytest.mark.parametrize(
    ("source_id", "expected"),
    [
        ("arxiv:2406.01627", "arxiv_2406.01627"),
        ("arxiv:2406.01627v2", "arxiv_2406.01627v2"),
        ("arxiv:q-bio/0601001", "arxiv_q-bio_0601001"),
        ("local:my paper", "local_my_paper"),
    ],
)
def test_safe_id_makes_plain_folder_names(source_id: str, expected: str) -> None:
    assert safe_id(source_id) == expected


@pytest.mark.parametrize("source_id", ["local:../../etc", "../x", "/etc/passwd", "local:..", "", " padded", "::"])
def test_safe_id_rejects_ids_that_escape_or_are_empty(source_id: str) -> None:
    with pytest.raises(BadSourceIdError):
        safe_id(source_id)


def test_atomic_writer_leaves_old_file_when_the_write_fails(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    write_json(target, {"kept": True})
    with pytest.raises(RuntimeError), atomic_writer(target) as fh:
        fh.write('{"half": ')
        raise RuntimeError("interrupted")
    assert read_json(target) == {"kept": True}
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]


def test_write_json_is_byte_stable(tmp_path: Path) -> None:
    write_json(tmp_path / "a.json", {"b": 1, "a": [1.5, "é"]})
    write_json(tmp_path / "b.json", {"a": [1.5, "é"], "b": 1})
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()


def test_read_errors_name_the_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(BadInputError, match=r"bad\.json: not valid JSON"):
        read_json(bad)
    lines = tmp_path / "rows.jsonl"
    lines.write_text('{"a": 1}\n{oops\n')
    with pytest.raises(BadInputError, match=r"rows\.jsonl:2: not valid JSON"):
        read_jsonl(lines)
    with pytest.raises(BadInputError, match="file not found"):
        read_json(tmp_path / "absent.json")


def test_settings_from_env_overrides_and_validates() -> None:
    settings = Settings.from_env(env={"LITAUDIT_TIMEOUT": "5", "LITAUDIT_ARXIV_PDF_BASE": "http://127.0.0.1:9/pdf/"})
    assert settings.timeout == 5.0
    assert settings.arxiv_pdf_base == "http://127.0.0.1:9/pdf/"
    assert settings.min_request_interval == 3.0
    with pytest.raises(ConfigError, match="LITAUDIT_RETRIES"):
        Settings.from_env(env={"LITAUDIT_RETRIES": "many"})
    with pytest.raises(ConfigError, match="arxiv_api_base"):
        Settings.from_env(env={"LITAUDIT_ARXIV_API_BASE": "ftp://example"})
    with pytest.raises(ConfigError, match="jobs"):
        Settings(jobs=0)


def test_bad_setting_in_environment_is_one_line_exit_2(invoke) -> None:
    result = invoke("status", env={"LITAUDIT_TIMEOUT": "soon"})
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "litaudit: error: environment LITAUDIT_TIMEOUT: 'soon' is not a number"
    ]
