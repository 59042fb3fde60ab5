"""The fixture papers: every truth cell is really printed where the truth says, in the style it says."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from statistics import mean

import pdfplumber
import pytest
from papers import FEATURE_PAPERS
from papers.export import export_fixture_set

from pipeline.fixtures import (
    FixtureSpecError,
    PaperSpec,
    PaperTruth,
    Span,
    TableSpec,
    TableTruth,
    demo_truth,
    render_paper,
    typeset,
    write_demo_paper,
)
from pipeline.fixtures.demo import demo_paper

PLANTED_KINDS = {
    "undefined-metric",
    "aggregate-row",
    "caption-column-count",
    "caption-text-contradiction",
    "error-bars-claimed",
    "bold-not-best",
    "value-out-of-range",
    "dataset-reused",
    "duplicate-values",
}
LIGATURES = {"\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl"}


def _plain(text: str) -> str:
    for glyph, letters in LIGATURES.items():
        text = text.replace(glyph, letters)
    return text.replace("\u2212", "-")


def _chars_in(page: pdfplumber.page.Page, box: tuple[float, float, float, float]) -> list[dict]:
    x0, top, x1, bottom = box
    return [
        ch
        for ch in page.chars
        if x0 - 0.01 <= (ch["x0"] + ch["x1"]) / 2 <= x1 + 0.01 and top <= (ch["top"] + ch["bottom"]) / 2 <= bottom
    ]


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, PaperTruth]]:
    folder = tmp_path_factory.mktemp("papers")
    papers = {**FEATURE_PAPERS, "demo": demo_paper()}
    return {
        name: (folder / f"{name}.pdf", render_paper(paper, folder / f"{name}.pdf")) for name, paper in papers.items()
    }


PAPER_NAMES = [*FEATURE_PAPERS, "demo"]


@pytest.mark.parametrize("name", PAPER_NAMES)
def test_every_truth_cell_is_printed_inside_its_box(rendered: dict, name: str) -> None:
    path, truth = rendered[name]
    assert truth.tables, "every fixture paper has at least one table"
    with pdfplumber.open(path) as pdf:
        assert len(pdf.pages) == truth.pages
        for table in [*truth.tables, *(part for t in truth.tables for part in t.parts)]:
            for r, row in enumerate(table.cells):
                for c, text in enumerate(row):
                    box = table.cell_bboxes[r][c]
                    assert (box is None) == (not text), (table.label, r, c)
                    if not text:
                        continue
                    chars = _chars_in(pdf.pages[table.row_pages[r] - 1], box)
                    printed = _plain("".join(ch["text"] for ch in chars))
                    assert printed.replace(" ", "") == text.replace(" ", ""), (table.label, r, c)
                    for ch in chars:  # the box holds the whole glyphs, not just their centres
                        assert box[0] - 0.6 <= ch["x0"] and ch["x1"] <= box[2] + 0.6
                        assert box[1] - 0.6 <= ch["top"] and ch["bottom"] <= box[3] + 0.6


@pytest.mark.parametrize("name", PAPER_NAMES)
def test_captions_and_styles_match_the_truth(rendered: dict, name: str) -> None:
    path, truth = rendered[name]
    with pdfplumber.open(path) as pdf:
        for table in truth.tables:
            page = pdf.pages[table.page - 1]
            region = page
            if table.layout == "column":  # read only the table's column: the other one holds body text
                half = page.width / 2
                region = page.crop(
                    (half, 0, page.width, page.height) if table.bbox[0] > half else (0, 0, half, page.height)
                )
            text = " ".join(_plain(region.extract_text()).split())
            assert table.caption.replace("\u2212", "-") in text
            x0, top, x1, bottom = table.bbox
            assert 0 <= x0 < x1 <= page.width and 0 <= top < bottom <= page.height
            bold = set(table.bold)
            for r, row in enumerate(table.cells):
                for c, cell in enumerate(row):
                    if not cell:
                        continue
                    fonts = {
                        ch["fontname"] for ch in _chars_in(pdf.pages[table.row_pages[r] - 1], table.cell_bboxes[r][c])
                    }
                    assert all("Bold" in f for f in fonts) == ((r, c) in bold), (table.label, r, c, fonts)
                    if (r, c) in table.italic:
                        assert all("Italic" in f for f in fonts)


def test_underlined_cells_have_a_thin_rule_just_below_the_glyphs(rendered: dict) -> None:
    path, truth = rendered["bold_underline"]
    table = truth.tables[0]
    assert table.underline == [(2, 1)] and table.bold == [(5, 1), (5, 2), (5, 3)]
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[table.page - 1]
        x0, _, x1, bottom = table.cell_bboxes[2][1]
        under = [r for r in page.rects if r["height"] < 0.6 and abs(r["x0"] - x0) < 0.5 and r["x1"] <= x1 + 0.5]
        assert len(under) == 1 and abs(under[0]["top"] - bottom) < 2.5


def test_superscript_marks_are_smaller_and_raised(rendered: dict) -> None:
    path, truth = rendered["superscripts"]
    table = truth.tables[0]
    assert {(r, c, m) for r, c, m in table.superscripts} == {(1, 3, "*"), (2, 2, "\u2020"), (3, 1, "a"), (3, 3, "*")}
    assert table.cells[3][1] == "0.75a"
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[table.page - 1]
        for r, c, mark in table.superscripts:
            chars = _chars_in(page, table.cell_bboxes[r][c])
            digits = [ch for ch in chars if ch["text"].isdigit()]
            marks = [ch for ch in chars if ch["text"] == mark]
            assert marks and marks[0]["size"] < 0.8 * digits[0]["size"] and marks[0]["bottom"] < digits[0]["bottom"] - 1
        note = page.within_bbox((0, table.bbox[3], page.width, table.bbox[3] + 30)).extract_text()
        assert " ".join(note.split()) == table.note and table.note.startswith("* p < 0.05")


def test_value_forms_print_the_real_minus_sign_and_truth_writes_a_hyphen(rendered: dict) -> None:
    path, truth = rendered["value_forms"]
    table = truth.tables[0]
    assert table.cells[4][2] == "-0.05" and table.cells[1][2] == "0.812 ± 0.004" and table.cells[7][1] == "\u2013"
    with pdfplumber.open(path) as pdf:
        chars = _chars_in(pdf.pages[0], table.cell_bboxes[4][2])
        assert chars[0]["text"] == "\u2212"


def test_ligature_paper_prints_ligature_glyphs_and_truth_has_letters(rendered: dict) -> None:
    path, truth = rendered["ligatures"]
    assert truth.tables[0].cells[0][1] == "Fine-tuned"
    with pdfplumber.open(path) as pdf:
        glyphs = {ch["text"] for page in pdf.pages for ch in page.chars}
    assert {"\ufb01", "\ufb02"} <= glyphs


def test_multilevel_and_multirow_spans(rendered: dict) -> None:
    header = rendered["multilevel_header"][1].tables[0]
    assert header.header_rows == 2 and Span(0, 1, 1, 2) in header.spans and Span(0, 0, 2, 1) in header.spans
    assert header.cells[0][:3] == ["Task", "NT", None] and header.cells[1][0] is None
    stub = rendered["multirow_stub"][1].tables[0]
    assert stub.stub_cols == 2 and [r[0] for r in stub.cells[1:4]] == ["Core promoter", None, None]
    first, last = stub.cell_bboxes[1][1], stub.cell_bboxes[3][1]  # "notata" and "all" beside the multirow stub
    centre = (stub.cell_bboxes[1][0][1] + stub.cell_bboxes[1][0][3]) / 2
    assert abs(centre - (first[1] + last[3]) / 2) < 1.0


def test_wrapped_cells_are_joined_with_one_space_and_span_several_lines(rendered: dict) -> None:
    table = rendered["wrapped_cells"][1].tables[0]
    assert table.cells[0][2] == "Long-range Species Classification"
    assert table.cells[1][0] == "Nucleotide Transformer v2 (500M)"
    for r, c in ((0, 2), (1, 0)):
        _, top, _, bottom = table.cell_bboxes[r][c]
        assert bottom - top > 15  # more than one 9 pt line


def _text_beside(page: pdfplumber.page.Page, table: TableTruth) -> list[dict]:
    x0, top, x1, bottom = table.bbox
    other = (0, x0 - 40) if x0 > page.width / 2 else (x1 + 40, page.width)
    return [ch for ch in page.chars if other[0] <= ch["x0"] <= other[1] and top <= ch["top"] <= bottom]


def test_two_column_pages(rendered: dict) -> None:
    path, truth = rendered["two_column"]
    in_column = truth.tables[0]
    assert in_column.layout == "column"
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[in_column.page - 1]
        assert in_column.bbox[2] - in_column.bbox[0] < page.width / 2
        assert len(_text_beside(page, in_column)) > 50  # body text in the other column at the same height
    full = rendered["full_width"][1].tables[0]
    assert full.layout == "full" and full.bbox[0] < 612 / 2 - 9 < 612 / 2 + 9 < full.bbox[2]
    demo = rendered["demo"][1]
    assert [t.layout for t in demo.tables] == ["single", "single", "full", "column", "column", "single", "single"]


def test_continued_table_repeats_its_header_under_a_continued_caption(rendered: dict) -> None:
    path, truth = rendered["continued"]
    table = truth.tables[0]
    assert table.continued_pages == [table.page + 1]
    assert table.row_pages[0] == table.page and table.row_pages[-1] == table.page + 1
    assert table.continued_caption and table.continued_caption.endswith("(continued)")
    with pdfplumber.open(path) as pdf:
        second = _plain(pdf.pages[table.page].extract_text())
    assert table.continued_caption in second and "Dataset NT DNABERT2 HyenaDNA GENA-LM Caduceus" in second
    first, rest = table.parts
    assert (first.page, rest.page, rest.caption) == (table.page, table.page + 1, table.continued_caption)
    assert first.cells + rest.cells[1:] == table.cells and rest.cells[0] == table.cells[0]
    assert rest.cell_bboxes[0][0] != table.cell_bboxes[0][0]  # the repeated header has its own boxes
    assert json.loads(json.dumps(table.to_dict()))["parts"][1]["n_rows"] == rest.n_rows


def test_several_tables_on_one_page_and_caption_forms(rendered: dict) -> None:
    several = rendered["several_per_page"][1].tables
    assert len({t.page for t in several}) == 1 and len(several) == 3
    captions = rendered["captions"][1].tables
    assert [t.label for t in captions] == ["Table 3", "Table 4", "Table S1", "Supplementary Table 2"]
    assert [t.caption_position for t in captions] == ["above", "below", "above", "below"]
    assert captions[1].caption.startswith("Table 4. ") and captions[2].caption.startswith("Table S1: ")
    path = rendered["captions"][0]
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[captions[1].page - 1]
        below = captions[1].bbox[3]
        tops = {round(ch["top"]) for ch in page.chars if abs(ch["size"] - 9) < 0.01 and below < ch["top"] < below + 80}
    assert len(tops) == 3  # the long caption below the table (and below its note) wraps onto three lines
    assert captions[1].note and not captions[0].note


def test_rendering_is_deterministic(tmp_path: Path) -> None:
    first = write_demo_paper(tmp_path / "a.pdf").read_bytes()
    script = "import sys, pathlib, pipeline.fixtures as f; f.write_demo_paper(pathlib.Path(sys.argv[1]))"
    subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "b.pdf")], check=True, env={**os.environ, "PYTHONHASHSEED": "7"}
    )
    assert first == (tmp_path / "b.pdf").read_bytes() and first.startswith(b"%PDF")
    assert typeset(FEATURE_PAPERS["ligatures"])[0] == typeset(FEATURE_PAPERS["ligatures"])[0]


def test_demo_truth_lists_every_planted_problem_at_real_cells() -> None:
    truth = demo_truth()
    assert {p.check for p in truth.planted} == PLANTED_KINDS
    assert truth.clean_tables == ["Table 1"] and 2 <= truth.pages <= 4
    for planted in truth.planted:
        if planted.table is None:
            continue
        table = truth.table(planted.table)
        assert planted.table not in truth.clean_tables
        if planted.row is not None and planted.col is not None:
            assert table.cells[planted.row][planted.col]
    json.loads(json.dumps(truth.to_dict()))


def _floats(row: list[str | None]) -> list[float]:
    return [float(v) for v in row[1:] if v]


def test_demo_planted_numbers_are_what_the_truth_claims() -> None:
    truth = demo_truth()
    clean = truth.table("Table 1")
    for c in range(1, clean.n_cols):  # Average row is the mean of the two rows above within rounding
        assert abs(mean(float(clean.cells[r][c]) for r in (1, 2)) - float(clean.cells[3][c])) <= 0.0005 + 1e-9
    broken = truth.table("Table 2")
    wrong = [
        c
        for c in range(1, 6)
        if abs(mean(float(broken.cells[r][c]) for r in (1, 2, 3)) - float(broken.cells[4][c])) > 0.001
    ]
    assert wrong == [5]
    bulk = truth.table("Table 5")
    mse = _floats([row[1] for row in bulk.cells])
    assert (3, 1) in bulk.bold and float(bulk.cells[3][1]) != min(mse)
    dup = truth.table("Table 7")
    assert [row[2] for row in dup.cells[1:]] == [row[4] for row in dup.cells[1:]]
    assert truth.table("Table 4").n_cols - 1 == 4 and "five models" in truth.table("Table 4").caption
    text = " ".join(truth.text_paragraphs)
    assert "Top-1" in text and not re.search(r"Top-1[^.]*(is|denotes|means|defined)", text)
    assert "Table 3 reports short-range" in text and "long-range" in truth.table("Table 3").caption
    assert "Error bars show standard deviation" in text
    assert not any("±" in (v or "") for t in truth.tables for row in t.cells for v in row)
    assert "1.07" in truth.table("Table 6").cells[2]


def test_truth_converts_to_the_shared_table_model() -> None:
    truth = demo_truth().table("Table 7")
    table = truth.to_table(index=6)
    assert table.grid() == truth.cells and table.label == "Table 7"
    assert table.cell_at(1, 0).italic and table.cell_at(0, 1).kind == "header"


def test_bad_specs_fail_with_one_clear_line() -> None:
    with pytest.raises(FixtureSpecError, match="ragged"):
        TableSpec(label="Table 1", caption="x", rows=[["a", "b"], ["c"]])
    with pytest.raises(FixtureSpecError, match="spans say otherwise"):
        TableSpec(label="Table 1", caption="x", rows=[["a", None], ["c", "d"]])
    wide = TableSpec(label="Table 9", caption="x", rows=[["Model", "x" * 200], ["NT", "1"]])
    paper = PaperSpec(title="t", authors="a", abstract="b", blocks=[wide])
    with pytest.raises(FixtureSpecError, match=r"Table 9 is \d+ pt wide"):
        typeset(paper)


def test_export_writes_a_gold_set_the_shared_scorer_can_read(tmp_path: Path) -> None:
    written = export_fixture_set(tmp_path, {"row_group_labels": FEATURE_PAPERS["row_group_labels"]})
    gold = json.loads((tmp_path / "row_group_labels__Table1.json").read_text(encoding="utf-8"))
    assert (tmp_path / gold["pdf"]).is_file() and gold["page"] == 1 and gold["label"] == "Table 1"
    assert gold["spans"] == [
        {"row": 1, "col": 0, "row_span": 1, "col_span": 5},
        {"row": 5, "col": 0, "row_span": 1, "col_span": 5},
    ]
    assert gold["cells"][1] == ["Human Core Promoter Detection", None, None, None, None]
    assert len(gold["cells"]) == gold["n_rows"] and gold["caption_start"] == gold["caption"][:80]
    assert tmp_path / "truth" / "row_group_labels.json" in written
