"""Reading sequence files: formats, gzip, and bad rows reported with their line numbers."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from pipeline.probe.data import DataFileError, DataRules, read_sequences


def write(path: Path, text: str, gz: bool = False) -> Path:
    path.write_bytes(gzip.compress(text.encode()) if gz else text.encode())
    return path


def test_reads_geneb_csv_gzip_with_extra_columns(tmp_path: Path) -> None:
    text = "text,label,split,name\nACGTACGT,0,train,a\nacgtnacg,1,train,b\nGGGGCCCC,1,test,c\nTTTTAAAA,0,dev,d\n"
    table = read_sequences(write(tmp_path / "task.csv.gz", text, gz=True))
    assert table.sequences == ["ACGTACGT", "ACGTNACG", "GGGGCCCC", "TTTTAAAA"]
    assert table.labels == ["0", "1", "1", "0"]
    assert table.splits == ["train", "train", "test", "dev"]
    assert table.indices("train") == [0, 1]
    assert len(table.sha256) == 64


def test_reads_tsv_with_and_without_header_as_test_rows(tmp_path: Path) -> None:
    with_header = read_sequences(write(tmp_path / "a.tsv", "seq\tlabel\nACGT\t0\nCCGG\t1\n"))
    without = read_sequences(write(tmp_path / "b.tsv.gz", "ACGT\t0\nCCGG\t1\n", gz=True))
    assert with_header.sequences == without.sequences == ["ACGT", "CCGG"]
    assert with_header.splits == ["test", "test"]
    assert with_header.ids == without.ids


def test_ids_follow_content_not_file_order_and_repeats_get_distinct_ids(tmp_path: Path) -> None:
    a = read_sequences(write(tmp_path / "a.tsv", "ACGT\t0\nCCGG\t1\nACGT\t1\n"))
    b = read_sequences(write(tmp_path / "b.tsv", "CCGG\t1\nACGT\t0\nACGT\t1\n"))
    assert sorted(a.ids) == sorted(b.ids)
    assert a.ids[0] != a.ids[2] and a.ids[2].endswith("~2")


@pytest.mark.parametrize(
    ("text", "rules", "expected"),
    [
        ("text,label,split\nACGT,0,train\nACXT,1,test\n", None, ":3: characters 'X' outside ACGTN"),
        ("text,label,split\nACGT,0,train\n,1,test\n", None, ":3: empty sequence"),
        ("text,label,split\nACGT,0,train\nACGTA,1,test\n", DataRules(4, 4), ":3: sequence length 5 outside 4..4"),
        ("text,label,split\nACGT,0,train\nACGT,2,test\n", DataRules(labels=("0", "1")), ":3: bad label '2'"),
        ("text,label,split\nACGT,0,train\nACGT,,test\n", None, ":3: bad label ''"),
        ("text,label,split\nACGT,0,train\nACGT,1,holdout\n", None, ":3: unknown split 'holdout'"),
        ("text,label,split\nACGT,0,train\nACGT,1\n", None, ":3: expected 3 fields, found 2"),
        ("text,split\nACGT,train\n", None, ":1: header needs a sequence column"),
        ("text,label,split\nACGT,0,train\nCCGG,0,test\n", None, "needs at least two labels"),
        ("text,label,split\n", None, "no rows"),
    ],
)
def test_bad_rows_are_reported_with_file_and_line(
    tmp_path: Path, text: str, rules: DataRules | None, expected: str
) -> None:
    path = write(tmp_path / "bad.csv", text)
    with pytest.raises(DataFileError) as info:
        read_sequences(path, rules)
    message = str(info.value)
    assert message.startswith(str(path)) and expected in message and "\n" not in message


def test_missing_and_corrupt_files(tmp_path: Path) -> None:
    with pytest.raises(DataFileError, match="file not found"):
        read_sequences(tmp_path / "absent.tsv")
    broken = tmp_path / "broken.tsv.gz"
    broken.write_bytes(gzip.compress(b"ACGT\t0\nCCGG\t1\n" * 100)[:40])
    with pytest.raises(DataFileError, match="cannot read"):
        read_sequences(broken)
