"""Every table of one PDF: cheap page screening, then full layout analysis of the pages that need it."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium

from pipeline.extract.confidence.doubts import Evidence, apply_doubts, grid_doubts, unplaced_labels
from pipeline.extract.confidence.score import FIGURE_LIKE_CONFIDENCE, doubt
from pipeline.extract.document.assemble import to_table
from pipeline.extract.document.continued import merge_continuations
from pipeline.extract.document.pages import DocumentPages, Page
from pipeline.extract.document.titles import take_titles
from pipeline.extract.grid.lattice import is_lattice, lattice_grid
from pipeline.extract.grid.structure import Grid, build_grid
from pipeline.extract.page.layout import PageLayout, arrange_page
from pipeline.extract.page.turned import page_box, to_page_frame, turn_page
from pipeline.extract.reading.chars import mostly_sideways, open_page, open_pdf, page_text, read_chars, read_graphics
from pipeline.extract.reading.ocr import image_region, read_image_tables
from pipeline.extract.reading.weight import StrokeCache
from pipeline.extract.regions.captions import Caption, bare_caption_label, caption_label, is_figure_caption
from pipeline.extract.regions.figure_cuts import cut_before_figure, split_beside_figure
from pipeline.extract.regions.figures import STRONG_SIGNALS, figure_reasons, overlap
from pipeline.extract.regions.grow import Region, grow_region, side_scores
from pipeline.extract.regions.outlines import outline_region
from pipeline.extract.regions.panels import split_panels
from pipeline.extract.regions.run_on import doubt_run_ons
from pipeline.extract.regions.sides import choose_sides, settle_page
from pipeline.extract.regions.uncaptioned import find_ruled_regions, may_hold_ruled_table
from pipeline.extract.regions.whitespace import find_whitespace_regions
from pipeline.extract.settings import EXTRACTOR_VERSION, ExtractionSettings
from pipeline.model import Figure, Table, TablesFile
from pipeline.numbers import is_numeric
from pipeline.progress import steps
from pipeline.store import sha256_file

_NUMBER = re.compile(r"(?<![\w.])[-+]?\d[\d,]*(?:\.\d+)?%?(?![\w.])")
ENGINE = "litaudit-layout"  # rows from baselines, columns from whitespace, rules where printed
LATTICE = "litaudit-lattice"  # cells from a full grid of ruling lines
ROW_NUMBERS = 0.4  # the share of a line's words that are numbers for it to count as a table's row on screening


def extractor_info(settings: ExtractionSettings) -> dict[str, Any]:
    return {"name": "litaudit", "version": EXTRACTOR_VERSION, "settings": settings.to_dict()}


def extract_tables(
    pdf_path: Path, settings: ExtractionSettings | None = None, source: dict[str, Any] | None = None
) -> TablesFile:
    """All tables of the PDF at ``pdf_path``; ``source`` defaults to a bare-file source record."""
    settings = settings or ExtractionSettings()
    sha = sha256_file(pdf_path)
    source = {"id": f"file:{pdf_path.stem}", "path": str(pdf_path), **(source or {})}
    source["sha256"] = source.get("sha256") or sha
    doc = open_pdf(pdf_path)
    try:
        total = len(doc)
        strokes: StrokeCache = {}
        pages = DocumentPages(lambda i: _read(doc, i, settings, strokes), min(total, settings.max_pages))
        tables, figures = find_tables(pages, str(source["sha256"]), settings)
        tables = read_image_tables(doc, tables, str(source["sha256"]))
    finally:
        doc.close()
    tables = merge_continuations(tables)
    if any(t.label for t in tables):  # where tables have captions, one without is likely a formula or a plot
        tables = [t for t in tables if t.label is not None or _table_like(t)]
    info = extractor_info(settings)
    return TablesFile(source=source, extractor=info, tables=renumber(tables), pages=total, figures=figures)


def _table_like(table: Table) -> bool:
    """An uncaptioned table is kept when numbers fill a good share of its body (formulas and algorithm
    listings laid out in columns do not)."""
    body = [c for c in table.cells if c.kind == "body"]
    numbers = sum(any(ch.isdigit() for ch in c.text) or is_numeric(c.text) for c in body)
    return bool(body) and numbers >= 0.4 * len(body)


def _numeric_lines(lines: list[str]) -> int:
    """Lines that read like a table's rows: three or more numbers, making up a good share of the line's words
    (a reference list's volumes, pages and years, and prose quoting results, sit among words)."""
    return sum(
        1
        for line in lines
        if len(found := _NUMBER.findall(line)) >= 3 and len(found) >= ROW_NUMBERS * len(line.split())
    )


def renumber(tables: list[Table]) -> list[Table]:
    """Document order indexes, and locators that carry each table's final label and index."""
    for index, table in enumerate(tables):
        table.index = index
        for cell in table.cells:
            if cell.locator is not None:
                cell.locator = dataclasses.replace(cell.locator, table_label=table.label, table_index=index)
    return tables


def _read(doc: pdfium.PdfDocument, index: int, settings: ExtractionSettings, strokes: StrokeCache) -> PageLayout | None:
    """A page worth a full read: one with a line that starts a table caption, or (looking for
    uncaptioned tables) one whose rules or shading could draw a table."""
    with open_page(doc, index) as (page, textpage):
        lines = page_text(textpage).splitlines()
        content = read_graphics(page, index + 1, settings.rule_thickness_pt, settings.min_rule_length_pt)
        named = any(bare_caption_label(line) or line.endswith("TABLE") for line in lines) or mostly_sideways(textpage)
        drawn = may_hold_ruled_table(content) or _numeric_lines(lines) >= 3
        if not (named or (settings.find_uncaptioned and drawn)):
            return None
        read_chars(page, textpage, content, strokes)
    return arrange_page(turn_page(content, settings.word_gap), settings)


def find_tables(pages: DocumentPages, sha: str, settings: ExtractionSettings) -> tuple[list[Table], list[Figure]]:
    """Every table of the document, page by page, and the regions set apart as parts of figures; caption sides
    are settled over the whole document first."""
    scores = {i: _caption_scores(pages.get(i)) for i in pages.captioned}
    numbered = [(i + 1, *score) for i in pages.indexes for score in scores.get(i, [])]
    preferred = iter(choose_sides(numbered))
    tables: list[Table] = []
    figures: list[Figure] = []
    titles: list[tuple[int, Caption]] = []  # (page, caption): captions under which no table was read
    for i in steps(pages.indexes, len(pages.indexes), "tables by page"):
        page = pages.get(i)
        mine = scores.get(i, [])
        regions, set_apart = page_regions(page, mine, [next(preferred) for _ in mine], settings)
        figures += set_apart
        placed = []
        for region in regions:
            for panel in split_panels(region):
                table = table_from_region(page.layout, panel, len(tables), sha, settings)
                if table is not None:
                    tables.append(_doubted(table, page.layout, panel))
                    placed.append((table, panel))
        for table, unplaced in unplaced_labels(page.captions, placed):
            apply_doubts(table, [unplaced])
        titles += [(i + 1, c) for c in page.captions if c.label not in {t.label for t, _ in placed}]
        pages.release(i)
    return take_titles(tables, titles), figures


def _doubted(table: Table, layout: PageLayout, region: Region) -> Table:
    """The doubts the layout found about the table's region, each capping its confidence with why; and a
    captioned table drawn like a figure is kept (its caption names a table) but under the audit's needs-check
    bar, with why; only strong signals count against a caption."""
    for ceiling, why in region.doubts:
        doubt(table, ceiling, why)
    captioned = region.caption is not None and region.lines  # (glyphs drawn as outlines are no figure's marks)
    reasons = figure_reasons(layout, region.bbox, STRONG_SIGNALS) if captioned else []
    if reasons:
        return doubt(
            table,
            FIGURE_LIKE_CONFIDENCE,
            f"drawn like a figure ({'; '.join(reasons)}): kept for its caption, to be checked",
        )
    return table


def _caption_scores(page: Page) -> list[tuple[float, float]]:
    return [side_scores(page.layout, caption) for caption in page.captions]


def page_regions(
    page: Page, scores: list[tuple[float, float]], preferred: list[bool | None], settings: ExtractionSettings
) -> tuple[list[Region], list[Figure]]:
    """A page's table regions, top to bottom: one per caption where its sides allow, and (when looking for
    them) ruled and whitespace tables without a caption where no captioned table lies; uncaptioned regions
    that are part of a figure are set apart as figures."""
    layout = page.layout
    options = [_options(layout, caption, score, settings) for caption, score in zip(page.captions, scores, strict=True)]
    chosen = settle_page(options, preferred, scores)
    drawn = [
        outline_region(layout, c) or image_region(layout, c)
        for c, region in zip(page.captions, chosen, strict=True)
        if region is None
    ]
    regions = [_short_of_figure(layout, region) for region in [*chosen, *drawn] if region is not None]
    figures: list[Figure] = []
    if settings.find_uncaptioned:
        regions += find_ruled_regions(layout, regions)
        regions += find_whitespace_regions(layout, regions)
        kept = []
        claimed = {id(w) for c in page.captions for ln in c.lines for w in ln.words}  # (each caption names one table)
        for region in regions:
            reasons = _figure_reasons(region, layout)
            alone = region.caption is None and _in_body(region, layout) and not _by_figure(region, layout)
            beside = split_beside_figure(layout, region) if alone else None
            caption = _table_caption_by(region, layout, claimed) if reasons and beside is None else None
            if beside is not None:  # a table beside a chart: the table kept, the chart set apart
                region, figure_box = beside
                figures.append(_figure(layout, figure_box, figure_reasons(layout, figure_box)))
            elif caption is not None:
                claimed |= {id(w) for ln in caption[0].lines for w in ln.words}
                region = _kept_for_caption(region, caption, reasons)
            elif reasons:
                figures.append(_figure(layout, region.bbox, reasons))
                continue
            if region.caption or _free_standing(region, layout):
                kept.append(region)
        regions = kept
    regions = _distinct(regions)
    doubt_run_ons(regions, layout)
    return sorted(regions, key=lambda r: (r.top, r.x0)), figures


def _short_of_figure(layout: PageLayout, region: Region) -> Region:
    return (cut_before_figure(layout, region) if region.lines else None) or region


def _distinct(regions: list[Region]) -> list[Region]:
    """No table twice: a region lying mostly on one found before it (captioned ones come first) is dropped,
    and so is an uncaptioned one lying a quarter on a captioned table (its rows run on into text beside it)."""
    kept: list[Region] = []
    for region in regions:
        shared = [(other, overlap(region.bbox, other.bbox)) for other in kept]
        twice = any(area >= 0.5 * min(_area(region), _area(other)) for other, area in shared)
        runs_on = region.caption is None and any(
            other.caption is not None and area > 0.25 * _area(region) for other, area in shared
        )
        if not (twice or runs_on):
            kept.append(region)
    return kept


def _area(region: Region) -> float:
    return max((region.x1 - region.x0) * (region.bottom - region.top), 1e-6)


def _options(
    layout: PageLayout, caption: Caption, scores: tuple[float, float], settings: ExtractionSettings
) -> dict[bool, Region]:
    """The table grown on each side of the caption that looks like one."""
    sides = [below for below, score in zip((True, False), scores, strict=True) if score > 0]
    grown = {below: grow_region(layout, caption, settings, below) for below in sides}
    return {below: region for below, region in grown.items() if region is not None}


def _free_standing(region: Region, layout: PageLayout) -> bool:
    """An uncaptioned region is a table candidate inside the body band (running heads and feet are not) and
    away from a figure."""
    return _in_body(region, layout) and not _by_figure(region, layout)


def _in_body(region: Region, layout: PageLayout) -> bool:
    return layout.body_top - 1 <= region.top and region.bottom <= layout.body_bottom + 1


def _by_figure(region: Region, layout: PageLayout) -> bool:
    """A region right above or below a figure caption, or holding one, is (part of) a figure."""
    return _figure_caption_near(region, layout) is not None


def _figure_caption_near(region: Region, layout: PageLayout, beside_only: bool = False) -> str | None:
    """The figure caption right above or below the region, or inside it (unless ``beside_only``)."""
    reach = 3 * layout.body_size
    return next(
        (
            ln.text
            for ln in layout.column_lines
            if is_figure_caption(ln.text)
            and ln.x1 > region.x0
            and ln.x0 < region.x1
            and region.top - reach <= ln.bottom
            and ln.top <= region.bottom + reach
            and not (beside_only and region.top < ln.top < region.bottom)
        ),
        None,
    )


def _figure_reasons(region: Region, layout: PageLayout) -> list[str]:
    """Why an uncaptioned region in the body band is (part of) a figure: it lies right above or below a figure
    caption, or it is drawn like a figure (regions/figures.py). One that holds a figure caption runs on into the text
    around the figure: it is set aside unnamed, by _free_standing."""
    if region.caption is not None or not _in_body(region, layout):
        return []
    caption = _figure_caption_near(region, layout, beside_only=True)
    beside = [f"aligned text beside the figure caption '{caption[:40]}'"] if caption is not None else []
    return beside + figure_reasons(layout, region.bbox)


def _table_caption_by(region: Region, layout: PageLayout, claimed: set[int]) -> tuple[Caption, str] | None:
    """A table caption of its own right above or below a region with none: its label starts a piece of a column
    line (a caption set beside another column's text, on a page whose columns were not told apart, is read as
    part of that text's line), with the pieces under it that continue it; and where the caption lies. A caption
    ``claimed`` (found on the page, or by a region before) names its own table."""
    reach = 3 * layout.body_size
    pieces = [p for ln in layout.column_lines for p in ln.pieces if p.x1 > region.x0 and p.x0 < region.x1]
    for piece in sorted(pieces, key=lambda p: min(abs(region.top - p.bottom), abs(p.top - region.bottom))):
        label = caption_label(piece.text)
        above = region.top - reach <= piece.bottom <= region.top + 1
        below = region.bottom - 1 <= piece.top <= region.bottom + reach
        if label is None or not (above or below) or any(id(w) in claimed for w in piece.words):
            continue
        body = [piece]
        for nxt in sorted(pieces, key=lambda p: p.top):
            after = 0 < nxt.top - body[-1].bottom <= 0.9 * piece.size and abs(nxt.x0 - piece.x0) <= 2
            if after and (not above or nxt.bottom <= region.top + 1):
                body.append(nxt)
        caption = Caption(label, " ".join(b.text for b in body), body)
        return caption, "above" if above else "below"
    return None


def _kept_for_caption(region: Region, caption: tuple[Caption, str], reasons: list[str]) -> Region:
    """A region drawn or placed like part of a figure that has a table caption of its own: the two signals
    conflict, so the table is kept under its caption below the audit's needs-check bar, with both reasons
    (a captioned table is never dropped silently)."""
    found, position = caption
    why = f"its own caption '{found.text[:40]}' names a table, yet it looks like part of a figure"
    doubts = [*region.doubts, (FIGURE_LIKE_CONFIDENCE, f"{why} ({'; '.join(reasons)}): kept, to be checked")]
    return dataclasses.replace(region, caption=found, caption_position=position, doubts=doubts)


def _figure(layout: PageLayout, box: tuple[float, float, float, float], reasons: list[str]) -> Figure:
    x0, top, x1, bottom = box
    width, height = layout.content.width, layout.content.height  # (a figure's clipped paths run off the page)
    on_page = (max(x0, 0.0), max(top, 0.0), min(x1, width), min(bottom, height))
    shown = tuple(round(v, 2) for v in page_box(on_page, layout.content))
    reason = "; ".join(reasons) + ": part of a figure, not a table"
    return Figure(page=layout.number, bbox=shown, reason=reason)  # type: ignore[arg-type]


def table_from_region(
    layout: PageLayout, region: Region, index: int, sha: str, settings: ExtractionSettings
) -> Table | None:
    if region.caption is not None and not region.lines:
        return _without_text(layout, region, region.caption, index)
    caption_words = {id(w) for line in (region.caption.lines if region.caption else []) for w in line.words}
    x0, top, x1, bottom = region.bbox
    words = [w for w in layout.words_in(x0 - 1, top - 1, x1 + 1, bottom + 1) if id(w) not in caption_words]
    drawn = layout.content.drawing.rules
    rules = [r for r in drawn if x0 - 5 <= r.x and r.x <= x1 + 5 and top - 3 <= r.y <= bottom + 3]
    if is_lattice(rules, region.lines, region.bbox):
        grid, engine = lattice_grid(words, rules, region.bbox), LATTICE
    else:
        grid, engine = build_grid(words, rules, region.bbox, settings, region.caption is not None), ENGINE
    if grid is None or (region.caption is None and not plausible(grid, engine == LATTICE)):
        return None
    table = to_table(grid, region, layout.number, index, sha, [r for r in rules if r.horizontal], engine)
    table = apply_doubts(table, grid_doubts(Evidence(grid, region, layout, table.stub_cols)))
    return to_page_frame(table, layout.content)


def _without_text(layout: PageLayout, region: Region, caption: Caption, index: int) -> Table:
    """A captioned ruled box with glyph shapes and no text: kept, with no cells and why."""
    table = Table(
        index=index,
        page=layout.number,
        label=caption.label,
        caption=caption.text,
        bbox=region.bbox,
        n_rows=0,
        n_cols=0,
        header_rows=0,
        stub_cols=0,
        engine=ENGINE,
        caption_position=region.caption_position,
        notes=region.notes or ["no text layer: the table's glyphs are drawn as outlines, so no cell can be read"],
    )
    return to_page_frame(table, layout.content)


def plausible(grid: Grid, ruled: bool) -> bool:
    """An uncaptioned region is kept as a table when it has rows and columns, is mostly filled, and is not
    running text in a box (a ruled grid may hold a few long cells)."""
    if grid.n_rows < 2 or grid.n_cols < 2:
        return False
    covered = sum(p.col_span for p in grid.placed)  # a label set beside many rows fills one row's worth
    wordy = sum(len(p.words) > 8 for p in grid.placed)
    return covered >= 0.4 * grid.n_rows * grid.n_cols and wordy <= (0.4 if ruled else 0.1) * len(grid.placed)
