"""``litaudit fetch --file PATH --id local:NAME``: offline ingest with the same checks as a download."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from arxiv_server import make_pdf
from conftest import Invoke, json_out

from pipeline.fetch import ingest_file
from pipeline.fetch.pdf import EncryptedPdfError
from pipeline.settings import Settings
from pipeline.store import Workspace

SID = "local:paper"
PDF = make_pdf("Table 2: accuracy", pages=3, title="Local   Paper\nTitle", author="A. One; B. Two")


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def stored_files(ws: Workspace) -> list[str]:
    return sorted(p.relative_to(ws.sources_dir).as_posix() for p in ws.sources_dir.rglob("*") if p.is_file())


def test_local_pdf_is_recorded_from_its_own_metadata(invoke: Invoke, workspace: Workspace, tmp_path: Path) -> None:
    pdf = write(tmp_path, "paper.pdf", PDF)
    result = invoke("fetch", "--file", str(pdf), "--id", SID, "--json")
    assert result.exit_code == 0, result.output
    [line] = json_out(result)["sources"]
    assert (line["status"], line["path"]) == ("fetched", str(workspace.pdf_path(SID)))
    rec = json.loads(workspace.source_record_path(SID).read_text())
    assert (rec["title"], rec["authors"]) == ("Local Paper Title", ["A. One", "B. Two"])
    assert (rec["url"], rec["artifact_url"], rec["version"], rec["publication_status"]) == (None, None, None, None)
    assert (rec["sha256"], rec["size"], rec["page_count"]) == (hashlib.sha256(PDF).hexdigest(), len(PDF), 3)
    assert [(m["field"], m["reason"]) for m in rec["missing_metadata"]] == [
        ("url", "not-applicable"),
        ("version", "unknown"),
        ("published", "unknown"),
        ("publication_status", "unknown"),
        ("licence", "unreported"),
    ]
    assert workspace.pdf_path(SID).read_bytes() == PDF


def test_pdf_without_metadata_says_title_and_authors_are_missing(
    workspace: Workspace, settings: Settings, tmp_path: Path
) -> None:
    outcome = ingest_file(workspace, settings, write(tmp_path, "bare.pdf", make_pdf()), "local:bare", refresh=False)
    assert (outcome.source.title, outcome.source.authors) == (None, [])
    fields = [m.field for m in outcome.source.missing_metadata]
    assert fields[:2] == ["title", "authors"]


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (b"", "empty file, not a PDF"),
        (b"%PDF-1.4\n1 0 obj garbage", "PDF does not open (truncated or damaged"),
        (PDF[: len(PDF) // 2], "PDF does not open (truncated or damaged"),
        (b"<!DOCTYPE html><html><body>Moved</body></html>", "got an HTML page, not a PDF"),
        (b"PK\x03\x04 a zip file", "got bytes starting"),
        (make_pdf(encrypt="secret"), "encrypted PDF that needs a password to open"),
    ],
)
def test_unusable_files_are_refused_and_nothing_is_stored(
    invoke: Invoke, workspace: Workspace, tmp_path: Path, data: bytes, problem: str
) -> None:
    path = write(tmp_path, "bad.pdf", data)
    result = invoke("fetch", "--file", str(path), "--id", SID)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"litaudit: error: fetch {SID}: {path}: {problem}")
    assert result.stderr.count("\n") == 1
    assert stored_files(workspace) == []


def test_encrypted_pdf_has_its_own_error(workspace: Workspace, settings: Settings, tmp_path: Path) -> None:
    path = write(tmp_path, "locked.pdf", make_pdf(encrypt="secret"))
    with pytest.raises(EncryptedPdfError):
        ingest_file(workspace, settings, path, SID, refresh=False)


def test_file_over_the_size_limit(invoke: Invoke, workspace: Workspace, tmp_path: Path) -> None:
    path = write(tmp_path, "paper.pdf", PDF)
    result = invoke("fetch", "--file", str(path), "--id", SID, env={"LITAUDIT_MAX_PDF_BYTES": "1000"})
    assert result.exit_code == 1
    assert "larger than the limit of 1000 bytes" in result.stderr
    assert stored_files(workspace) == []


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (["--file", "{pdf}"], "--file PATH and --id local:NAME go together"),
        (["--id", SID], "--file PATH and --id local:NAME go together"),
        (["--file", "{pdf}", "--id", SID, "arxiv:2406.01627"], "go together, without other source ids"),
        (["--file", "{pdf}", "--id", "arxiv:2406.01627"], "--file ingests local:<name> ids"),
        (["--file", "{pdf}", "--id", "local:../../etc"], "has no '..'"),
        (["--file", "{missing}", "--id", SID], "missing.pdf: no such file"),
        (["--file", "{tmp}", "--id", SID], ": no such file"),
    ],
)
def test_bad_usage_is_exit_2(
    invoke: Invoke, workspace: Workspace, tmp_path: Path, args: list[str], problem: str
) -> None:
    values = {"pdf": str(write(tmp_path, "p.pdf", PDF)), "missing": str(tmp_path / "missing.pdf"), "tmp": str(tmp_path)}
    result = invoke("fetch", *[a.format(**values) for a in args])
    assert result.exit_code == 2
    assert problem in result.stderr
    assert "Traceback" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.pdf", "ws"]  # nothing escaped the workspace
    assert not workspace.sources_dir.exists() or stored_files(workspace) == []


def test_reingest_is_idempotent_and_refresh_verifies(invoke: Invoke, workspace: Workspace, tmp_path: Path) -> None:
    path = write(tmp_path, "paper.pdf", PDF)
    assert invoke("fetch", "--file", str(path), "--id", SID).exit_code == 0
    first = workspace.source_record_path(SID).read_bytes()
    again = invoke("fetch", "--file", str(path), "--id", SID, "--json")
    assert json_out(again)["sources"][0]["status"] == "already-present"
    assert workspace.source_record_path(SID).read_bytes() == first
    refreshed = invoke("fetch", "--file", str(path), "--id", SID, "--refresh", "--json")
    assert json_out(refreshed)["sources"][0]["status"] == "verified"
    [check] = json.loads(workspace.source_record_path(SID).read_text())["verifications"]
    assert (check["result"], check["sha256"]) == ("match", hashlib.sha256(PDF).hexdigest())


def test_a_different_file_under_the_same_id_never_replaces_the_stored_one(
    invoke: Invoke, workspace: Workspace, tmp_path: Path
) -> None:
    assert invoke("fetch", "--file", str(write(tmp_path, "v1.pdf", PDF)), "--id", SID).exit_code == 0
    other = make_pdf("Table 2: accuracy (revised)", pages=3)
    path = write(tmp_path, "v2.pdf", other)
    plain = invoke("fetch", "--file", str(path), "--id", SID)
    assert plain.exit_code == 0
    assert "differs" in plain.stdout and "not ingested" in plain.stdout
    refreshed = invoke("fetch", "--file", str(path), "--id", SID, "--refresh")
    assert refreshed.exit_code == 1
    sha = hashlib.sha256(other).hexdigest()
    assert stored_files(workspace) == [
        "local_paper/.fetch.state.json",
        "local_paper/rejected-" + sha[:12] + ".pdf",
        "local_paper/source.json",
        "local_paper/source.pdf",
    ]
    assert workspace.pdf_path(SID).read_bytes() == PDF


def test_local_id_without_a_file_is_not_fetchable(invoke: Invoke, tmp_path: Path) -> None:
    result = invoke("fetch", "local:never-ingested")
    assert result.exit_code == 2
    assert "(litaudit fetch --file PATH --id local:never-ingested)" in result.stderr
    assert invoke("fetch", "--file", str(write(tmp_path, "p.pdf", PDF)), "--id", SID).exit_code == 0
    assert invoke("fetch", SID).exit_code == 0  # present: nothing to read
    result = invoke("fetch", SID, "--refresh")
    assert result.exit_code == 2
    assert f"(litaudit fetch --file PATH --id {SID} --refresh)" in result.stderr


def test_damaged_local_copy_is_restored_by_a_refresh_from_the_file(
    invoke: Invoke, workspace: Workspace, tmp_path: Path
) -> None:
    path = write(tmp_path, "p.pdf", PDF)
    assert invoke("fetch", "--file", str(path), "--id", SID).exit_code == 0
    workspace.pdf_path(SID).unlink()
    result = invoke("fetch", "--file", str(path), "--id", SID)
    assert result.exit_code == 1
    assert f"'litaudit fetch --file PATH --id {SID} --refresh' restores it" in result.stderr
    result = invoke("fetch", "--file", str(path), "--id", SID, "--refresh")
    assert result.exit_code == 0, result.output
    assert workspace.pdf_path(SID).read_bytes() == PDF


@pytest.mark.parametrize(
    ("author", "names"),
    [
        ("Clara Hoffmann, Rahul Iyer and Sofia Marquez", ["Clara Hoffmann", "Rahul Iyer", "Sofia Marquez"]),
        ("A. One, B. Two, and C. Three", ["A. One", "B. Two", "C. Three"]),
        ("Ada Lovelace & Alan Turing", ["Ada Lovelace", "Alan Turing"]),
        ("Hoffmann, Clara", ["Hoffmann, Clara"]),
        ("Hoffmann, C.; Iyer, R.", ["Hoffmann, C.", "Iyer, R."]),
        ("anonymous", []),
    ],
)
def test_author_strings_are_split_into_names(
    workspace: Workspace, settings: Settings, tmp_path: Path, author: str, names: list[str]
) -> None:
    path = write(tmp_path, "a.pdf", make_pdf(author=author))
    assert ingest_file(workspace, settings, path, "local:a", refresh=False).source.authors == names
