"""Tables printed as images: where a captioned table region has no text layer, the page is rendered by pypdfium2
and the region read by Tesseract (the optional `ocr` extra and Debian's tesseract-ocr); the cells keep page boxes
and the table says it was read by OCR. Pages with a text layer never reach here."""

from __future__ import annotations

import shutil
from collections import Counter
from dataclasses import dataclass, field
from itertools import pairwise

import pypdfium2 as pdfium
from PIL import Image

from pipeline.extract.page.layout import PageLayout
from pipeline.extract.regions.captions import Caption
from pipeline.extract.regions.grow import Region
from pipeline.model import Cell, Locator, Table
from pipeline.numbers import is_numeric

OCR_CONFIDENCE = 0.6  # a grid read from pixels: never above the audit's proof bar, whatever the page looks like
READ_BY_OCR = "read by OCR"
NOT_READ = "image, not read: install tesseract-ocr"
RENDER_DPI = 300  # Tesseract reads body-size print best at 300 dpi
BLOCK_GAP = 2.0  # rows further apart than this many line pitches belong to two stacked tables
WORD_GAP = 0.6  # words closer than this share of the line height belong to one cell
RULE_MARKS = "|[]_ "  # what Tesseract makes of a cell's border
FILL_SHARE = 0.02  # a grey level covering this share of the region is a fill (shading or paper), not ink
FILL_MARGIN = 40  # print is at least this much darker than the fill under it (0-255 grey levels)
INK_CUT = 160  # never count a grey lighter than this as ink
MIN_IMAGE_SIDE = 36.0  # points: an image smaller than half an inch is a logo or an icon, not a table


@dataclass(frozen=True)
class OcrWord:
    """A word Tesseract read, boxed in page points (top-left origin, the page as displayed)."""

    text: str
    x0: float
    top: float
    x1: float
    bottom: float


@dataclass
class _Phrase:
    """Neighbouring words of one text row: one cell's text, or a header over several columns."""

    words: list[OcrWord] = field(default_factory=list)

    @property
    def x0(self) -> float:
        return min(w.x0 for w in self.words)

    @property
    def x1(self) -> float:
        return max(w.x1 for w in self.words)

    @property
    def text(self) -> str:
        return " ".join(w.text for w in self.words)

    @property
    def bbox(self) -> tuple[float, float, float, float]:
        ws = self.words
        return (
            round(min(w.x0 for w in ws), 2),
            round(min(w.top for w in ws), 2),
            round(max(w.x1 for w in ws), 2),
            round(max(w.bottom for w in ws), 2),
        )


def tesseract_ready() -> bool:
    """Both halves of OCR are here: the pytesseract package and the tesseract program it drives."""
    try:
        import pytesseract  # noqa: F401
    except ImportError:
        return False
    return shutil.which("tesseract") is not None


def image_region(layout: PageLayout, caption: Caption) -> Region | None:
    """A table caption with a raster image right above or below it that carries no text: the table is the
    image (a screenshot of a spreadsheet, a scan)."""
    reach = 3 * caption.size
    for image in layout.content.drawing.images:
        box = (max(image.x0, 0.0), max(image.top, 0.0), image.x1, image.bottom)
        if min(box[2] - box[0], box[3] - box[1]) < MIN_IMAGE_SIDE or box[2] <= caption.x0 or box[0] >= caption.x1:
            continue
        below = 0 <= box[1] - caption.bottom <= reach
        above = 0 <= caption.top - box[3] <= reach
        if (below or above) and not layout.words_in(*box):
            note = "no text layer: the table is printed as an image"
            return Region(*box, caption=caption, caption_position="above" if below else "below", notes=[note])
    return None


def read_image_tables(doc: pdfium.PdfDocument, tables: list[Table], sha: str) -> list[Table]:
    """Each captioned table found without a text layer, read by OCR where Tesseract is installed, else listed
    with what to install."""
    needed = [t for t in tables if t.label and not t.cells and not t.artifact]
    if not needed:
        return tables
    if not tesseract_ready():
        for table in needed:
            table.notes.append(NOT_READ)
            table.confidence = 0.0
        return tables
    read = {id(t): ocr_table(doc[t.page - 1], t, sha) for t in needed}
    return [read.get(id(t), t) for t in tables]


def ocr_words(page: pdfium.PdfPage, box: tuple[float, float, float, float]) -> list[OcrWord]:
    """Tesseract's words inside ``box`` (page points, top-left origin) of the page rendered at RENDER_DPI."""
    import pytesseract

    scale = RENDER_DPI / 72
    image = page.render(scale=scale, grayscale=True).to_pil()
    x0, top, x1, bottom = (max(v * scale, 0.0) for v in box)
    crop = image.crop((int(x0), int(top), min(int(x1) + 1, image.width), min(int(bottom) + 1, image.height)))
    data = pytesseract.image_to_data(ink_only(crop), config="--psm 6", output_type=pytesseract.Output.DICT)
    words = []
    for text, left, up, width, height, conf in zip(
        data["text"], data["left"], data["top"], data["width"], data["height"], data["conf"], strict=True
    ):
        text = text.strip(RULE_MARKS)  # a cell's border read as a bar or a bracket
        if text and "|" not in text and float(conf) >= 0:
            box = (int(x0) + left, int(top) + up, int(x0) + left + width, int(top) + up + height)
            words.append(OcrWord(text, *(v / scale for v in box)))
    return words


def ink_only(image: Image.Image) -> Image.Image:
    """Black ink on white. Every shading is a flat fill covering many pixels and the print is darker than all of
    them (dense print covers many pixels too, but dark ones), so the cut lies under the darkest light fill; a cell
    shaded grey otherwise hides its text from Tesseract."""
    counts = image.histogram()
    many = FILL_SHARE * image.width * image.height
    fills = [level for level, n in enumerate(counts) if n >= many and level > INK_CUT - FILL_MARGIN]
    cut = min(INK_CUT, min(fills, default=255) - FILL_MARGIN)
    return image.point(lambda v: 255 if v > cut else 0)


def ocr_table(page: pdfium.PdfPage, table: Table, sha: str) -> Table:
    """The table's region read by OCR into a grid; a region where Tesseract finds no words keeps no cells."""
    words = ocr_words(page, table.bbox)
    placed = [row for block in _blocks(_rows(words)) for row in _placed_block(block)]
    if not placed:
        table.notes.append(f"{READ_BY_OCR}: no words found in the image")
        table.confidence = 0.0
        return table
    n_cols = max(col + span for row in placed for col, (_phrase, span) in row.items())
    header_rows = 1 if len(placed) > 1 else 0
    stubs = 1 if n_cols > 1 and _wordy([row.get(0) for row in placed[header_rows:]]) else 0
    table.cells = _cells(placed, header_rows, stubs, table, sha)
    table.n_rows, table.n_cols = len(placed), n_cols
    table.header_rows, table.stub_cols = header_rows, stubs
    table.engine = "litaudit-ocr"
    table.confidence = OCR_CONFIDENCE
    table.notes.append(f"{READ_BY_OCR}: the table is an image with no text layer (Tesseract at {RENDER_DPI} dpi)")
    return table


def _rows(words: list[OcrWord]) -> list[list[OcrWord]]:
    """Words that share a text line: each word joins the row whose vertical extent holds its middle."""
    rows: list[list[OcrWord]] = []
    for word in sorted(words, key=lambda w: (w.top + w.bottom) / 2):
        middle = (word.top + word.bottom) / 2
        if rows and min(w.top for w in rows[-1]) <= middle <= max(w.bottom for w in rows[-1]):
            rows[-1].append(word)
        else:
            rows.append([word])
    return [sorted(row, key=lambda w: w.x0) for row in rows]


def _blocks(rows: list[list[OcrWord]]) -> list[list[list[OcrWord]]]:
    """Rows split where a gap wider than two line pitches parts them: tables stacked in one image, each with
    its own columns."""
    middles = [sum((w.top + w.bottom) / 2 for w in row) / len(row) for row in rows]
    steps = sorted(b - a for a, b in pairwise(middles))
    pitch = steps[len(steps) // 2] if steps else 0.0
    blocks: list[list[list[OcrWord]]] = []
    for i, row in enumerate(rows):
        if not blocks or middles[i] - middles[i - 1] > BLOCK_GAP * pitch:
            blocks.append([])
        blocks[-1].append(row)
    return blocks


def _placed_block(rows: list[list[OcrWord]]) -> list[dict[int, tuple[_Phrase, int]]]:
    phrases = [_phrases(row) for row in rows]
    columns = _columns(phrases)
    return [_place(row, columns) for row in phrases] if columns else []


def _phrases(row: list[OcrWord]) -> list[_Phrase]:
    height = max(w.bottom - w.top for w in row)
    phrases = [_Phrase([row[0]])]
    for word in row[1:]:
        if word.x0 - phrases[-1].x1 <= WORD_GAP * height:
            phrases[-1].words.append(word)
        else:
            phrases.append(_Phrase([word]))
    return phrases


def _columns(rows: list[list[_Phrase]]) -> list[tuple[float, float]]:
    """Column extents from the rows that show the commonest number of cells (two or more): the union of their
    cells' extents; a heading over several columns or a lone title row does not set them."""
    counts = Counter(len(row) for row in rows if len(row) >= 2)
    if not counts:
        return [(min(p.x0 for row in rows for p in row), max(p.x1 for row in rows for p in row))] if rows else []
    modal = max(counts, key=lambda n: (counts[n], n))
    spans = sorted((p.x0, p.x1) for row in rows if len(row) == modal for p in row)
    merged: list[tuple[float, float]] = []
    for x0, x1 in spans:
        if merged and x0 <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], x1))
        else:
            merged.append((x0, x1))
    return merged


def _place(row: list[_Phrase], columns: list[tuple[float, float]]) -> dict[int, tuple[_Phrase, int]]:
    """Each phrase at the first column it overlaps (the nearest when it overlaps none), spanning every column it
    covers; two phrases in one column are one cell."""
    cells: dict[int, tuple[_Phrase, int]] = {}
    for phrase in row:
        over = [i for i, (x0, x1) in enumerate(columns) if phrase.x0 < x1 and x0 < phrase.x1]
        if not over:
            middle = (phrase.x0 + phrase.x1) / 2
            over = [min(range(len(columns)), key=lambda i: abs((columns[i][0] + columns[i][1]) / 2 - middle))]
        first = over[0]
        if first in cells:
            kept, span = cells[first]
            cells[first] = (_Phrase([*kept.words, *phrase.words]), max(span, len(over)))
        else:
            cells[first] = (phrase, len(over))
    return cells


def _wordy(cells: list[tuple[_Phrase, int] | None]) -> bool:
    texts = [c[0].text for c in cells if c is not None]
    return bool(texts) and sum(not is_numeric(t) for t in texts) * 2 > len(texts)


def _cells(
    placed: list[dict[int, tuple[_Phrase, int]]], header_rows: int, stubs: int, table: Table, sha: str
) -> list[Cell]:
    heads: dict[int, list[str]] = {}
    for row in placed[:header_rows]:
        for col, (phrase, span) in row.items():
            for c in range(col, col + span):
                heads.setdefault(c, []).append(phrase.text)
    cells = []
    for r, row in enumerate(placed):
        stub = [row[0][0].text] if 0 in row and stubs else []
        starts = sorted(row)
        for col, next_col in zip(starts, [*starts[1:], None], strict=True):
            phrase, span = row[col]
            span = min(span, next_col - col) if next_col is not None else span  # no cell over the next one
            kind = "header" if r < header_rows else ("stub" if col < stubs else "body")
            row_path = stub if kind != "header" else []
            col_path = heads.get(col, []) if kind != "header" else []
            locator = Locator.of_cell(sha, table.label, table.index, r, col, row_path, col_path, page=table.page)
            cells.append(
                Cell.printed(
                    r,
                    col,
                    phrase.text,
                    kind,
                    col_span=span,
                    bbox=phrase.bbox,
                    row_path=row_path,
                    col_path=col_path,
                    locator=locator,
                )
            )
    return cells
