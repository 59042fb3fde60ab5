"""Markdown (a benchmark's README): GFM pipe tables read with markdown-it-py, the paragraphs just before a
table (else its heading) as its caption and the rest of its section as its context, ``**bold**`` kept as bold,
and the paragraphs, list items and headings as prose."""

from __future__ import annotations

import re
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token

from pipeline.readers.assemble import Reading, TextCell, TextTable
from pipeline.readers.files import read_text
from pipeline.readers.limits import MAX_TEXT_BYTES

_PIPE = re.compile(r"(?<!\\)\|")
_DELIMITER_ROW = re.compile(r"^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")


def _table_bounds(lines: list[str]) -> tuple[str, list[int]]:
    """The text with a blank line before every line that would continue a pipe table without a pipe, and the
    original line of each line of it.

    GFM lets any line continue a table until a blank line, so a README whose blank lines were lost reads its
    next paragraph, and the next table under it, as rows of the first; a row without a pipe is no row (as
    Python-Markdown and pandoc read pipe tables), so it ends the table."""
    out: list[str] = []
    origin: list[int] = []
    in_table = in_fence = False
    for k, line in enumerate(lines):
        if _FENCE.match(line):
            in_fence, in_table = not in_fence, False
        elif not in_fence:
            if not line.strip():
                in_table = False
            elif in_table and not _PIPE.search(line):
                out.append("")
                origin.append(k)
                in_table = False
            elif not in_table and _PIPE.search(line) and k + 1 < len(lines) and _DELIMITER_ROW.match(lines[k + 1]):
                in_table = "-" in lines[k + 1]
        out.append(line)
        origin.append(k)
    return "\n".join(out), origin


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


def _table(
    tokens: list[Token], start: int, lines: list[str], origin: list[int], artifact: str, caption: str, context: str
) -> tuple[TextTable, int]:
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
                notes.append(
                    f"ragged row at {artifact}:{origin[line_no] + 1}: {written} cells for {header_cols} columns"
                )
        elif token.type == "inline":
            starts = _cell_columns(lines[line_no]) if line_no < len(lines) else []
            bold, italic = _styles(token)
            column = starts[col] if col < len(starts) else 1
            place = f"{artifact}:{origin[line_no] + 1}:{column}"
            cells.append(TextCell(row, col, _inline_text(token), bold=bold, italic=italic, header=in_head, place=place))
            col += 1
        i += 1
    where = f"{artifact}:{origin[(tokens[start].map or [0])[0]] + 1}:1"
    return TextTable(cells, caption, where, header_rows=1, notes=notes, context=context), i + 1


def _plain(text: str) -> str:
    """A paragraph's text on one line without its emphasis and code marks."""
    return re.sub(r"[*_`]", "", " ".join(text.split()))


def read_markdown(path: Path, artifact: str, limit: int = MAX_TEXT_BYTES) -> Reading:
    """Every GFM table of the file, and its paragraphs, list items and headings as prose."""
    lines = read_text(path, limit).splitlines()
    text, origin = _table_bounds(lines)
    lines = text.splitlines()
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    reading = Reading()
    section: list[str] = []  # the latest heading and the text under it so far
    before: list[str] = []  # the paragraphs since the latest heading, table, list or rule: the next table's caption
    nested = 0  # inside a list or a quote: its paragraphs are no caption
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.type == "table_open":
            written = before or section[:1]
            context = " ".join(p for p in section if p not in written)
            found, i = _table(tokens, i, lines, origin, artifact, " ".join(written), context)
            reading.tables.append(found)
            before = []
            continue
        if token.type == "heading_open":
            heading = _plain(tokens[i + 1].content)
            section, before = [heading], []
            reading.prose.append(heading)
            i += 3
            continue
        if token.type == "inline":
            paragraph = _plain(token.content)
            reading.prose.append(paragraph)
            section.append(paragraph)
            before = before if nested else [*before, paragraph]
        elif token.type in ("bullet_list_open", "ordered_list_open", "blockquote_open"):
            nested, before = nested + 1, []
        elif token.type in ("bullet_list_close", "ordered_list_close", "blockquote_close"):
            nested -= 1
        elif token.type in ("hr", "fence", "code_block"):
            before = []
        i += 1
    return reading
