"""Two readings of one paper: the typeset PDF and the LaTeX written from the same spec, checked cell by cell."""

from __future__ import annotations

import gzip
import io
import json
import tarfile
from pathlib import Path

import pytest
from arxiv_server import FakeArxiv, make_pdf, reply
from conftest import Invoke
from papers import tables
from papers.features import results_paper
from papers.sources import paper_tarball

from pipeline.audit.checks.readings import check_readings
from pipeline.audit.context import AuditInput
from pipeline.errors import BrokenSourceRecordError
from pipeline.fixtures import render_paper
from pipeline.model import Source, TablesFile
from pipeline.readers.agreement import compare_readings, readings_note
from pipeline.readers.assemble import TextCell, TextTable, to_table
from pipeline.readers.latex import read_latex
from pipeline.readers.tarball import UnsafeArchiveError, read_tarball
from pipeline.store import Workspace, read_source_record

SHA = "cd" * 32
PLANTED = ("Table 1", 2, 3)  # Human Promoter Detection, the third model: the PDF prints 0.851


def _paper(tmp_path: Path, changed: dict) -> tuple[Path, Path]:
    paper = results_paper(tables.booktabs(), "Two readings of one table")
    pdf = tmp_path / "paper.pdf"
    render_paper(paper, pdf)
    source = tmp_path / "source.tar.gz"
    source.write_bytes(paper_tarball(paper, changed))
    return pdf, source


def _run(invoke: Invoke, workspace: Workspace, pdf: Path, source: Path, sid: str) -> tuple[TablesFile, list[dict]]:
    fetched = invoke("fetch", "--file", str(pdf), "--source-file", str(source), "--id", sid, "--json")
    assert fetched.exit_code == 0, fetched.output
    ran = invoke("run", sid, "--json")
    assert ran.exit_code in (0, 1), ran.output
    tables_file = TablesFile.from_dict(json.loads((workspace.extracted_dir(sid) / "tables.json").read_text()))
    findings = json.loads((workspace.audits_dir(sid) / "findings.json").read_text())["findings"]
    return tables_file, findings


def test_the_latex_reading_of_a_generated_paper_matches_its_spec(tmp_path: Path) -> None:
    _, source = _paper(tmp_path, {})
    [table] = read_latex(source, "source.tar.gz").tables
    spec = tables.booktabs()
    grid = {(c.row, c.col): c.text for c in table.cells}
    assert grid == {(r, c): t for r, row in enumerate(spec.rows) for c, t in enumerate(row) if t}
    assert table.label == "Table 1" and table.cells[0].place.startswith("results.tex:")


def test_one_planted_difference_is_found_and_reported(invoke: Invoke, workspace: Workspace, tmp_path: Path) -> None:
    pdf, source = _paper(tmp_path, {PLANTED: "0.894"})
    tables_file, findings = _run(invoke, workspace, pdf, source, "local:twice")
    record = json.loads(workspace.source_record_path("local:twice").read_text())
    assert [a["kind"] for a in record["artifacts"]] == ["pdf", "latex"]
    [table] = tables_file.tables
    read = [c for c in table.cells if c.second_reading]
    disagree = [(c.row, c.col, c.text, c.second_reading.text) for c in read if not c.second_reading.agrees]
    assert disagree == [(2, 3, "0.851", "0.894")]
    assert len(read) == len(table.cells) and any("read twice" in n for n in table.notes)
    records = [
        json.loads(x) for x in (workspace.extracted_dir("local:twice") / "records.jsonl").read_text().split("\n") if x
    ]
    evidence = {r["locator"].split(":", 3)[3]: r["evidence"] for r in records}
    assert evidence.pop("r2:c3") == "readings disagree" and set(evidence.values()) == {"two readings"}
    [finding] = [f for f in findings if f["check"] == "readings-disagree"]
    assert "read twice, disagree" in finding["message"] and "results.tex:" in finding["message"]
    report = (workspace.audits_dir("local:twice") / "report.md").read_text()
    assert f"read twice (source.tar.gz): {len(read) - 1} of {len(read)} cells agree" in report

    (workspace.source_dir("local:twice") / "source.tar.gz").write_bytes(
        paper_tarball(results_paper(tables.booktabs(), "Two readings of one table"))
    )
    status = json.dumps(json.loads(invoke("status", "local:twice", "--json").stdout))
    assert "modified" in status or "stale" in status  # the LaTeX is an input: editing it is noticed


def test_agreeing_readings_give_no_finding(invoke: Invoke, workspace: Workspace, tmp_path: Path) -> None:
    pdf, source = _paper(tmp_path, {})
    tables_file, findings = _run(invoke, workspace, pdf, source, "local:agree")
    [table] = tables_file.tables
    assert all(c.second_reading and c.second_reading.agrees for c in table.cells)
    assert not [f for f in findings if f["check"] == "readings-disagree"]


def _tar(members: list[tarfile.TarInfo], data: bytes = b"x") -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as archive:
        for info in members:
            archive.addfile(info, io.BytesIO(data) if info.isfile() else None)
    return out.getvalue()


def _member(name: str, size: int = 1, kind: bytes = tarfile.REGTYPE, link: str = "") -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.size, info.type, info.linkname = (size if kind == tarfile.REGTYPE else 0), kind, link
    return info


@pytest.mark.parametrize(
    ("members", "problem"),
    [
        ([_member("../evil.tex")], "outside the archive"),
        ([_member("/etc/evil.tex")], "outside the archive"),
        ([_member("a.tex", kind=tarfile.SYMTYPE, link="../../etc/passwd")], "points outside"),
    ],
)
def test_unsafe_tarballs_are_refused(tmp_path: Path, members: list, problem: str) -> None:
    path = tmp_path / "bad.tar.gz"
    path.write_bytes(_tar(members))
    with pytest.raises(UnsafeArchiveError, match=problem):
        read_tarball(path)


def test_a_huge_claimed_size_is_refused_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "big.tar.gz"
    info = _member("paper.tex", size=1)
    raw = _tar([info])
    path.write_bytes(raw)
    with tarfile.open(path) as archive:
        assert archive.getmembers()[0].size == 1
    huge = tarfile.TarInfo("paper.tex")
    huge.size = 10 * 1024**3
    header = huge.tobuf(format=tarfile.GNU_FORMAT)
    path.write_bytes(gzip.compress(header + b"x" * 512))
    with pytest.raises(UnsafeArchiveError, match="claim"):
        read_tarball(path)


@pytest.mark.parametrize(
    ("name", "data", "problem"),
    [
        ("paper.tex", b"\x00\x01binary", "binary data"),
        ("notes.txt", b"hello", "not a source file"),
        ("bad.tar.gz", _tar([_member("../x.tex")]), "outside the archive"),
        ("plain.tar.gz", b"\\documentclass{article} not gzip'd", "neither gzip'd nor a tar archive"),
        ("plain.tex.gz", b"<html>an error page</html>", "neither gzip'd nor a tar archive"),
    ],
)
def test_bad_source_files_are_one_line_errors(
    invoke: Invoke, workspace: Workspace, tmp_path: Path, name, data, problem
):
    path = tmp_path / name
    path.write_bytes(data)
    result = invoke("fetch", "--file", str(path), "--id", "local:bad")
    assert result.exit_code == 2 and problem in result.stderr and "Traceback" not in result.output
    assert not workspace.source_record_path("local:bad").exists()
    assert not list(tmp_path.parent.glob("**/x.tex"))


def test_html_without_tables_reads_zero_tables(invoke: Invoke, workspace: Workspace, tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text("<html><body><p>No tables here.</p></body></html>")
    assert invoke("fetch", "--file", str(page), "--id", "local:page").exit_code == 0
    ran = invoke("run", "local:page", "--json")
    assert json.loads(ran.stdout)["results"][0]["summary"]["tables"] == 0


def _fetch_arxiv(invoke: Invoke, arxiv: FakeArxiv, eprint: bytes | None) -> dict:
    handler = reply(eprint, content_type="application/x-eprint-tar") if eprint is not None else None
    arxiv.paper("2406.01627", make_pdf("Table 1: results"), eprint=handler)
    result = invoke("fetch", "arxiv:2406.01627", "--json", env=arxiv.env)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["sources"][0]


@pytest.fixture
def arxiv(httpserver) -> FakeArxiv:
    return FakeArxiv(httpserver)


def test_arxiv_eprint_tarball_is_stored_beside_the_pdf(invoke: Invoke, workspace: Workspace, arxiv, tmp_path) -> None:
    _, source = _paper(tmp_path, {})
    _fetch_arxiv(invoke, arxiv, source.read_bytes())
    record = json.loads(workspace.source_record_path("arxiv:2406.01627").read_text())
    latex = record["artifacts"][1]
    assert (latex["kind"], latex["path"]) == ("latex", "sources/arxiv_2406.01627/source.tar.gz")
    assert latex["url"].endswith("/e-print/2406.01627v2") and latex["sha256"] != record["sha256"]


def test_single_gzipped_tex_eprint_is_accepted(invoke: Invoke, workspace: Workspace, arxiv) -> None:
    tex = b"\\documentclass{article}\\begin{document}Hi\\end{document}"
    _fetch_arxiv(invoke, arxiv, gzip.compress(tex))
    record = json.loads(workspace.source_record_path("arxiv:2406.01627").read_text())
    assert record["artifacts"][1]["path"].endswith("source.tex.gz")


@pytest.mark.parametrize(("eprint", "reason"), [(None, "HTTP 404"), (b"%PDF-1.4 only", "PDF-only submission")])
def test_no_source_is_a_clean_answer(invoke: Invoke, workspace: Workspace, arxiv, eprint, reason) -> None:
    line = _fetch_arxiv(invoke, arxiv, eprint)
    assert line["status"] == "fetched" and reason in line["message"]
    record = json.loads(workspace.source_record_path("arxiv:2406.01627").read_text())
    assert [a["kind"] for a in record["artifacts"]] == ["pdf"]
    assert any(m["field"] == "latex_source" and reason in m["note"] for m in record["missing_metadata"])


def test_refresh_compares_each_given_file_with_its_stored_kind(
    invoke: Invoke, workspace: Workspace, tmp_path: Path
) -> None:
    pdf, source = _paper(tmp_path, {})
    assert invoke("fetch", "--file", str(pdf), "--source-file", str(source), "--id", "local:both").exit_code == 0
    same = invoke("fetch", "--file", str(pdf), "--source-file", str(source), "--id", "local:both", "--refresh")
    assert same.exit_code == 0 and same.stdout.count("re-retrieved; SHA-256 matched") == 2
    source.write_bytes(paper_tarball(results_paper(tables.booktabs(), "Another paper")))
    changed = invoke("fetch", "--file", str(pdf), "--source-file", str(source), "--id", "local:both", "--refresh")
    assert changed.exit_code == 1 and "not the stored" in changed.stderr
    record = json.loads(workspace.source_record_path("local:both").read_text())
    stored = workspace.root / record["artifacts"][1]["path"]
    assert stored.read_bytes() != source.read_bytes()  # the stored copy is kept


def test_a_single_pdf_record_of_an_older_litaudit_still_reads(workspace: Workspace) -> None:
    folder = workspace.source_dir("local:old")
    folder.mkdir(parents=True)
    old = {"id": "local:old", "sha256": "a" * 64, "size": 3, "pdf_path": "sources/local_old/source.pdf",
           "retrieved_at": "2026-01-01T00:00:00Z"}  # fmt: skip
    (folder / "source.json").write_text(json.dumps(old))
    [pdf] = Source.from_dict(read_source_record(folder / "source.json")).files()
    assert (pdf.kind, pdf.path, pdf.sha256) == ("pdf", "sources/local_old/source.pdf", "a" * 64)


@pytest.mark.parametrize(
    ("artifact", "problem"),
    [
        ({"path": "sources/local_old/../../etc/passwd", "sha256": "a" * 64}, "not one of this source's stored"),
        ({"path": "sources/local_old/source.md", "sha256": "xyz"}, "no valid 'sha256'"),
        ({"path": "sources/local_old/source.md", "sha256": "b" * 64}, "first artifact is not the one"),
    ],
)
def test_a_record_naming_files_elsewhere_is_refused(workspace: Workspace, artifact: dict, problem: str) -> None:
    folder = workspace.source_dir("local:old")
    folder.mkdir(parents=True)
    record = {"id": "local:old", "sha256": "a" * 64, "artifacts": [artifact]}
    (folder / "source.json").write_text(json.dumps(record))
    with pytest.raises(BrokenSourceRecordError, match=problem):
        read_source_record(folder / "source.json")


def _text_table(rows: list[list[str]], header_rows: int = 1) -> TextTable:
    cells = [TextCell(r, c, t) for r, row in enumerate(rows) for c, t in enumerate(row) if t]
    return TextTable(cells, "", "x.md:1:1", label="Table 1", header_rows=header_rows)


def test_cells_whose_labels_repeat_are_not_guessed_at() -> None:
    """As on a real page (docling's Markdown merged the OTSL and HTML rows of each model into one): rows whose
    labels repeat on one side match nothing, so no guess turns into a disagreement."""
    pdf = to_table(_text_table([["n", "lang", "acc"], ["6", "OTSL", "0.965"], ["6", "HTML", "0.969"]]), 0, SHA, "a", "")
    merged = to_table(_text_table([["n", "lang", "acc"], ["6", "OTSL HTML", "0.965 0.969"]]), 0, SHA, "b", "")
    compare_readings([pdf], [merged])
    assert not [c for c in pdf.cells if c.second_reading]
    assert readings_note(pdf).endswith("0 of 0 cells agree; 0 of 6 body cells paired, 6 with no counterpart there")


def test_words_that_differ_are_recorded_but_not_reported() -> None:
    first = to_table(_text_table([["Model", "Note", "Acc"], ["NT", "► fast", "0.81"]]), 0, SHA, "a", "")
    second = to_table(_text_table([["Model", "Note", "Acc"], ["NT", "SM590000 fast", "0.82"]]), 0, SHA, "b", "")
    compare_readings([first], [second])
    assert [c.text for c in first.cells if c.second_reading and not c.second_reading.agrees] == ["► fast", "0.81"]
    issues = check_readings(AuditInput("local:x", SHA, [first]))
    assert [issue.found for issue in issues] == ["0.81"]


def test_markup_one_reading_keeps_pairs_and_agrees_and_a_changed_value_is_reported() -> None:
    """The LaTeX reading keeps "<cit.>" for a citation the PDF prints as "[12]", and "β_1" for a printed "β1":
    the labels still pair their cells (the grids differ in shape, so cells pair by labels), the words agree,
    and the one value the source changed (0.501 for a printed 0.510) is the one finding."""
    pdf_rows = [
        ["Model", "β1", "MCC", "Note"],
        ["DNABERT2 [12]", "0.9", "0.510", "BPE tokens"],
        ["NT (Dalla-Torre et al., 2023)", "0.9", "0.640", "k-mer"],
    ]
    tex_rows = [
        ["Model", "β_1", "MCC", "Note"],
        ["DNABERT2 <cit.>", "0.9", "0.501", "BPE tokens"],
        ["NT <cit.>", "0.9", "0.640", "k-mer"],
        ["HyenaDNA <cit.>", "0.9", "0.610", "single base"],
    ]
    pdf = to_table(_text_table(pdf_rows), 0, SHA, "a", "")
    tex = to_table(_text_table(tex_rows), 0, SHA, "b", "")
    compare_readings([pdf], [tex])
    differ = [(c.text, c.second_reading.text) for c in pdf.cells if c.second_reading and not c.second_reading.agrees]
    assert differ == [("0.510", "0.501")]
    assert readings_note(pdf) == "read twice (b): 5 of 6 cells agree; 6 of 6 body cells paired"
    assert [issue.found for issue in check_readings(AuditInput("local:x", SHA, [pdf]))] == ["0.510"]
    same_shape = to_table(_text_table(tex_rows[:3]), 0, SHA, "b", "")  # grids of one shape pair by position
    pdf = to_table(_text_table(pdf_rows), 0, SHA, "a", "")
    compare_readings([pdf], [same_shape])
    assert [c.text for c in pdf.cells if c.second_reading and not c.second_reading.agrees] == ["0.510"]
