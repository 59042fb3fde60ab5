"""litaudit verify: tampering with a release (folder or archive) is found and each file named."""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
from conftest import json_out

from pipeline.release.freeze import write_tag_manifests
from pipeline.release.sample import SamplePaper, add_paper, write_catalogue
from pipeline.store import Workspace

DATE = "2025-03-01"
RECORDS = "data/sources/arxiv_2401.00001/records.jsonl"


@pytest.fixture
def release(invoke, workspace: Workspace) -> Path:
    write_catalogue(workspace)
    for i, sid in enumerate(("arxiv:2401.00001", "arxiv:2401.00002")):
        add_paper(workspace, SamplePaper(sid, seed=i))
    result = invoke("freeze", "--date", DATE, "--with-pdfs", "--json")
    assert result.exit_code == 0, result.stderr
    return Path(json_out(result)["path"])


def problems(invoke, target: Path, *args: str) -> tuple[int, list[tuple[str, str]]]:
    result = invoke("verify", str(target), "--json", *args)
    return result.exit_code, [(p["kind"], p["path"]) for p in json_out(result)["problems"]]


def flip_byte(path: Path, offset: int = 10) -> None:
    data = bytearray(path.read_bytes())
    data[offset] ^= 0x01
    path.write_bytes(bytes(data))


def test_untouched_release_verifies_as_folder_and_archive(invoke, release) -> None:
    for target in (release, release.with_name(release.name + ".tar.gz")):
        result = invoke("verify", str(target))
        assert result.exit_code == 0, result.stdout
        assert result.stdout.startswith(f"{target}: OK (")
        assert "every file re-hashed" in result.stdout


def test_flipped_byte_is_named(invoke, release) -> None:
    flip_byte(release / RECORDS)
    assert problems(invoke, release) == (1, [("changed", RECORDS)])


def test_flipped_byte_in_a_pdf_and_in_release_json(invoke, release) -> None:
    flip_byte(release / "data/sources/arxiv_2401.00002/source.pdf", offset=200)
    flip_byte(release / "release.json", offset=5)
    code, found = problems(invoke, release)
    assert code == 1
    assert ("changed", "data/sources/arxiv_2401.00002/source.pdf") in found
    assert ("changed", "release.json") in found


def test_deleted_and_added_files_are_named(invoke, release) -> None:
    (release / "data/sources/arxiv_2401.00002/findings.json").unlink()
    (release / "data/sources/arxiv_2401.00001/extra.csv").write_text("x\n")
    (release / "README.txt").write_text("added at the top\n")
    code, found = problems(invoke, release)
    assert code == 1
    assert found == [
        ("missing", "data/sources/arxiv_2401.00002/findings.json"),
        ("extra", "README.txt"),
        ("extra", "data/sources/arxiv_2401.00001/extra.csv"),
    ]
    text = invoke("verify", str(release)).stdout.splitlines()
    assert text[0].startswith(f"{release}: 3 problem(s) (")
    assert "missing  data/sources/arxiv_2401.00002/findings.json" in text


def test_deleted_tag_manifest_and_bagit_txt(invoke, release) -> None:
    (release / "tagmanifest-sha512.txt").unlink()
    assert problems(invoke, release) == (1, [("missing", "tagmanifest-sha512.txt")])
    (release / "bagit.txt").unlink()
    assert problems(invoke, release) == (1, [("missing", "bagit.txt")])


def test_consistently_rewritten_manifests_no_longer_give_the_id(invoke, release) -> None:
    """Someone swaps a file and rewrites every manifest to match: the release id gives it away."""
    target = release / RECORDS
    target.write_bytes(target.read_bytes().replace(b"0.", b"1.", 1))
    for alg in ("sha256", "sha512"):
        manifest = release / f"manifest-{alg}.txt"
        digest = hashlib.new(alg, target.read_bytes()).hexdigest()
        lines = [
            f"{digest}  {RECORDS}" if line.endswith(RECORDS) else line for line in manifest.read_text().splitlines()
        ]
        manifest.write_text("\n".join(lines) + "\n")
    write_tag_manifests(release)
    assert problems(invoke, release) == (1, [("changed", "manifest-sha256.txt")])


def test_review_edited_in_the_released_chain_is_named(invoke, workspace) -> None:
    write_catalogue(workspace)
    records = add_paper(workspace, SamplePaper("arxiv:2401.00001", seed=1))
    for record in records[:3]:
        invoke("review", "arxiv:2401.00001", record.id, "--accept", "--reviewer", "ann")
    out = json_out(invoke("freeze", "--date", DATE, "--json"))
    released = Path(out["path"]) / "data/sources/arxiv_2401.00001/reviews.jsonl"
    lines = released.read_text().splitlines(keepends=True)
    released.write_text(lines[0] + lines[1].replace("ann", "eve") + lines[2])
    assert problems(invoke, Path(out["path"])) == (1, [("changed", "data/sources/arxiv_2401.00001/reviews.jsonl")])


def test_fast_checks_only_the_oxum_and_says_so(invoke, release) -> None:
    flip_byte(release / RECORDS)  # same size: the Oxum cannot see it
    result = invoke("verify", str(release), "--fast")
    assert result.exit_code == 0
    assert "Payload-Oxum only, contents not re-hashed" in result.stdout
    assert json_out(invoke("verify", str(release), "--fast", "--json"))["check"].startswith("payload-oxum only")
    (release / "data/settings.json").unlink()
    result = invoke("verify", str(release), "--fast")
    assert result.exit_code == 1
    assert "Payload-Oxum validation failed" in result.stdout


def _archive_of(release: Path) -> Path:
    return release.with_name(release.name + ".tar.gz")


def test_truncated_archive_is_a_one_line_error_exit_1(invoke, release, tmp_path) -> None:
    data = _archive_of(release).read_bytes()
    truncated = tmp_path / f"{release.name}.tar.gz"
    truncated.write_bytes(data[: len(data) // 2])
    result = invoke("verify", str(truncated))
    assert result.exit_code == 1
    assert len(result.stderr.splitlines()) == 1
    assert "damaged archive" in result.stderr and str(truncated) in result.stderr


def verify_cli(archive: Path) -> subprocess.CompletedProcess[str]:
    """``litaudit verify ARCHIVE --json`` as a script runs it."""
    command = [sys.executable, "-m", "pipeline", "verify", str(archive), "--json"]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def assert_damaged(archive: Path, check: str) -> None:
    result = verify_cli(archive)
    assert result.returncode == 1, result.stdout
    [line] = result.stderr.splitlines()
    assert line.startswith(f"litaudit: error: {archive}: damaged archive: its {check} check failed"), line
    assert json.loads(result.stdout)["ok"] is False and "missing" not in result.stdout


@pytest.mark.parametrize("where", [0.25, 0.5, 0.75, 0.999])
def test_one_flipped_byte_in_an_archive_is_a_damaged_archive_not_missing_files(release, tmp_path, where) -> None:
    damaged = tmp_path / f"{release.name}.tar.gz"
    shutil.copy(_archive_of(release), damaged)
    flip_byte(damaged, int(damaged.stat().st_size * where))
    assert_damaged(damaged, "gzip")


def test_a_corrupt_entry_header_inside_a_sound_gzip_stream_fails_the_tar_check(release, tmp_path) -> None:
    tar_bytes = bytearray(gzip.decompress(_archive_of(release).read_bytes()))
    with tarfile.open(fileobj=io.BytesIO(bytes(tar_bytes))) as tar:
        later = tar.getmembers()[len(tar.getmembers()) // 2]  # tarfile reads a bad header after the first as the end
    tar_bytes[later.offset + 5] ^= 0x01  # a byte of its name: the header's checksum no longer holds
    damaged = tmp_path / f"{release.name}.tar.gz"
    damaged.write_bytes(gzip.compress(bytes(tar_bytes)))
    assert_damaged(damaged, "tar")


def test_tampered_archive_names_the_file(invoke, release, tmp_path) -> None:
    """Unpack, change one released record, pack again: verify names that record."""
    unpacked = tmp_path / "unpacked"
    with tarfile.open(_archive_of(release), "r:gz") as tar:
        tar.extractall(unpacked, filter="data")
    flip_byte(unpacked / release.name / RECORDS)
    tampered = tmp_path / f"{release.name}.tar.gz"
    with tarfile.open(tampered, "w:gz") as tar:
        tar.add(unpacked / release.name, arcname=release.name)
    assert problems(invoke, tampered) == (1, [("changed", RECORDS)])


def _unsafe_entry(kind: str, top: str) -> tarfile.TarInfo:
    if kind == "symlink":
        entry = tarfile.TarInfo(f"{top}/data/link")
        entry.type, entry.linkname = tarfile.SYMTYPE, "/etc/passwd"
        return entry
    names = {"dotdot": f"{top}/../escaped.txt", "absolute": "/tmp/escaped.txt", "two-folders": "other/file.txt"}
    return tarfile.TarInfo(names[kind])


@pytest.mark.parametrize("kind", ["dotdot", "absolute", "symlink", "two-folders"])
def test_archive_with_unsafe_entries_is_refused(invoke, release, tmp_path, kind) -> None:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        tar.add(release, arcname=release.name)
        tar.addfile(_unsafe_entry(kind, release.name), io.BytesIO(b""))
    archive = tmp_path / f"{kind}.tar.gz"
    archive.write_bytes(gzip.compress(buffer.getvalue()))
    result = invoke("verify", str(archive))
    assert result.exit_code == 1, result.stdout
    assert len(result.stderr.splitlines()) == 1
    assert not (tmp_path / "escaped.txt").exists() and not Path("/tmp/escaped.txt").exists()


def test_not_a_release_is_exit_2(invoke, tmp_path) -> None:
    assert invoke("verify", str(tmp_path / "missing")).exit_code == 2
    (tmp_path / "plain").mkdir()
    result = invoke("verify", str(tmp_path / "plain"))
    assert result.exit_code == 2 and "not a release folder" in result.stderr
    (tmp_path / "notes.txt").write_text("hello")
    assert invoke("verify", str(tmp_path / "notes.txt")).exit_code == 2


def test_renamed_release_folder_is_flagged(invoke, release, tmp_path) -> None:
    moved = tmp_path / "2025-03-01-000000000000"
    shutil.copytree(release, moved)
    code, found = problems(invoke, moved)
    assert code == 1
    assert ("changed", "manifest-sha256.txt") in found and ("invalid", "release.json") in found
