"""The paper's body text, read from a real typeset PDF (the demo paper): sentences, citations, captions."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.audit.context import AuditInput
from pipeline.audit.text import (
    PaperText,
    cited_tables,
    paper_text_from_string,
    read_paper_text,
    split_sentences,
    table_key,
)
from pipeline.errors import BadInputError
from pipeline.fixtures import PaperTruth, demo_truth, write_demo_paper
from pipeline.model import Table


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, PaperTruth, list[Table]]:
    pdf = write_demo_paper(tmp_path_factory.mktemp("demo") / "demo.pdf")
    truth = demo_truth()
    return pdf, truth, [t.to_table(i) for i, t in enumerate(truth.tables)]


@pytest.fixture(scope="module")
def text(demo: tuple[Path, PaperTruth, list[Table]]) -> PaperText:
    pdf, _, tables = demo
    return read_paper_text(pdf, tables)


def test_sentences_citing_a_table_with_their_page(text: PaperText, demo: tuple[Path, PaperTruth, list[Table]]) -> None:
    _, _, tables = demo
    inp = AuditInput("local:demo", "ab" * 32, tables, text=text)
    [sentence] = inp.citing(next(t for t in tables if t.label == "Table 3"))
    assert sentence.text.startswith("Table 3 reports short-range tasks, where the differences")
    assert sentence.page == demo[1].table("Table 3").page


def test_captions_and_table_cells_are_not_body_text(
    text: PaperText, demo: tuple[Path, PaperTruth, list[Table]]
) -> None:
    body = " ".join(s.text for s in text.sentences)
    assert "Accuracy of the five models on the long-range tasks" not in body
    assert "0.757" not in body and "0.438" not in body  # inside the table regions
    assert text.captions["3"].startswith("Table 3: Accuracy of the five models on the long-range tasks")
    for truth in demo[1].tables:
        assert table_key(truth.label) in text.captions


def test_running_heads_are_dropped(text: PaperText) -> None:
    assert not any("A Re-evaluation of DNA Foundation Models on GenBench Table" in s.text for s in text.sentences)


def test_two_column_page_keeps_sentences_whole(text: PaperText) -> None:
    wanted = "Table 4 compares the models on genomic structure prediction in two cell lines."
    assert any(s.text == wanted for s in text.sentences)


def test_every_demo_paragraph_sentence_is_found(text: PaperText, demo: tuple[Path, PaperTruth, list[Table]]) -> None:
    body = {s.text for s in text.sentences}
    expected = [s for p in demo[1].text_paragraphs[1:] for s in split_sentences(p)]
    missing = [s for s in expected if s not in body]
    assert len(missing) <= len(expected) // 20, missing[:5]


def test_unreadable_pdf_is_one_line_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(b"<html>not a pdf</html>")
    with pytest.raises(BadInputError, match=r"bad\.pdf: cannot read"):
        read_paper_text(bad)


@pytest.mark.parametrize(
    ("sentence", "keys"),
    [
        ("Table 3 reports short-range tasks.", {"3"}),
        ("As shown in Tables 2 and 3, it helps.", {"2", "3"}),
        ("Tables 2-4 give the details.", {"2", "3", "4"}),
        ("In Table 3, 12 of the models win.", {"3"}),
        ("Supplementary Table 2 lists them.", {"S2"}),
        ("See Table S1 and Tab. 4.", {"S1", "4"}),
        ("No table here.", set()),
    ],
)
def test_cited_tables(sentence: str, keys: set[str]) -> None:
    assert cited_tables(sentence) == keys


def test_split_sentences_respects_abbreviations() -> None:
    text = "We use e.g. this. Results are in Table 3. Smith et al. found it. Is it? Yes."
    assert split_sentences(text) == [
        "We use e.g. this.",
        "Results are in Table 3.",
        "Smith et al. found it.",
        "Is it?",
        "Yes.",
    ]


def test_paper_text_from_string_and_extra_sentences() -> None:
    text = paper_text_from_string("Table 1 is clean. Table 2 is not.")
    more = text.with_sentences(paper_text_from_string("Error bars: yes.").sentences)
    assert [s.text for s in more.sentences if "2" in cited_tables(s.text)] == ["Table 2 is not."]
    assert len(more.sentences) == 3 and len(text.sentences) == 2
