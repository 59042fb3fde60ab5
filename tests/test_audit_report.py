"""The reviewer's reports: one self-contained HTML page (checked in a real headless browser) and Markdown."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from PIL import Image
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from pipeline.audit.render import COLOURS, CellMark, crop_region, render_tables
from pipeline.audit.settings import AuditSettings
from pipeline.cli import main
from pipeline.fixtures import demo_truth, write_demo_paper
from pipeline.model import Table

FOLDER = "local_demo"
BROWSER = next((b for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None)


@pytest.fixture(scope="module")
def audits(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("ws")
    result = CliRunner().invoke(main, ["--root", str(root), "run", "--demo"])
    assert result.exit_code == 1, result.output
    return root / "audits" / FOLDER


def test_html_is_self_contained(audits: Path) -> None:
    html = (audits / "report.html").read_text()
    assert not re.search(r"""(?:src|href)\s*=\s*["'](?:https?:)?//""", html)
    assert "<script" not in html and "<link" not in html and "@import" not in html
    images = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', html)
    assert len(images) == 7  # one cropped page image per table


def test_html_shows_per_table_image_grid_findings_and_records(audits: Path) -> None:
    html = (audits / "report.html").read_text()
    section = html.split('id="table-1"')[1].split('<section class="table"')[0]  # Table 2, the broken mean
    assert 'class="body error"' in section and ">0.757<sup" in section
    assert "(0.721 + 0.795 + 0.718) / 3 = 0.7447" in section
    assert "Table 2, row &#x27;Mean&#x27;, column &#x27;Caduceus&#x27;" in section
    assert section.count("<tr><td><code>rec:") == 20  # the records drawn from Table 2


def test_markdown_report(audits: Path) -> None:
    md = (audits / "report.md").read_text()
    assert md.startswith("# Audit of local:demo")
    assert re.search(r"\| Mean \S* \| 0\.726 \S+ \| .* \| 0\.757 \[!!\d", md)
    assert "`aggregate-row` — row 'Mean': 0.757 is not the mean" in md
    assert "## Whole paper" in md and "`error-bars-claimed`" in md


def test_flagged_cells_are_outlined_on_the_page_image(tmp_path: Path) -> None:
    pdf = write_demo_paper(tmp_path / "demo.pdf")
    truth = demo_truth().table("Table 2")
    table = truth.to_table(1)
    cell = table.cell_at(4, 5)
    assert cell is not None and cell.bbox is not None
    images = render_tables(pdf, [table], {1: [CellMark(cell.bbox, "error", "1")]}, crop := AuditSettings())
    image = Image.open(io.BytesIO(images[1])).convert("RGB")
    document = pdfium.PdfDocument(str(pdf))
    left, top = crop_region(document[table.page - 1], table, crop.crop_margin)[:2]  # the caption above included
    document.close()
    assert top < table.bbox[1] - crop.crop_margin
    x = int((cell.bbox[0] - left - 1.5) * crop.crop_scale) + 1
    y = int(((cell.bbox[1] + cell.bbox[3]) / 2 - top) * crop.crop_scale)
    assert image.getpixel((x, y)) == COLOURS["error"]
    plain = Image.open(io.BytesIO(render_tables(pdf, [table], {}, AuditSettings())[1])).convert("RGB")
    assert plain.getpixel((x, y)) != COLOURS["error"]


@pytest.mark.skipif(BROWSER is None, reason="no headless Chromium installed")
def test_report_renders_in_a_real_browser(audits: Path, tmp_path: Path) -> None:
    shot = tmp_path / "report.png"
    command = [BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"]
    url = (audits / "report.html").resolve().as_uri()
    dom = subprocess.run([*command, "--dump-dom", url], capture_output=True, text=True, timeout=60, check=True)
    assert dom.stdout.count('<section class="table"') == 7
    subprocess.run(
        [*command, f"--screenshot={shot}", "--window-size=1280,3000", url], capture_output=True, timeout=60, check=True
    )
    image = Image.open(shot).convert("RGB")
    assert image.size == (1280, 3000)
    colours = image.getcolors(maxcolors=1 << 20) or []
    red = sum(n for n, (r, g, b) in colours if r > 180 and g < 60 and b < 60)
    assert red > 200  # error badges and outlined cells are drawn
    assert len(colours) > 500  # text and page images, not a blank page


def test_the_check_table_shows_the_severities_raised_not_the_default(audits: Path) -> None:
    md = (audits / "report.md").read_text()
    assert "| aggregate-row | error | ran | 1 error, 2 info |" in md  # consistent means are info, not errors
    assert "| dataset-reused | warning | ran | 1 warning, 2 info |" in md
    html = (audits / "report.html").read_text()
    row = html.split('class="checks"')[1].split("<code>aggregate-row</code>")[1].split("</tr>")[0]
    assert row.endswith('<td>1 <span class="sev error">error</span> 2 <span class="sev info">info</span></td>')


def test_the_report_opens_with_the_problems_each_linked_to_its_table_and_crop(audits: Path) -> None:
    html = (audits / "report.html").read_text()
    problems = html.index('id="problems"')
    assert problems < html.index('<section class="table"') and problems < html.index('class="checks"')
    assert html.index('id="problems-error"') < html.index('id="problems-warning"')
    errors = html.split('id="problems-error"')[1].split("</ol>")[0]
    assert errors.count("<li") == 2 and errors.count('class="sev error"') == 2
    mean = next(li for li in errors.split("<li")[1:] if "aggregate-row" in li)
    assert '<a href="#table-1">Table 2</a>' in mean and '<a href="#table-1-crop">crop</a>' in mean
    ids = set(re.findall(r'id="([^"]+)"', html))
    assert set(re.findall(r'href="#([^"]+)"', html)) <= ids  # every link lands somewhere
    assert '<a class="count error" href="#problems-error"><b>2</b>errors</a>' in html
    assert '<a class="count warning" href="#problems-warning"><b>7</b>warnings</a>' in html
    assert '<div class="count needs-check"><b>0</b>needs-checks</div>' in html  # nothing to link to
    index = html.split('<nav id="tables">')[1].split("</nav>")[0]
    table2 = next(li for li in index.split("<li>") if ">Table 2</a>" in li)
    assert '1 <span class="sev error">error</span> 2 <span class="sev info">info</span>' in table2


@pytest.mark.skipif(BROWSER is None, reason="no headless Chromium installed")
def test_the_first_error_is_on_the_first_screen(audits: Path, tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright's Python package is not installed")
    with sync_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=shutil.which(BROWSER), args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto((audits / "report.html").resolve().as_uri())
            first = page.locator("#problems-error + ol li").first.bounding_box()
            assert first is not None and first["y"] + first["height"] < 800
            page.click("a.count.error")
            assert page.evaluate("location.hash") == "#problems-error"
            page.click("#problems-error + ol li >> text=crop")
            crop = page.locator("#table-1-crop").bounding_box()
            assert crop is not None and 0 <= crop["y"] < 800  # scrolled to the table's crop
        finally:
            browser.close()


def caption_page(tmp_path: Path, lines: list[tuple[float, float, str]]) -> Path:
    """A one-page PDF with lines of 10 pt Helvetica at (x, top of line) in points from the top-left."""
    path = tmp_path / "page.pdf"
    canvas = Canvas(str(path), pagesize=(612, 792))
    canvas.setFont("Helvetica", 10)
    for x, top, text in lines:
        canvas.drawString(x, 792 - top - 8, text)
    canvas.save()
    return path


CAPTION = "Table 2: Accuracy of the five models on the three parts, a caption that runs wider than its table."
GRID = [(250, 310, "Model    NT    Caduceus"), (250, 325, "notata   0.702   0.721"), (250, 340, "Mean   0.726   0.757")]
TABLE_BOX = (245.0, 305.0, 370.0, 355.0)


def region_of(pdf: Path, caption: str, position: str | None) -> tuple[float, float, float, float]:
    """The crop's region without a margin: the table's box, and its caption when found."""
    table = Table(0, 1, "Table 2", caption, TABLE_BOX, 3, 3, 1, 1, caption_position=position)
    document = pdfium.PdfDocument(str(pdf))
    try:
        return crop_region(document[0], table, 0.0)
    finally:
        document.close()


def test_the_crop_holds_the_whole_caption_however_wide(tmp_path: Path) -> None:
    body = (72, 272, "the paragraph above the float ends here, a line before the caption")
    pdf = caption_page(tmp_path, [body, (72, 288, CAPTION), (505, 288, "next column"), *GRID])
    x0, top, x1, bottom = region_of(pdf, CAPTION, "above")
    assert top > 272 + 10  # the line above is not cut through (10 pt type, 8 pt to its baseline)
    width = stringWidth(CAPTION[:-1], "Helvetica", 10)  # to its last letter: the crop's margin holds the full stop
    assert x0 <= 72 and x1 >= 72 + width - 0.5 and top <= 288 and bottom == TABLE_BOX[3]
    assert x1 < 505  # a line of the next column in the same band stays out
    below = caption_page(tmp_path, [*GRID, (72, 362, CAPTION)])
    assert region_of(below, CAPTION, "below")[3] >= 370 and region_of(below, CAPTION, "below")[1] == TABLE_BOX[1]


@pytest.mark.parametrize(
    ("lines", "position"),
    [
        ([(72, 80, CAPTION)], "above"),  # the caption's text far from the table: not its caption there
        ([(72, 362, CAPTION)], "above"),  # beside the table, but on the other side than the caption's
        ([(72, 288, "as the results in " + CAPTION)], "above"),  # mentioned within a line, not a caption's start
        ([(72, 288, "Table 2: Loss of the five models, another table's caption with the same label.")], "above"),
        ([(72, 288, "Table 2 shows that the models differ on the three parts.")], None),  # a sentence naming it
    ],
)
def test_text_that_is_not_the_caption_leaves_the_crop_alone(tmp_path: Path, lines: list, position: str | None) -> None:
    pdf = caption_page(tmp_path, [*lines, *GRID])
    assert region_of(pdf, CAPTION, position) == TABLE_BOX
