"""Markdown (a benchmark's README): GFM pipe tables read with markdown-it-py, the nearest heading or the
paragraph just before a table as its caption, ``**bold**`` kept as bold, and the paragraphs as prose."""

from __future__ import annotations

import re
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token

from pipeline.readers.assemble import Reading, TextCell, TextTable
from pipeline.readers.files import read_text
from pipeline.readers.limits import MAX_TEXT_BYTES

_PIPE = re.compile(r"(?<!\\)\|")


def _inline_text(token: Token) -> str:
    """The text of an inline token without its markup ("**0.81**" -> "0.81")."""
    return "".join(c.content for c in token.children or [] if c.type in ("text", "code_inline")).strip()


def _styles(token: Token) -> tuple[bool, bool]:
    """Whether the cell's text is (all) bold, and (all) italic."""
    bold = italic = 0
    flags = {"bold": False, "italic": False}
    for child in token.children or []:
        if child.type in ("strong_open", "strong_close"):
            bold += 1 if child.type == "strong_open" else -1
        elif child.type in ("em_open", "em_close"):
            italic += 1 if child.type == "em_open" else -1
        elif child.type == "text" and child.content.strip():
            flags["bold"] = flags["bold"] or bold > 0
            flags["italic"] = flags["italic"] or italic > 0
            if bold <= 0:
                return False, flags["italic"]
    return flags["bold"], flags["italic"]


def _cell_columns(line: str) -> list[int]:
    """1-based character columns where each cell of a pipe-table line starts."""
    cuts = [m.start() for m in _PIPE.finditer(line)]
    starts = [0] if not line.lstrip().startswith("|") else []
    starts += [c + 1 for c in cuts]
    return [s + 1 + len(line[s:]) - len(line[s:].lstrip()) for s in starts]


def _raw_cells(line: str) -> int:
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") and not inner.endswith("\\|") else inner
    return len(_PIPE.split(inner))


def _table(tokens: list[Token], start: int, lines: list[str], artifact: str, caption: str) -> tuple[TextTable, int]:
    """The table whose table_open is at ``start``, and the index after its table_close."""
    cells: list[TextCell] = []
    notes: list[str] = []
    row, col, line_no, in_head, header_cols = -1, 0, 0, False, 0
    i = start
    while tokens[i].type != "table_close":
        token = tokens[i]
        if token.type in ("thead_open", "thead_close"):
            in_head = token.type == "thead_open"
        elif token.type == "tr_open":
            row, col = row + 1, 0
            line_no = token.map[0] if token.map else 0
            written = _raw_cells(lines[line_no]) if line_no < len(lines) else 0
            if row == 0:
                header_cols = written
            elif written != header_cols:
                notes.append(f"ragged row at {artifact}:{line_no + 1}: {written} cells for {header_cols} columns")
        elif token.type == "inline":
            starts = _cell_columns(lines[line_no]) if line_no < len(lines) else []
            bold, italic = _styles(token)
            column = starts[col] if col < len(starts) else 1
            place = f"{artifact}:{line_no + 1}:{column}"
            cells.append(TextCell(row, col, _inline_text(token), bold=bold, italic=italic, header=in_head, place=place))
            col += 1
        i += 1
    where = f"{artifact}:{(tokens[start].map or [0])[0] + 1}:1"
    return TextTable(cells, caption, where, header_rows=1, notes=notes), i + 1


def read_markdown(path: Path, artifact: str, limit: int = MAX_TEXT_BYTES) -> Reading:
    """Every GFM table of the file, and its paragraphs and list items as prose."""
    text = read_text(path, limit)
    lines = text.splitlines()
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    reading = Reading()
    heading, before = "", ""  # the latest heading, and the paragraph right before the next block
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.type == "table_open":
            found, i = _table(tokens, i, lines, artifact, before or heading)
            reading.tables.append(found)
            before = ""
            continue
        if token.type == "heading_open":
            heading, before = _inline_text(tokens[i + 1]), ""
            i += 3
            continue
        if token.type == "inline":
            before = " ".join(token.content.split())
            reading.prose.append(re.sub(r"[*_`]", "", before))
        elif token.type.endswith("_open") and token.type not in ("paragraph_open",):
            before = ""
        i += 1
    return reading
