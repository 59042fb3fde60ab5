"""The workspace on disk: where each stage's files live, and safe ways to write them.

Every write goes to a temporary file in the same folder and is renamed into place, so an interrupted
stage never leaves a half-written file and nothing already stored is lost.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import orjson

from pipeline.errors import BadInputError, BadSourceIdError, BrokenSourceRecordError, StageInputMissingError
from pipeline.model import Record, TablesFile

T = TypeVar("T")

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_SHA256 = re.compile(r"[0-9a-f]{64}")
TEMP_SUFFIXES = (".tmp", ".part")  # what atomic writes and downloads leave behind when killed mid-write
# the files a source's artifacts are stored as, one per kind (pipeline/fetch/kinds.py says which is which)
ARTIFACT_FILES = (
    "source.pdf",
    "source.tar.gz",
    "source.tex.gz",
    "source.tex",
    "source.html",
    "source.md",
)


def safe_id(source_id: str) -> str:
    """A folder name for a source id: never absolute, never ``..``, only [A-Za-z0-9._-]."""
    if not source_id or source_id != source_id.strip():
        raise BadSourceIdError(f"source id {source_id!r}: empty or padded with spaces")
    if "\x00" in source_id or ".." in source_id.replace(":", "/").split("/") or source_id.startswith(("/", "\\")):
        raise BadSourceIdError(f"source id {source_id!r}: would escape the workspace")
    name = _UNSAFE.sub("_", source_id).strip("._")
    if not name:
        raise BadSourceIdError(f"source id {source_id!r}: has no usable characters")
    return name


FILE_MODE = 0o644  # mkstemp's 0600 would make shared workspaces and releases unreadable to others


def remove_leftovers(folder: Path) -> list[Path]:
    """Delete the temporary files a killed writer left in ``folder`` (never a finished file)."""
    removed = []
    if folder.is_dir():
        for path in folder.glob(".*"):
            if path.is_file() and path.name.endswith(TEMP_SUFFIXES):
                path.unlink(missing_ok=True)
                removed.append(path)
    return removed


def sha256_file(path: Path, chunk: int = 1 << 20) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(chunk), b""):
            digest.update(block)
    return digest.hexdigest()


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@contextmanager
def atomic_writer(path: Path, mode: str = "w") -> Iterator[Any]:
    """Yield a file handle; the file appears at ``path`` only if the block completes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.fchmod(fd, FILE_MODE)
    try:
        with os.fdopen(fd, mode, **({"encoding": "utf-8", "newline": "\n"} if "b" not in mode else {})) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_text(path: Path, text: str) -> None:
    with atomic_writer(path) as fh:
        fh.write(text)


def write_bytes(path: Path, data: bytes) -> None:
    with atomic_writer(path, "wb") as fh:
        fh.write(data)


_CANONICAL = orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS | orjson.OPT_APPEND_NEWLINE


def dumps(data: Any) -> str:
    """Canonical JSON: sorted keys, two-space indent, UTF-8, trailing newline (byte-stable re-runs). Written
    by orjson: the json module's C encoder does not indent, and its Python one took a twentieth of extraction."""
    return orjson.dumps(data, option=_CANONICAL).decode("utf-8")


def write_json(path: Path, data: Any) -> None:
    write_bytes(path, orjson.dumps(data, option=_CANONICAL))


def jsonl_text(rows: list[dict[str, Any]]) -> str:
    """JSON lines with sorted keys: one canonical form for every .jsonl file litaudit writes."""
    return "".join(json.dumps(r, sort_keys=True, ensure_ascii=False) + "\n" for r in rows)


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> None:
    write_text(path, jsonl_text(rows))


def read_json(path: Path) -> Any:
    """Read a JSON file, turning every failure into one line naming the file."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BadInputError(f"{path}: file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInputError(f"{path}: cannot read ({exc})") from None
    except json.JSONDecodeError as exc:
        raise BadInputError(f"{path}: not valid JSON (line {exc.lineno}: {exc.msg})") from None


def read_findings(path: Path) -> list[dict[str, Any]]:
    """The findings of a findings.json ([] without one): the audit's object holding them, or a bare list."""
    if not path.is_file():
        return []
    data = read_json(path)
    items = data.get("findings", []) if isinstance(data, dict) else data
    if not isinstance(items, list) or not all(isinstance(f, dict) and isinstance(f.get("id"), str) for f in items):
        raise BadInputError(f"{path}: not a findings file (expected a list of findings, each with an id)")
    return items


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise BadInputError(f"{path}: file not found") from None
    rows = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise BadInputError(f"{path}:{number}: not valid JSON ({exc.msg})") from None
    return rows


def read_stage_file(path: Path, from_dict: Callable[[Any], T], what: str, made_by: str) -> T:
    """A stage's JSON output as its dataclass: a missing file names the command that makes it, a malformed
    one is a BadInputError naming the file."""
    if not path.is_file():
        raise StageInputMissingError(f"{path}: not found; run 'litaudit {made_by}' first")
    data = read_json(path)
    try:
        return from_dict(data)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise BadInputError(f"{path}: not a {what} file ({type(exc).__name__}: {exc})") from None


def read_tables(path: Path) -> TablesFile:
    """tables.json as the extractor wrote it."""
    return read_stage_file(path, TablesFile.from_dict, "tables", "extract")


def read_record_rows(path: Path) -> list[dict[str, Any]]:
    """A records.jsonl as rows, each checked to load as a :class:`Record` with an id (bad rows name the line)."""
    rows = read_jsonl(path)
    for number, row in enumerate(rows, 1):
        try:
            if not isinstance(row, dict) or not isinstance(row.get("id"), str) or not row["id"]:
                raise ValueError("no record id")
            Record.from_dict(row)
        except (KeyError, TypeError, ValueError) as exc:
            raise BadInputError(f"{path}:{number}: not a record ({exc})") from None
    return rows


def read_records(path: Path) -> list[Record]:
    return [Record.from_dict(row) for row in read_record_rows(path)]


def read_source_record(path: Path) -> dict[str, Any]:
    """A source.json, checked for what every stage relies on: an id naming its folder, and a SHA-256."""
    data = read_json(path)
    if not isinstance(data, dict):
        raise BrokenSourceRecordError(f"{path}: not a JSON object")
    source_id = data.get("id")
    if not isinstance(source_id, str) or not source_id:
        raise BrokenSourceRecordError(f"{path}: has no 'id'")
    try:
        folder = safe_id(source_id)
    except BadSourceIdError as exc:
        raise BrokenSourceRecordError(f"{path}: {exc}") from None
    if folder != path.parent.name:
        raise BrokenSourceRecordError(f"{path}: its id {source_id!r} belongs in sources/{folder}/")
    if not isinstance(data.get("sha256"), str) or not _SHA256.fullmatch(data["sha256"]):
        raise BrokenSourceRecordError(f"{path}: 'sha256' is missing or not 64 lowercase hexadecimal digits")
    _check_artifacts(path, data.get("artifacts", []), folder, data["sha256"])
    return data


def _check_artifacts(path: Path, artifacts: Any, folder: str, sha256: str) -> None:
    """Each listed artifact is a stored file of this source (never a path elsewhere) with its own SHA-256;
    a record of an older litaudit lists none."""
    if not isinstance(artifacts, list):
        raise BrokenSourceRecordError(f"{path}: 'artifacts' is not a list")
    allowed = {f"sources/{folder}/{name}" for name in ARTIFACT_FILES}
    for number, artifact in enumerate(artifacts, 1):
        if not isinstance(artifact, dict) or artifact.get("path") not in allowed:
            raise BrokenSourceRecordError(f"{path}: artifact {number} is not one of this source's stored files")
        if not isinstance(artifact.get("sha256"), str) or not _SHA256.fullmatch(artifact["sha256"]):
            raise BrokenSourceRecordError(f"{path}: artifact {number} has no valid 'sha256'")
    if artifacts and artifacts[0]["sha256"] != sha256:
        raise BrokenSourceRecordError(f"{path}: the first artifact is not the one whose 'sha256' the record carries")


@dataclass(frozen=True)
class SourceScan:
    """The fetched sources, and the folders whose source.json is broken (folder name -> the problem)."""

    ids: list[str]
    broken: dict[str, str]


@dataclass(frozen=True)
class Workspace:
    """The folders of one litaudit project (``sources/``, ``extracted/``, ``audits/``, ``config/``)."""

    root: Path

    @property
    def sources_dir(self) -> Path:
        return self.root / "sources"

    @property
    def extracted_root(self) -> Path:
        return self.root / "extracted"

    @property
    def audits_root(self) -> Path:
        return self.root / "audits"

    @property
    def config_dir(self) -> Path:
        return self.root / "config"

    @property
    def releases_dir(self) -> Path:
        return self.root / "releases"

    def source_dir(self, source_id: str) -> Path:
        return self.sources_dir / safe_id(source_id)

    def source_record_path(self, source_id: str) -> Path:
        return self.source_dir(source_id) / "source.json"

    def pdf_path(self, source_id: str) -> Path:
        return self.source_dir(source_id) / "source.pdf"

    def extracted_dir(self, source_id: str) -> Path:
        return self.extracted_root / safe_id(source_id)

    def audits_dir(self, source_id: str) -> Path:
        return self.audits_root / safe_id(source_id)

    def scan_sources(self) -> SourceScan:
        """Every fetched source in folder order; a broken record is set aside, never blocking the others."""
        ids: list[str] = []
        broken: dict[str, str] = {}
        if self.sources_dir.is_dir():
            for record in sorted(self.sources_dir.glob("*/source.json")):
                try:
                    ids.append(read_source_record(record)["id"])
                except BadInputError as exc:
                    broken[record.parent.name] = str(exc)
        return SourceScan(ids, broken)
