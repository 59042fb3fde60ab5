"""HTML (a journal's or arXiv's rendering): every <table> with colspan/rowspan, its <caption> or the
figcaption of the figure around it (LaTeXML's ``ltx_table``/``ltx_caption``), <th>/<thead> as header,
<b>/<strong>/``ltx_font_bold`` as bold; the <p> elements outside tables as prose."""

from __future__ import annotations

from pathlib import Path

import lxml.html
from lxml import etree

from pipeline.errors import BadInputError
from pipeline.model import panel_mark
from pipeline.readers.assemble import Reading, TextCell, TextTable
from pipeline.readers.files import read_text
from pipeline.readers.limits import MAX_TEXT_BYTES

_BOLD = "self::b or self::strong or contains(concat(' ', normalize-space(@class), ' '), ' ltx_font_bold ')"
_ITALIC = "self::i or self::em or contains(concat(' ', normalize-space(@class), ' '), ' ltx_font_italic ')"
_UNDERLINE = "self::u or contains(@class, 'ltx_framed_underline') or contains(@style, 'underline')"
_NOT_TABLES = ("ltx_equation", "ltx_eqn_table", "ltx_equationgroup")  # LaTeXML sets display maths in <table>s


def _text(element: etree._Element) -> str:
    return " ".join(element.text_content().split())


def _styled(cell: etree._Element, test: str) -> bool:
    """Whether the cell's text sits (all) inside an element passing ``test``, or the cell itself does."""
    if cell.xpath(f"boolean(self::*[{test}])"):
        return True
    text = "".join(cell.itertext()).strip()
    styled = "".join(t for e in cell.xpath(f".//*[{test}]") for t in e.itertext()).strip()
    return bool(text) and styled.replace(" ", "") == text.replace(" ", "")


def _span(cell: etree._Element, name: str) -> int:
    try:
        return max(1, min(int(cell.get(name, "1")), 1000))
    except ValueError:
        return 1


def _rows(table: etree._Element) -> list[etree._Element]:
    """The table's own rows (not those of a table nested in a cell)."""
    return table.xpath("./tr | ./thead/tr | ./tbody/tr | ./tfoot/tr")


def _is_table(table: etree._Element) -> bool:
    return not any(name in (table.get("class") or "") for name in _NOT_TABLES)


_FIGURES = "ancestor::figure | ancestor::*[contains(@class, 'ltx_table')]"


def _own_caption(figure: etree._Element) -> str:
    """The caption a figure gives itself (not one of its panels')."""
    found = figure.xpath("./figcaption | ./*[contains(@class, 'ltx_caption')]")
    return _text(found[0]) if found else ""


def _captions(table: etree._Element) -> tuple[str, etree._Element | None, str]:
    """The table's caption, the figure that gives it (None for a <caption>), and the sub-caption of the panel
    holding the table when that figure has panels (LaTeXML's ltx_figure_panel)."""
    caption = table.find("caption")
    if caption is not None:
        return _text(caption), None, ""
    figures = [f for f in table.xpath(_FIGURES) if _own_caption(f)]
    if not figures:
        return "", None, ""
    outer, inner = figures[0], figures[-1]
    return _own_caption(outer), outer, _own_caption(inner) if inner is not outer else ""


def _cells(table: etree._Element, artifact: str) -> list[TextCell]:
    tree = table.getroottree()
    taken: set[tuple[int, int]] = set()
    cells = []
    for r, row in enumerate(_rows(table)):
        col = 0
        in_head = row.getparent().tag == "thead"
        for cell in row.xpath("./td | ./th"):
            while (r, col) in taken:
                col += 1
            rows, cols = _span(cell, "rowspan"), _span(cell, "colspan")
            taken |= {(r + i, col + j) for i in range(rows) for j in range(cols)}
            cells.append(
                TextCell(
                    r,
                    col,
                    _text(cell),
                    row_span=rows,
                    col_span=cols,
                    bold=_styled(cell, _BOLD),
                    italic=_styled(cell, _ITALIC),
                    underline=_styled(cell, _UNDERLINE),
                    header=in_head or cell.tag == "th",
                    place=f"{artifact}:{cell.sourceline or 0}:{tree.getpath(cell)}",
                )
            )
            col += cols
    return cells


def read_html(path: Path, artifact: str, limit: int = MAX_TEXT_BYTES) -> Reading:
    """Every table with rows (layout tables holding other tables are read for their own rows only)."""
    text = read_text(path, limit)
    try:
        root = lxml.html.document_fromstring(text)
    except (etree.ParserError, ValueError) as exc:
        raise BadInputError(f"{path}: not readable as HTML ({exc})") from None
    reading = Reading()
    panels: dict[str, int] = {}  # figure -> panels read so far: tables sharing a caption are its panels (a), (b)
    tree = root.getroottree()
    for table in root.iter("table"):
        if not _is_table(table):
            continue
        cells = _cells(table, artifact)
        if not cells:
            continue
        caption, figure, sub = _captions(table)
        place = f"{artifact}:{table.sourceline or 0}:{tree.getpath(table)}"
        panel = None
        if figure is not None and sum(1 for t in figure.iter("table") if _is_table(t)) > 1:
            key = tree.getpath(figure)
            k = panels[key] = panels.get(key, -1) + 1
            panel = sub if panel_mark(sub) else f"({chr(ord('a') + k % 26)}) {sub}".strip()
        reading.tables.append(TextTable(cells, caption, place, panel=panel))
    reading.prose = [t for p in root.xpath("//p[not(ancestor::table) and not(ancestor::figure)]") if (t := _text(p))]
    return reading
