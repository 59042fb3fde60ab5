"""litaudit freeze: a BagIt release with a reproducible id and archive; stale or empty sources refused."""

from __future__ import annotations

import hashlib
import json
import shutil
import tarfile
from pathlib import Path

import bagit
import pytest
from conftest import json_out

from pipeline.release.records import read_source_records
from pipeline.release.sample import SamplePaper, add_paper, write_catalogue
from pipeline.reviews import record_decision, reviews_path
from pipeline.store import Workspace, write_json

IDS = ("arxiv:2401.00001", "arxiv:2401.00002")
DATE = "2025-03-01"


@pytest.fixture
def papers(workspace: Workspace) -> dict[str, list]:
    write_catalogue(workspace)
    return {sid: add_paper(workspace, SamplePaper(sid, seed=i)) for i, sid in enumerate(IDS)}


def freeze_ok(invoke, *args: str) -> dict:
    result = invoke("freeze", "--date", DATE, "--json", *args)
    assert result.exit_code == 0, result.stderr
    return json_out(result)


def release_files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_freeze_writes_a_valid_bag_and_archive(invoke, workspace, papers) -> None:
    out = freeze_ok(invoke)
    folder = Path(out["path"])
    manifest = (folder / "manifest-sha256.txt").read_bytes()
    assert out["id"] == f"{DATE}-{hashlib.sha256(manifest).hexdigest()[:12]}" == folder.name
    assert Path(out["archive"]) == workspace.releases_dir / f"{out['id']}.tar.gz"
    bag = bagit.Bag(str(folder))
    bag.validate()  # the library's own full check agrees
    assert bag.info["Bagging-Date"] == DATE
    assert set(bag.algorithms) == {"sha256", "sha512"}
    payload = sorted(bag.payload_entries())
    sid = "arxiv_2401.00001"
    assert payload == sorted(
        [f"data/sources/{s}/{name}" for s in (sid, "arxiv_2401.00002") for name in ("source.json", "records.jsonl")]
        + [f"data/sources/{s}/findings.json" for s in (sid, "arxiv_2401.00002")]
        + ["data/config/catalogue/datasets.yaml", "data/settings.json"]
    )
    release = json.loads((folder / "release.json").read_text())
    assert release["id"] == out["id"] and release["date"] == DATE
    assert release["tool"]["name"] == "litaudit" and release["tool"]["version"]
    assert release["counts"]["records"] == 24 and release["counts"]["findings"] == 2
    assert release["counts"]["review_status"] == {"catalogued": 24}
    settings = json.loads((folder / "data/settings.json").read_text())
    assert "root" not in settings and settings["retries"] == 2
    tag_lines = (folder / "tagmanifest-sha256.txt").read_text().splitlines()
    assert [line.split()[1] for line in tag_lines] == sorted(line.split()[1] for line in tag_lines)
    assert "release.json" in (folder / "tagmanifest-sha512.txt").read_text()


def test_same_inputs_give_the_same_id_and_identical_bytes(invoke, workspace, papers, tmp_path) -> None:
    copy = tmp_path / "elsewhere" / "ws"
    shutil.copytree(workspace.root, copy)
    first = freeze_ok(invoke)
    second = invoke("--root", str(copy), "freeze", "--date", DATE, "--json")  # another path, same inputs
    assert second.exit_code == 0, second.stderr
    second_out = json_out(second)
    assert second_out["id"] == first["id"]
    assert release_files(Path(first["path"])) == release_files(Path(second_out["path"]))
    assert Path(first["archive"]).read_bytes() == Path(second_out["archive"]).read_bytes()
    again = freeze_ok(invoke)
    assert again["already_frozen"] is True and again["id"] == first["id"]


def test_archive_is_normalised(invoke, papers) -> None:
    out = freeze_ok(invoke)
    raw = Path(out["archive"]).read_bytes()
    assert raw[:3] == b"\x1f\x8b\x08" and raw[3] & 0x08 == 0  # gzip, no file name stored
    assert raw[4:8] == b"\0\0\0\0"  # gzip mtime 0
    with tarfile.open(out["archive"], "r:gz") as tar:
        members = tar.getmembers()
    names = [m.name for m in members]
    assert names == sorted(names) and names[0] == out["id"]
    midnight = 1740787200  # 2025-03-01T00:00:00Z
    assert {(m.mtime, m.uid, m.gid, m.uname, m.gname) for m in members} == {(midnight, 0, 0, "", "")}
    assert {m.mode for m in members if m.isfile()} == {0o644}
    assert {m.mode for m in members if m.isdir()} == {0o755}


def test_a_different_date_keeps_the_hash_but_not_the_id(invoke, papers) -> None:
    a = freeze_ok(invoke)
    b = json_out(invoke("freeze", "--json", env={"LITAUDIT_RELEASE_DATE": "2025-04-02"}))
    assert b["id"] == "2025-04-02-" + a["id"][-12:]


def test_reviews_are_applied_and_the_log_is_released(invoke, workspace, papers) -> None:
    sid = IDS[0]
    ids = [r.id for r in papers[sid]]
    known = read_source_records(workspace, sid).ids()
    record_decision(workspace, sid, ids[0], "accept", known=known, reviewer="ann")
    record_decision(workspace, sid, ids[1], "correct", known=known, value=0.123, reviewer="ann", note="misprint")
    record_decision(workspace, sid, ids[2], "reject", known=known, reviewer="bob")
    finding = f"{sid}:bold-not-best:1"  # the sample paper's one finding
    record_decision(workspace, sid, finding, "dismiss", known={finding}, kind="finding", reviewer="bob", note="a tie")
    human = invoke("freeze", "--date", DATE)
    assert "undecided: 21 records, 1 findings" in human.stdout  # the other paper's finding is still open
    out = freeze_ok(invoke)
    assert out["counts"]["findings"] == 2 and out["counts"]["findings_undecided"] == 1
    folder = Path(out["path"]) / "data/sources/arxiv_2401.00001"
    rows = {r["id"]: r for r in map(json.loads, (folder / "records.jsonl").read_text().splitlines())}
    assert rows[ids[0]]["review_status"] == "source checked"
    corrected = rows[ids[1]]
    assert corrected["review_status"] == "corrected" and corrected["corrected_value"] == 0.123
    assert corrected["printed"] == papers[sid][1].printed and corrected["value"] == papers[sid][1].value
    assert corrected["review"]["note"] == "misprint" and corrected["review"]["reviewer"] == "ann"
    assert rows[ids[2]]["review_status"] == "rejected"
    assert rows[ids[3]]["review_status"] == "catalogued" and rows[ids[3]]["review"] is None
    assert (folder / "reviews.jsonl").read_bytes() == reviews_path(workspace, sid).read_bytes()
    assert out["counts"]["review_status"] == {"catalogued": 21, "corrected": 1, "rejected": 1, "source checked": 1}


def test_broken_review_chain_blocks_the_freeze(invoke, workspace, papers) -> None:
    sid = IDS[0]
    known = read_source_records(workspace, sid).ids()
    for record in papers[sid][:3]:
        record_decision(workspace, sid, record.id, "accept", known=known, reviewer="ann")
    path = reviews_path(workspace, sid)
    lines = path.read_text().splitlines(keepends=True)
    path.write_text(lines[0] + lines[2])
    result = invoke("freeze", "--date", DATE)
    assert result.exit_code == 1
    assert f"{path}:2: chain broken" in result.stderr
    assert not workspace.releases_dir.exists()


def test_with_pdfs_includes_the_pdfs(invoke, workspace, papers) -> None:
    out = freeze_ok(invoke, "--with-pdfs")
    pdf = Path(out["path"]) / "data/sources/arxiv_2401.00001/source.pdf"
    assert pdf.read_bytes() == workspace.pdf_path(IDS[0]).read_bytes()
    assert pdf.read_bytes().startswith(b"%PDF")
    assert out["counts"]["pdfs"] == 2


def test_unaudited_source_falls_back_to_emitted_records_and_says_so(invoke, workspace, papers) -> None:
    add_paper(workspace, SamplePaper("local:draft", seed=9, audited=False))
    out = freeze_ok(invoke)
    assert out["notes"] == ["local:draft: not audited; records taken from extracted/local_draft/records.jsonl"]
    release = json.loads((Path(out["path"]) / "release.json").read_text())
    draft = next(s for s in release["sources"] if s["id"] == "local:draft")
    assert draft["audited"] is False and draft["records"] == 12
    assert release["notes"] == out["notes"]


def test_stale_sources_are_refused_naming_each(invoke, workspace, papers) -> None:
    workspace.pdf_path(IDS[0]).write_bytes(b"%PDF-1.4 replaced after fetching")
    extracted = workspace.extracted_dir(IDS[1])
    write_json(extracted / "tables.json", {"tables": []})
    state = {"tool_version": "0.1.0", "inputs": {"sources/arxiv_2401.00002/source.pdf": "0" * 64}}
    write_json(extracted / ".extract.state.json", state)
    result = invoke("freeze", "--date", DATE)
    assert result.exit_code == 1
    assert len(result.stderr.splitlines()) == 1
    assert "arxiv:2401.00001: fetch is modified (sources/arxiv_2401.00001/source.pdf)" in result.stderr
    assert "run 'litaudit fetch --refresh arxiv:2401.00001'" in result.stderr
    assert "arxiv:2401.00002: extract is stale" in result.stderr
    assert not workspace.releases_dir.exists()  # refused before anything is written


def test_source_without_records_is_refused_unless_left_out(invoke, workspace, papers) -> None:
    add_paper(workspace, SamplePaper("local:empty", seed=3, audited=False))
    shutil.rmtree(workspace.extracted_dir("local:empty"))
    result = invoke("freeze", "--date", DATE)
    assert result.exit_code == 1
    assert "local:empty: has no records" in result.stderr
    out = freeze_ok(invoke, "--id", IDS[0], "--id", IDS[1])
    assert out["counts"]["sources"] == 2


def test_bad_date_unknown_id_and_empty_workspace_are_exit_2(invoke, papers, tmp_path) -> None:
    assert invoke("freeze", "--date", "2025-02-30").exit_code == 2
    assert invoke("freeze", "--date", "20250301").exit_code == 2
    unknown = invoke("freeze", "--date", DATE, "--id", "arxiv:9999.0001")
    assert unknown.exit_code == 2 and "not fetched" in unknown.stderr
    empty = invoke("--root", str(tmp_path / "empty"), "freeze", "--date", DATE)
    assert empty.exit_code == 2 and "nothing to freeze" in empty.stderr


def test_existing_release_that_differs_is_not_overwritten(invoke, workspace, papers) -> None:
    out = freeze_ok(invoke)
    tagmanifest = Path(out["path"]) / "tagmanifest-sha256.txt"
    tagmanifest.write_text(tagmanifest.read_text() + "0" * 64 + "  notes.txt\n")
    result = invoke("freeze", "--date", DATE)
    assert result.exit_code == 1
    assert "exists but differs" in result.stderr
    assert tagmanifest.read_text().endswith("notes.txt\n")


def test_interrupted_freeze_leaves_no_half_written_release(invoke, workspace, papers, monkeypatch) -> None:
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(bagit, "make_bag", interrupted)
    result = invoke("freeze", "--date", DATE)
    assert result.exit_code == 130
    assert list(workspace.releases_dir.iterdir()) == []
