"""litaudit review: decisions appended to a hash-chained log; edits to the history are caught."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import json_out

from pipeline.release.records import read_source_records
from pipeline.release.sample import SamplePaper, add_paper
from pipeline.reviews import (
    FINDING,
    RECORD,
    BadDecisionError,
    ReviewChainError,
    ReviewLog,
    UndoRefusedError,
    UnknownTargetError,
    entry_sha256,
    parse_value,
    read_reviews,
    record_decision,
    reviews_path,
    undecided,
)
from pipeline.store import Workspace

SID = "arxiv:2401.00001"
FINDING_ID = f"{SID}:bold-not-best:1"  # the one finding the sample paper carries


@pytest.fixture
def record_ids(workspace: Workspace) -> list[str]:
    return [r.id for r in add_paper(workspace, SamplePaper(SID, seed=1))]


def log_lines(ws: Workspace) -> list[dict]:
    return [json.loads(line) for line in reviews_path(ws, SID).read_text().splitlines()]


def test_accept_moves_status_and_starts_the_chain(invoke, workspace, record_ids) -> None:
    result = invoke("review", SID, record_ids[0], "--accept", "--reviewer", "ann", "--note", "matches p1", "--json")
    assert result.exit_code == 0, result.stderr
    payload = json_out(result)
    assert payload["recorded"] is True
    assert payload["review_status"] == "source checked"
    result = invoke("review", SID, record_ids[1], "--reject", "--reviewer", "bob")
    assert result.exit_code == 0
    assert "review status now 'rejected'" in result.stdout
    first, second = log_lines(workspace)
    assert set(first) == {"record_id", "decision", "value", "note", "reviewer", "date", "prev_sha256", "sha256"}
    assert (first["record_id"], first["decision"], first["note"], first["reviewer"]) == (
        record_ids[0],
        "accept",
        "matches p1",
        "ann",
    )
    assert first["prev_sha256"] is None and first["value"] is None
    assert first["date"].endswith("Z")
    assert first["sha256"] == entry_sha256(first)
    assert second["prev_sha256"] == first["sha256"]
    assert second["sha256"] == entry_sha256(second)


def test_correction_keeps_the_printed_value_and_records_the_corrected_one(invoke, workspace, record_ids) -> None:
    result = invoke("review", SID, record_ids[2], "--correct", "0.815", "--reviewer", "ann", "--json")
    assert result.exit_code == 0, result.stderr
    payload = json_out(result)
    assert payload["review_status"] == "corrected"
    assert payload["entry"]["value"] == 0.815
    stored = read_source_records(workspace, SID).rows[2]
    assert stored["printed"] != "0.815"  # the workspace records are not rewritten: the log says what changed


def test_latest_decision_wins(workspace, record_ids) -> None:
    known = set(record_ids)
    record_decision(workspace, SID, record_ids[0], "accept", known=known, reviewer="ann")
    entry, added = record_decision(workspace, SID, record_ids[0], "reject", known=known, reviewer="bob", note="misread")
    assert added and entry.status == "rejected"
    entries = read_reviews(reviews_path(workspace, SID))
    assert [e.decision for e in entries] == ["accept", "reject"]


def test_repeating_the_latest_decision_appends_nothing(invoke, workspace, record_ids) -> None:
    args = ("review", SID, record_ids[0], "--accept", "--reviewer", "ann")
    assert invoke(*args).exit_code == 0
    before = reviews_path(workspace, SID).read_bytes()
    again = invoke(*args, "--json")
    assert again.exit_code == 0
    assert json_out(again)["recorded"] is False
    assert reviews_path(workspace, SID).read_bytes() == before


def test_unknown_record_is_exit_2_naming_it_and_writes_nothing(invoke, workspace, record_ids) -> None:
    result = invoke("review", SID, "no-such-record", "--accept", "--reviewer", "ann")
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1
    assert "record 'no-such-record': not among the 12 records" in result.stderr
    assert not reviews_path(workspace, SID).exists()


@pytest.mark.parametrize(
    "args",
    [
        ("--reviewer", "ann"),  # no decision
        ("--accept", "--reject", "--reviewer", "ann"),  # two decisions
        ("--accept",),  # no reviewer
        ("--correct", "nan", "--reviewer", "ann"),
        ("--correct", "abc", "--reviewer", "ann"),
    ],
)
def test_bad_decisions_are_exit_2(invoke, workspace, record_ids, args) -> None:
    result = invoke("review", SID, record_ids[0], *args)
    assert result.exit_code == 2, result.stdout
    assert "Traceback" not in result.stderr
    assert not reviews_path(workspace, SID).exists()


def test_source_without_records_is_exit_2(invoke, record_ids) -> None:
    result = invoke("review", "arxiv:9999.99999", "x", "--accept", "--reviewer", "ann")
    assert result.exit_code == 2
    assert "no records" in result.stderr


def test_pending_lists_what_still_needs_a_decision(invoke, workspace, record_ids) -> None:
    add_paper(workspace, SamplePaper("arxiv:2401.00002", seed=2, audited=False))
    invoke("review", SID, record_ids[0], "--accept", "--reviewer", "ann")
    invoke("review", SID, record_ids[1], "--correct", "0.5", "--reviewer", "ann")
    result = invoke("review", "--pending", "--json")
    assert result.exit_code == 0
    payload = json_out(result)
    assert payload["counts"] == {
        SID: {"records": 12, "pending": 10, "findings": 1, "findings_pending": 1},
        "arxiv:2401.00002": {"records": 12, "pending": 12, "findings": 0, "findings_pending": 0},
    }
    pending_ids = {row["record_id"] for row in payload["pending"] if row["source_id"] == SID and "record_id" in row}
    assert pending_ids == set(record_ids[2:])
    assert [row["finding_id"] for row in payload["pending"] if "finding_id" in row] == [FINDING_ID]
    text = invoke("review", "--pending", SID)
    assert text.stdout.splitlines()[0] == f"{SID}: 10 of 12 records need a decision; 1 of 1 findings"
    assert "arxiv:2401.00002" not in text.stdout


def _tamper(path: Path, line: int, edit) -> None:
    lines = path.read_text().splitlines(keepends=True)
    lines[line - 1 : line] = edit(lines[line - 1])
    path.write_text("".join(lines))


def _three_decisions(workspace: Workspace, record_ids: list[str]) -> Path:
    for rid in record_ids[:3]:
        record_decision(workspace, SID, rid, "accept", known=set(record_ids), reviewer="ann", note="ok")
    return reviews_path(workspace, SID)


def test_edited_middle_entry_is_caught_naming_file_and_line(invoke, workspace, record_ids) -> None:
    path = _three_decisions(workspace, record_ids)
    _tamper(path, 2, lambda line: [line.replace('"accept"', '"reject"')])
    result = invoke("review", "--pending", SID)
    assert result.exit_code == 1
    message = f"{path}:2: entry was edited (its content no longer matches its sha256)"
    assert result.stderr.splitlines() == [f"litaudit: error: {message}"]


def test_deleted_middle_entry_is_caught(invoke, workspace, record_ids) -> None:
    path = _three_decisions(workspace, record_ids)
    _tamper(path, 2, lambda line: [])
    result = invoke("review", SID, record_ids[5], "--accept", "--reviewer", "ann")
    assert result.exit_code == 1
    assert f"{path}:2: chain broken" in result.stderr
    assert len(path.read_text().splitlines()) == 2  # nothing appended to a broken log


def test_rehashed_edit_is_caught_at_the_next_entry(workspace, record_ids) -> None:
    path = _three_decisions(workspace, record_ids)

    def rehash(line: str) -> list[str]:
        entry = json.loads(line)
        entry["note"] = "changed later"
        entry["sha256"] = entry_sha256(entry)
        return [json.dumps(entry, sort_keys=True) + "\n"]

    _tamper(path, 2, rehash)
    with pytest.raises(ReviewChainError, match=r":3: chain broken \(prev_sha256 does not match the entry on line 2\)"):
        read_reviews(path)


def test_garbage_line_is_caught(workspace, record_ids) -> None:
    path = _three_decisions(workspace, record_ids)
    _tamper(path, 3, lambda line: [line[:20] + "\n"])
    with pytest.raises(ReviewChainError, match=r":3: not valid JSON"):
        read_reviews(path)


def test_concurrent_reviewers_keep_one_chain(workspace, record_ids) -> None:
    kwargs = {"known": set(record_ids), "reviewer": "r"}
    threads = [
        threading.Thread(target=record_decision, args=(workspace, SID, rid, "accept"), kwargs=kwargs)
        for rid in record_ids[:8]
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    entries = read_reviews(reviews_path(workspace, SID))
    assert sorted(e.target for e in entries) == sorted(record_ids[:8])


def test_findings_are_accepted_or_dismissed_with_their_reason(invoke, workspace, record_ids) -> None:
    refused = invoke("review", SID, FINDING_ID, "--reject", "--reviewer", "ann")
    assert refused.exit_code == 2
    assert "decision 'reject' on a finding: expected one of accept, dismiss" in refused.stderr
    assert invoke("review", SID, record_ids[0], "--dismiss", "--reviewer", "ann").exit_code == 2  # records: no
    result = invoke("review", SID, FINDING_ID, "--dismiss", "--note", "bold marks a tie", "--reviewer", "ann", "--json")
    assert result.exit_code == 0, result.stderr
    assert json_out(result)["review_status"] == "dismissed"
    (entry,) = log_lines(workspace)
    assert (entry["finding_id"], entry["decision"], entry["note"]) == (FINDING_ID, "dismiss", "bold marks a tie")
    assert "record_id" not in entry
    pending = json_out(invoke("review", "--pending", SID, "--json"))
    assert pending["counts"][SID]["findings_pending"] == 0


def test_a_torn_last_line_is_not_part_of_the_log_and_the_next_append_replaces_it(workspace, record_ids) -> None:
    path = _three_decisions(workspace, record_ids)
    whole = path.read_bytes()
    path.write_bytes(whole + b'{"decision": "acc')  # an append a crash cut short: no newline
    assert len(read_reviews(path)) == 3
    entry, added = record_decision(workspace, SID, record_ids[4], "reject", known=set(record_ids), reviewer="bob")
    assert added
    assert path.read_bytes() == whole + entry.line().encode()
    assert [e.target for e in read_reviews(path)] == [*record_ids[:3], record_ids[4]]


def test_a_whole_last_line_without_its_newline_is_kept(workspace, record_ids) -> None:
    path = _three_decisions(workspace, record_ids)
    path.write_bytes(path.read_bytes().rstrip(b"\n"))  # saved by an editor that drops the final newline
    assert len(read_reviews(path)) == 3
    record_decision(workspace, SID, record_ids[4], "reject", known=set(record_ids), reviewer="bob")
    assert [e.target for e in read_reviews(path)] == [*record_ids[:3], record_ids[4]]
    assert path.read_text().count("\n") == 4


def test_a_kept_log_reads_what_others_append_and_catches_an_edit_of_what_it_saw(workspace, record_ids) -> None:
    path = _three_decisions(workspace, record_ids)
    kept = ReviewLog(path)
    assert len(kept.entries()) == 3
    record_decision(workspace, SID, record_ids[5], "accept", known=set(record_ids), reviewer="cli")  # another writer
    assert [e.reviewer for e in kept.entries()] == ["ann", "ann", "ann", "cli"]
    assert kept.latest(RECORD)[record_ids[5]].reviewer == "cli"
    _tamper(path, 4, lambda line: [line.replace('"cli"', '"eve"')])  # the entry it saw last, same size
    with pytest.raises(ReviewChainError, match=r":4: entry was edited"):
        kept.entries()
    _tamper(path, 4, lambda line: [line.replace('"eve"', '"cli"')])
    assert len(kept.entries()) == 4
    _tamper(path, 2, lambda line: [line.replace('"ok"', '"OK"')])  # an earlier entry, same size: mtime changed
    with pytest.raises(ReviewChainError, match=r":2: entry was edited"):
        kept.entries()


def test_a_kept_log_that_met_a_break_verifies_everything_again(workspace, record_ids) -> None:
    path = _three_decisions(workspace, record_ids)
    kept = ReviewLog(path)
    assert len(kept.entries()) == 3
    whole = path.read_bytes()
    entry, _ = ReviewLog(path).record(RECORD, record_ids[7], "accept", reviewer="cli")
    path.write_bytes(whole + b'{"not": "an entry"}\n' + entry.line().encode())  # an entry inserted by hand
    with pytest.raises(ReviewChainError, match=r":4: not a review entry"):
        kept.entries()
    path.write_bytes(whole + entry.line().encode())
    assert [e.target for e in kept.entries()] == [*record_ids[:3], record_ids[7]]  # nothing counted twice


def test_the_writer_appends_without_rewriting(workspace, record_ids) -> None:
    path = _three_decisions(workspace, record_ids)
    inode, before = path.stat().st_ino, path.read_bytes()
    log = ReviewLog(path)
    log.record(RECORD, record_ids[6], "accept", reviewer="ann")
    assert path.stat().st_ino == inode  # appended in place, not replaced by a rewritten copy
    assert path.read_bytes().startswith(before)


def test_undo_restates_the_decision_before_or_reopens(workspace, record_ids) -> None:
    path = reviews_path(workspace, SID)
    log = ReviewLog(path)
    first, _ = log.record(RECORD, record_ids[0], "correct", reviewer="ann", value=0.5, note="recomputed")
    second, _ = log.record(RECORD, record_ids[0], "reject", reviewer="bob")
    with pytest.raises(UndoRefusedError):
        log.undo(first.sha256, reviewer="bob")  # not the latest decision on its record
    restored, added = log.undo(second.sha256, reviewer="bob")
    assert added and (restored.decision, restored.value, restored.note) == ("correct", 0.5, "recomputed")
    redone, _ = log.undo(restored.sha256, reviewer="bob")
    assert redone.decision == "reject"  # undoing the undo: what stood before it
    entries = read_reviews(path)
    assert [e.decision for e in entries] == ["correct", "reject", "correct", "reject"]
    assert undecided(record_ids[:1], entries) == []
    alone, _ = log.record(FINDING, FINDING_ID, "dismiss", reviewer="ann")
    back, _ = log.undo(alone.sha256, reviewer="ann")
    assert back.decision == "reopen" and back.status == "open"
    assert undecided([FINDING_ID], read_reviews(path), FINDING) == [FINDING_ID]
    with pytest.raises(UnknownTargetError):
        log.undo("0" * 64, reviewer="ann")


@pytest.mark.parametrize("text", ["1_000", "1,000", "nan", "inf", "-inf", "0x10", "½", "٣", "1e", "", " "])
def test_parse_value_refuses_what_is_not_a_plain_number(text: str) -> None:
    with pytest.raises(BadDecisionError):
        parse_value(text)


@pytest.mark.parametrize(("text", "value"), [("0.745", 0.745), ("-3", -3.0), ("+.5", 0.5), ("1E-3", 0.001)])
def test_parse_value_reads_plain_numbers(text: str, value: float) -> None:
    assert parse_value(text) == value


WRITER = """
import sys
from pathlib import Path
from pipeline.reviews import RECORD, ReviewLog
log, ids, name = ReviewLog(Path(sys.argv[1])), sys.argv[2].split(","), sys.argv[3]
print("ready", flush=True)
i = 0
while True:
    log.record(RECORD, ids[i % len(ids)], "accept", reviewer=name, note=f"{name} {i}")
    i += 1
"""


def test_writers_killed_mid_append_leave_one_whole_chain(workspace, record_ids) -> None:
    path = reviews_path(workspace, SID)
    path.parent.mkdir(parents=True, exist_ok=True)
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path), ",".join(record_ids), name], stdout=subprocess.PIPE, text=True
        )
        for name in ("ann", "bob")
    ]
    for writer in writers:
        assert writer.stdout is not None and writer.stdout.readline().strip() == "ready"
    time.sleep(1.0)
    for writer in writers:
        writer.send_signal(signal.SIGKILL)  # as a crash or a power cut would: no cleanup, lock freed by the kernel
        writer.wait(timeout=30)
    entries = read_reviews(path)  # the chain verified: no torn, forked or doubled entry
    assert len(entries) > 10 and {e.reviewer for e in entries} == {"ann", "bob"}
    entry, added = record_decision(workspace, SID, record_ids[0], "reject", known=set(record_ids), reviewer="cy")
    assert added and read_reviews(path)[-1] == entry and len(read_reviews(path)) == len(entries) + 1
