"""Journal layouts (issue 20) on generated pages with exact truth, and the floor reached on the real journal
papers of ../shared (skipped without it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from papers.journal_layouts import JOURNAL_LAYOUTS

from pipeline.extract.document import extract_tables
from pipeline.fixtures import PaperTruth
from pipeline.model import TablesFile

ROOT = Path(__file__).resolve().parents[1]
JOURNALS = ROOT.parent / "shared" / "corpus" / "journals"


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[PaperTruth, TablesFile]]:
    folder = tmp_path_factory.mktemp("journal_layouts")
    out = {}
    for name, render in JOURNAL_LAYOUTS.items():
        pdf = folder / f"{name}.pdf"
        truth = render(pdf)
        out[name] = (truth, extract_tables(pdf))
    return out


@pytest.mark.parametrize("name", sorted(JOURNAL_LAYOUTS))
def test_every_table_comes_out_under_its_label_and_nothing_else(name: str, rendered: dict) -> None:
    truth, found = rendered[name]
    assert sorted(str(t.label) for t in found.tables) == sorted(t.label for t in truth.tables)
    for expected in truth.tables:
        (table,) = [t for t in found.tables if t.label == expected.label]
        assert table.grid() == expected.cells


def test_a_bare_caption_is_kept_whole(rendered: dict) -> None:
    _, found = rendered["unpunctuated_caption"]
    assert found.tables[0].caption.startswith("Table 1 Accuracy of five DNA language models")


def test_line_numbers_are_no_column(rendered: dict) -> None:
    _, found = rendered["line_numbers"]
    texts = {c.text for t in found.tables for c in t.cells}
    assert not any(text.isdigit() and int(text) > 100 for text in texts)


def test_a_group_header_heads_the_rows_under_it(rendered: dict) -> None:
    _, found = rendered["group_headers"]
    table = found.tables[0]
    value = next(c for c in table.cells if c.text == "0.781")  # 'tata' under 'Human Core Promoter Detection'
    assert value.row_path[0] == "Human Core Promoter Detection"
    dataset = next(c for c in table.cells if c.text == "0.735")  # 'dataset 1' under the second group
    assert dataset.row_path[0] == "Human Transcription Factor Prediction"


@pytest.mark.skipif(not (JOURNALS / "labels.tsv").is_file(), reason="needs ../shared/corpus/journals")
def test_real_journal_tables_are_found_under_their_labels(tmp_path: Path) -> None:
    """Floor slightly under what the extractor reaches (bench-journals prints the figures)."""
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "bench_journals.py"),
            "--shared",
            str(JOURNALS.parents[1]),
            "--no-camelot",
            "--skip-audit",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = done.stdout.splitlines()
    recall = next(ln for ln in lines if ln.startswith("label recall"))
    hits, total = (int(x) for x in recall.split()[2].split("/"))
    assert hits / total >= 0.95, recall
    extras = next(ln for ln in lines if ln.startswith("tables over not_tables"))
    assert int(extras.split(";")[1].split()[0]) <= 1, extras
    project = next(ln for ln in lines if ln.startswith("project"))
    assert float(project.split()[1]) >= 0.80, project
