"""A label printed more than once (a volume, a supplement that restarts its numbering): tables are told apart by
their locator, a citation by label reads the table printed nearest it, and the audit grows with the tables."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pypdfium2
import pytest
from conftest import litaudit

from pipeline.audit.context import AuditInput, TableIndex, nearest, table_key_of
from pipeline.audit.text import PaperText, Sentence
from pipeline.errors import OUT_OF_MEMORY
from pipeline.fixtures import write_demo_paper
from pipeline.model import Locator, Table

SID = "local:volume"
BLANK = 4  # blank pages after each copy: a body line printed on a third of the pages would read as a running head
PER_COPY = 3 + BLANK


def repeated(demo: Path, copies: int, dest: Path) -> Path:
    """The demo paper printed ``copies`` times in one PDF, as a volume of papers that each number from Table 1."""
    out = pypdfium2.PdfDocument.new()
    source = pypdfium2.PdfDocument(str(demo))
    width, height = source[0].get_size()
    for _ in range(copies):
        out.import_pages(source)
        for _ in range(BLANK):
            out.new_page(width, height)
    out.save(str(dest))
    return dest


@pytest.fixture(scope="module")
def audits(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    """The audit folder of the demo paper once and three times over."""
    tmp = tmp_path_factory.mktemp("volume")
    demo = write_demo_paper(tmp / "demo.pdf")
    folders = {}
    for copies in (1, 3):
        root = tmp / f"ws{copies}"
        assert (
            litaudit(
                root, "fetch", "--file", str(repeated(demo, copies, tmp / f"v{copies}.pdf")), "--id", SID
            ).exit_code
            == 0
        )
        assert litaudit(root, "run").exit_code == 1  # the demo's planted problems
        folders[copies] = root / "audits" / "local_volume"
    return folders


def _records(folder: Path) -> dict[str, dict]:
    lines = (folder / "records.jsonl").read_text().splitlines()
    return {r["id"]: r for r in map(json.loads, lines)}


def _findings(folder: Path) -> list[dict]:
    return json.loads((folder / "findings.json").read_text())["findings"]


def _in_first_copy(locator: str) -> tuple[str, int]:
    """The same cell in the first copy, and which copy it is in."""
    cell = Locator.parse(locator)
    copy, page = divmod(cell.page - 1, PER_COPY)
    return f"{cell.source}:p{page + 1}:{cell.table}:r{cell.row}:c{cell.col}", copy


def test_each_copy_carries_its_own_findings_and_no_other_copys(audits: dict[int, Path]) -> None:
    once = {r["locator"].split(":", 1)[1]: r for r in _records(audits[1]).values()}
    thrice = _records(audits[3])
    findings = {f["id"]: f for f in _findings(audits[3])}
    assert len(thrice) == 3 * len(once)
    for record in thrice.values():
        first, copy = _in_first_copy(record["locator"])
        counterpart = once[first.split(":", 1)[1]]
        assert len(record["findings"]) <= len(counterpart["findings"]), record["id"]
        assert len(record["limitations"]) <= len(counterpart["limitations"]), record["id"]
        for finding_id in record["findings"]:
            key = findings[finding_id]["details"].get("table_key")
            if key is not None:  # a finding about a table: the record's own copy of it
                page = int(key.split(":")[0][1:])
                assert (page - 1) // PER_COPY == copy, (record["id"], finding_id)


def test_findings_and_the_report_grow_with_the_copies(audits: dict[int, Path]) -> None:
    once, thrice = (Counter(f["check"] for f in _findings(audits[n])) for n in (1, 3))
    assert all(thrice[check] <= 3 * n for check, n in once.items()) and set(thrice) == set(once)
    # one per copy, each about its own table: cell findings, and a contradiction with the sentence citing it
    for check in ("value-out-of-range", "bold-not-best", "caption-text-contradiction"):
        assert thrice[check] == 3 * once[check] > 0, check
    for name in ("report.md", "findings.json", "records.jsonl"):
        size_once, size_thrice = ((audits[n] / name).stat().st_size for n in (1, 3))
        assert size_thrice < 3.3 * size_once, name


def _table(label: str | None, page: int, index: int, continued: list[int] | None = None) -> Table:
    table = Table.from_grid([["Model", "Acc"], ["A", "0.812"], ["B", "0.775"]], label=label, page=page, index=index)
    table.continued_pages = continued or []
    return table


def test_a_citation_reads_the_table_of_that_label_printed_nearest_it() -> None:
    first, second, other = _table("Table 1", 2, 0), _table("Table 1", 9, 1), _table("Table 2", 3, 2)
    sentences = [
        Sentence(1, "Table 1 shows A ahead."),
        Sentence(10, "In Table 1, B trails."),
        Sentence(8, "Table 2 too."),
    ]
    inp = AuditInput("local:x", "ab" * 32, [first, second, other], PaperText(sentences))
    assert [v.table for v in inp.cited(sentences[0])["1"]] == [first]
    assert [v.table for v in inp.cited(sentences[1])["1"]] == [second]
    assert [v.table for v in inp.cited(sentences[2])["2"]] == [other]  # printed once: found however far
    assert inp.citing(first) == [sentences[0]] and inp.citing(second) == [sentences[1]]


def test_a_table_continued_on_the_next_page_is_one_table_to_a_citation() -> None:
    head, tail = _table("Table 4", 5, 0), _table("Table 4", 6, 1)
    sentence = Sentence(5, "Table 4 lists both.")
    inp = AuditInput("local:x", "ab" * 32, [head, tail], PaperText([sentence]))
    assert [v.table for v in inp.cited(sentence)["4"]] == [head, tail]


def test_locators_tell_apart_tables_that_share_a_label() -> None:
    first, second = _table("Table 1", 2, 0, continued=[3]), _table("Table 1", 9, 1)
    index = TableIndex([first, second])
    sha = "ab" * 32
    on_continued_page = Locator(sha, 3, "Table 1", 0, 2, 1).id
    assert index.position(on_continued_page) == (table_key_of(first), 2, 1)
    assert index.position(Locator(sha, 9, "Table 1", 1, 1, 1).id) == (table_key_of(second), 1, 1)
    assert table_key_of(first) != table_key_of(second)


def test_nearest_prefers_the_earlier_of_two_as_near() -> None:
    assert nearest([2, 6], 4, lambda p: p) == 2
    assert nearest([2, 6], 5, lambda p: p) == 6
    assert nearest([], 5, lambda p: p) is None


def test_running_out_of_memory_is_one_line_that_says_what_to_do(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import pipeline.audit.stage as audit_stage

    def exhausted(*args: object) -> None:
        raise MemoryError

    monkeypatch.setattr(audit_stage, "run", exhausted)
    result = litaudit(root, "audit", "--force")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [f"litaudit: error: audit local:demo: {OUT_OF_MEMORY}"]
    assert "--jobs 1" in OUT_OF_MEMORY and (root / "audits" / "local_demo" / "report.md").is_file()
