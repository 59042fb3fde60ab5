"""Reading labelled DNA sequences: ``text,label,split`` CSV (GENEB, GUE) or ``seq<TAB>label`` TSV, gzip or not.

Every row is checked (alphabet, length, label, split) and a bad one is reported with its line number,
so a broken download is caught before hours of embedding. Lower-case (soft-masked) bases are upper-cased.
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import io
import itertools
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.errors import BadInputError
from pipeline.store import sha256_file

SEQUENCE_COLUMNS = ("text", "seq", "sequence")
SPLITS = {"train": "train", "test": "test", "dev": "dev", "valid": "dev", "validation": "dev", "val": "dev"}
_ALPHABET = re.compile(r"[ACGTN]+")
_LABEL = re.compile(r"\S+")


class DataFileError(BadInputError):
    """A sequence file is unreadable or has a bad row (the message names the file and line)."""


@dataclass(frozen=True)
class DataRules:
    """What a valid row looks like; protocols may narrow lengths and labels per dataset."""

    min_length: int = 1
    max_length: int | None = None
    labels: tuple[str, ...] = ()  # allowed labels; empty: any label without spaces


@dataclass
class SequenceTable:
    """The rows of one sequence file; ``ids`` are content hashes, so they survive reordering of the file."""

    path: str
    sha256: str
    ids: list[str] = field(default_factory=list)
    sequences: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    splits: list[str] = field(default_factory=list)

    def indices(self, split: str) -> list[int]:
        return [i for i, s in enumerate(self.splits) if s == split]

    def split_counts(self) -> dict[str, int]:
        return dict(sorted(Counter(self.splits).items()))


def item_ids(sequences: list[str]) -> list[str]:
    """A stable id per row: the sequence's hash, with ``~N`` added to the N-th repeat of a sequence."""
    seen: Counter[str] = Counter()
    ids = []
    for seq in sequences:
        digest = hashlib.sha256(seq.encode("ascii")).hexdigest()[:20]
        seen[digest] += 1
        ids.append(digest if seen[digest] == 1 else f"{digest}~{seen[digest]}")
    return ids


def _open_text(path: Path) -> io.TextIOBase:
    with open(path, "rb") as fh:
        gzipped = fh.read(2) == b"\x1f\x8b"
    if gzipped:
        return io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8", newline="")
    return open(path, encoding="utf-8", newline="")


def _rows(path: Path) -> Iterator[tuple[int, dict[str, str]]]:
    """(line number, row) with keys ``sequence``, ``label`` and ``split`` (when the file has one)."""
    with _open_text(path) as fh:
        first = fh.readline()
        reader = csv.reader(itertools.chain([first], fh), delimiter="\t" if "\t" in first else ",")
        head = next(reader, [])
        keys = [h.strip().lower() for h in head]
        if "label" in keys or (keys and keys[0] in SEQUENCE_COLUMNS):
            seq_col = next((c for c in SEQUENCE_COLUMNS if c in keys), None)
            if seq_col is None or "label" not in keys:
                raise DataFileError(f"{path}:1: header needs a sequence column (text/seq) and a label column")
            names = [{seq_col: "sequence"}.get(k, k) for k in keys]
            needed = len(names)
            rows: Iterator[list[str]] = reader
        else:
            names, needed = ["sequence", "label", "split"], 2
            rows = itertools.chain([head], reader)
        for values in rows:
            line = reader.line_num
            if not values or (len(values) == 1 and not values[0].strip()):
                continue
            if len(values) < needed:
                raise DataFileError(f"{path}:{line}: expected {needed} fields, found {len(values)}")
            yield line, dict(zip(names, values, strict=False))  # fields past the header are ignored


def _check(path: Path, line: int, row: dict[str, str], rules: DataRules) -> tuple[str, str, str]:
    seq = row["sequence"].strip().upper()
    if not _ALPHABET.fullmatch(seq):
        bad = sorted(set(seq) - set("ACGTN")) if seq else []
        problem = f"characters {''.join(bad)!r} outside ACGTN" if seq else "empty sequence"
        raise DataFileError(f"{path}:{line}: {problem}")
    if len(seq) < rules.min_length or (rules.max_length is not None and len(seq) > rules.max_length):
        upper = rules.max_length if rules.max_length is not None else "any"
        raise DataFileError(f"{path}:{line}: sequence length {len(seq)} outside {rules.min_length}..{upper}")
    label = row["label"].strip()
    if not _LABEL.fullmatch(label) or (rules.labels and label not in rules.labels):
        allowed = f" (allowed: {', '.join(rules.labels)})" if rules.labels else ""
        raise DataFileError(f"{path}:{line}: bad label {label!r}{allowed}")
    raw_split = row.get("split", "test").strip().lower() or "test"
    if raw_split not in SPLITS:
        raise DataFileError(f"{path}:{line}: unknown split {raw_split!r} (expected train, dev or test)")
    return seq, label, SPLITS[raw_split]


def read_sequences(path: Path, rules: DataRules | None = None) -> SequenceTable:
    """Every row of a sequence file, validated; rows without a split column count as ``test``."""
    rules = rules or DataRules()
    if not path.is_file():
        raise DataFileError(f"{path}: file not found")
    table = SequenceTable(path=str(path), sha256=sha256_file(path))
    try:
        for line, row in _rows(path):
            seq, label, split = _check(path, line, row, rules)
            table.sequences.append(seq)
            table.labels.append(label)
            table.splits.append(split)
    except (OSError, EOFError, UnicodeDecodeError, csv.Error) as exc:
        raise DataFileError(f"{path}: cannot read ({exc})") from None
    if not table.sequences:
        raise DataFileError(f"{path}: no rows")
    if len(set(table.labels)) < 2:
        raise DataFileError(f"{path}: needs at least two labels, found {sorted(set(table.labels))}")
    table.ids = item_ids(table.sequences)
    return table
