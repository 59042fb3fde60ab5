"""The reviewer's reports: one self-contained HTML page (checked in a real headless browser) and Markdown."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from pipeline.audit.render import COLOURS, CellMark, render_tables
from pipeline.audit.settings import AuditSettings
from pipeline.cli import main
from pipeline.fixtures import demo_truth, write_demo_paper

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
    x = int((cell.bbox[0] - (table.bbox[0] - crop.crop_margin) - 1.5) * crop.crop_scale) + 1
    y = int(((cell.bbox[1] + cell.bbox[3]) / 2 - (table.bbox[1] - crop.crop_margin)) * crop.crop_scale)
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
    row = html.split("<code>aggregate-row</code>")[1].split("</tr>")[0]
    assert row.endswith('<td>1 <span class="sev error">error</span> 2 <span class="sev info">info</span></td>')
