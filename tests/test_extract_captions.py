"""find_captions: caption starts, labels as printed, and the lines that continue a caption."""

from __future__ import annotations

import pytest
from extraction_checks import typed_chars

from pipeline.extract.page.words import Line, build_words, group_lines
from pipeline.extract.reading.graphics import Rule
from pipeline.extract.regions.captions import caption_label, find_captions, is_figure_caption
from pipeline.extract.regions.grow import Region
from pipeline.extract.regions.sides import settle_page


def _lines(*rows: tuple[str, float, float]) -> list[Line]:
    chars = [c for text, x0, baseline in rows for c in typed_chars(text, x0, baseline)]
    return group_lines(build_words(chars, 0.12))


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("Table 3: Accuracy on the test split.", "Table 3"),
        ("Table S1. Hyperparameters.", "Table S1"),
        ("Supplementary Table 2: Training time.", "Supplementary Table 2"),
        ("TABLE IV", "Table IV"),
        ("Table 1 | Comparison of training FLOPS", "Table 1"),
        ("Tab. 5: Ablations", "Table 5"),
    ],
)
def test_caption_labels(text: str, label: str) -> None:
    assert caption_label(text) == label


@pytest.mark.parametrize(
    "text", ["Table 3 shows that all three options are better", "Tables 1 to 3 report", "Figure 2: A plot"]
)
def test_references_in_running_text_are_not_captions(text: str) -> None:
    assert caption_label(text) is None


def test_caption_collects_its_wrapped_lines_and_stops_at_the_paragraph_gap() -> None:
    lines = _lines(
        ("Table 4: Accuracy of each model on the held-out", 50, 100),
        ("test split, averaged over three runs.", 50, 112),
        ("Model Accuracy", 80, 140),
    )
    (caption,) = find_captions(lines)
    assert caption.label == "Table 4"
    assert caption.text == "Table 4: Accuracy of each model on the held-out test split, averaged over three runs."
    assert not caption.continued


def test_caption_stops_at_the_tables_top_rule() -> None:
    lines = _lines(("Table S1: Hyperparameter settings.", 50, 100), ("GENERator-v2", 60, 114))
    rule = Rule(40, 103.8, 300, 104.2)
    (caption,) = find_captions(lines, [rule])
    assert caption.text == "Table S1: Hyperparameter settings."


def test_continued_caption_is_flagged() -> None:
    (caption,) = find_captions(_lines(("Table 5 (continued): Results per dataset.", 50, 100)))
    assert caption.label == "Table 5"
    assert caption.continued


def _region(*lines: Line) -> Region:
    return Region(0, min(ln.top for ln in lines), 100, max(ln.bottom for ln in lines), lines=list(lines))


def test_a_table_between_two_captions_goes_to_the_one_that_has_no_other() -> None:
    """T1, caption 1, T2, caption 2 (captions below): caption 1 could claim either table, caption 2 only
    T2; the habit of the document (captions above) must not give T2 to caption 1."""
    t1, t2 = _region(*_lines(("a 1 2", 0, 10))), _region(*_lines(("b 3 4", 0, 50)))
    options = [{True: t2, False: t1}, {False: t2}]
    assert settle_page(options, [True, False], [(5.6, 5.7), (-1.0, 5.7)]) == [t1, t2]


def test_the_preferred_side_wins_when_both_readings_give_every_caption_a_table() -> None:
    t1, t2, t3 = (_region(*_lines((f"x {k}", 0, 10 + 40 * k))) for k in range(3))
    options = [{True: t2, False: t1}, {True: t3, False: t2}]
    assert settle_page(options, [True, True], [(5.0, 5.0), (5.0, 5.0)]) == [t2, t3]
    assert settle_page(options, [False, False], [(5.0, 5.0), (5.0, 5.0)]) == [t1, t2]


def test_a_figure_caption_ends_in_a_separator_or_a_parenthesis() -> None:
    assert is_figure_caption("Figure 15 (data until 2010)")
    assert is_figure_caption("Figure 4b: Accuracy per task")
    assert not is_figure_caption("Figure 3 shows the accuracy")
