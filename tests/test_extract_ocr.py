"""Tables printed as images are read by Tesseract and say so (confidence at most 0.6, "read by OCR", cells boxed on
the page); without Tesseract they are listed with what to install; pages with a text layer never reach OCR."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import SHARED
from papers.doubt_layouts import render_image_table
from papers.features import FEATURE_PAPERS

import pipeline.extract.reading.ocr as ocr
from pipeline.extract.document.tables import extract_tables
from pipeline.fixtures import render_paper

needs_tesseract = pytest.mark.skipif(
    not ocr.tesseract_ready(),
    reason="OCR needs tesseract-ocr and pytesseract: apt-get install tesseract-ocr; pip install 'litaudit[ocr]'",
)


def _same(a: str | None, b: str | None) -> bool:
    return "".join((a or "").split()) == "".join((b or "").split())


@needs_tesseract
def test_a_table_printed_as_an_image_is_read_by_ocr(tmp_path: Path) -> None:
    truth = render_image_table(tmp_path / "image.pdf").tables[0]
    (table,) = extract_tables(tmp_path / "image.pdf").tables
    assert table.label == truth.label and table.engine == "litaudit-ocr"
    assert table.confidence <= ocr.OCR_CONFIDENCE
    assert any(n.startswith(ocr.READ_BY_OCR) for n in table.notes), table.notes
    grid = table.grid()
    assert (len(grid), len(grid[0])) == (len(truth.cells), len(truth.cells[0])), grid
    cells = [(g, t) for row, trow in zip(grid, truth.cells, strict=True) for g, t in zip(row, trow, strict=True)]
    assert sum(_same(g, t) for g, t in cells) >= 0.9 * len(cells), grid
    x0, top, x1, bottom = table.bbox
    for cell in table.cells:  # every cell boxed on the page, inside the image
        assert cell.bbox is not None and cell.locator is not None
        assert (
            x0 - 1 <= cell.bbox[0] <= cell.bbox[2] <= x1 + 1 and top - 1 <= cell.bbox[1] <= cell.bbox[3] <= bottom + 1
        )


def test_without_tesseract_an_image_table_is_listed_with_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    render_image_table(tmp_path / "image.pdf")
    monkeypatch.setattr(ocr, "tesseract_ready", lambda: False)
    (table,) = extract_tables(tmp_path / "image.pdf").tables
    assert table.label == "Table 1" and not table.cells
    assert ocr.NOT_READ in table.notes and table.confidence == 0.0


def test_pages_with_a_text_layer_never_reach_ocr(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_args: object) -> None:
        raise AssertionError("OCR ran on a page with a text layer")

    monkeypatch.setattr(ocr, "ocr_words", refuse)
    render_paper(FEATURE_PAPERS["booktabs"], tmp_path / "text.pdf")
    assert extract_tables(tmp_path / "text.pdf").tables


IMAGE_ONLY = [  # the dev sets' two tables with no text layer, and a cell each prints
    ("journals2/papers/biorxiv_brain_retrotransposons.pdf", 5, "Table 1", "Postmortem interval"),
    ("journals/papers/bmc_smoking_dnam_classifiers.pdf", 3, "Table 2", "Agnostic LASSO"),
]


@needs_tesseract
@pytest.mark.shared
@pytest.mark.parametrize(("pdf", "page", "label", "printed"), IMAGE_ONLY)
def test_the_dev_sets_image_only_tables_are_read(pdf: str, page: int, label: str, printed: str) -> None:
    path = SHARED / "corpus" / pdf
    if not path.is_file():
        pytest.skip(f"{path} is absent")
    tables = [t for t in extract_tables(path).tables if t.page == page and t.label == label]
    assert len(tables) == 1
    (table,) = tables
    assert table.engine == "litaudit-ocr" and table.confidence <= ocr.OCR_CONFIDENCE
    assert table.n_rows >= 5 and table.n_cols >= 3
    assert any(c.text == printed for c in table.cells), table.grid()
