"""HTML (a journal's or arXiv's rendering): every <table> with colspan/rowspan, its <caption> or the
figcaption of the figure around it (LaTeXML's ``ltx_table``/``ltx_caption``), <th>/<thead> as header,
<b>/<strong>/``ltx_font_bold`` as bold; the <p> elements outside tables as prose."""

from __future__ import annotations

from pathlib import Path

import lxml.html
from lxml import etree

from pipeline.errors import BadInputError
from pipeline.readers.assemble import Reading, TextCell, TextTable
from pipeline.readers.files import read_text

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


def _caption(table: etree._Element) -> str:
    caption = table.find("caption")
    if caption is not None:
        return _text(caption)
    figure = next(iter(table.xpath("ancestor::figure[1] | ancestor::*[contains(@class, 'ltx_table')][1]")), None)
    if figure is not None:
        found = figure.xpath(".//figcaption | .//*[contains(@class, 'ltx_caption')]")
        if found:
            return _text(found[0])
    return ""


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


def read_html(path: Path, artifact: str) -> Reading:
    """Every table with rows (layout tables holding other tables are read for their own rows only)."""
    text = read_text(path)
    try:
        root = lxml.html.document_fromstring(text)
    except (etree.ParserError, ValueError) as exc:
        raise BadInputError(f"{path}: not readable as HTML ({exc})") from None
    reading = Reading()
    for table in root.iter("table"):
        if any(name in (table.get("class") or "") for name in _NOT_TABLES):
            continue
        cells = _cells(table, artifact)
        if cells:
            place = f"{artifact}:{table.sourceline or 0}:{root.getroottree().getpath(table)}"
            reading.tables.append(TextTable(cells, _caption(table), place))
    reading.prose = [t for p in root.xpath("//p[not(ancestor::table) and not(ancestor::figure)]") if (t := _text(p))]
    return reading
