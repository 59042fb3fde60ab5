"""LaTeX (the arXiv e-print): the main file with its \\input/\\include files expanded, simple \\newcommand
macros, and every tabular/tabular*/tabularx in a table/table* float, read from pylatexenc's tokens.

Read exactly: \\caption, \\label, \\multicolumn, \\multirow, booktabs rules and \\hline (the first rule under
a row ends the header), \\textbf/\\bf/\\bfseries (and one-argument macros that set bold), \\underline,
\\textit/\\emph, ``$\\pm$``, ``\\%``; a subtable with its own caption becomes a panel. Floats are numbered
as LaTeX numbers them (table and table* share a counter; \\setcounter{table} and a prefix set by
\\renewcommand{\\thetable}{S\\arabic{table}} are followed), so the labels match the PDF's "Table N".
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db
from pylatexenc.latexwalker import (
    LatexCharsNode,
    LatexEnvironmentNode,
    LatexGroupNode,
    LatexMacroNode,
    LatexMathNode,
    LatexNode,
    LatexSpecialsNode,
    LatexWalker,
    LatexWalkerError,
)

from pipeline.errors import BadInputError
from pipeline.readers.assemble import Reading, TextCell, TextTable
from pipeline.readers.files import latex_files
from pipeline.readers.limits import MAX_TEXT_BYTES

FLOATS = ("table", "table*")
TABULARS = {"tabular": 1, "tabular*": 2, "tabularx": 2, "tabulary": 2}  # environment -> its arguments
PANELS = ("subtable", "minipage", "subfigure")
BOLD = {"textbf", "bf", "bfseries", "mathbf", "boldsymbol", "bm"}
ITALIC = {"textit", "emph", "it", "itshape", "textsl"}
UNDERLINE = {"underline", "uline", "ul"}
RULES = {"toprule": 0, "midrule": 0, "bottomrule": 0, "hline": 0, "cline": 1, "cmidrule": 1, "specialrule": 3}
HEADER_RULES = {"midrule", "hline"}  # a \cmidrule sits under a spanning header, inside the header
_COMMENT = re.compile(r"(?<!\\)%.*")
_INPUT = re.compile(r"\\(?:input|include)\s*(?:\{([^}]+)\}|([^\s{}\\]+))")
_NEWCOMMAND = re.compile(r"\\(?:re)?newcommand\*?\s*\{?\\([A-Za-z]+)\}?\s*(\[(\d)\])?\s*\{")
_DEF = re.compile(r"\\def\s*\\([A-Za-z]+)\s*(#1)?\s*\{")
_SETCOUNTER = re.compile(r"\\setcounter\s*\{table\}\s*\{(\d+)\}")
_THETABLE = re.compile(r"\\renewcommand\s*\{?\\thetable\}?\s*\{([A-Za-z.]*)\\arabic\{table\}\}")
MAX_DEPTH = 20


class NoLatexError(BadInputError):
    """A LaTeX source without a .tex file to read."""


@dataclass
class Expanded:
    """The main file with its inputs spliced in, and where each stretch of it came from."""

    text: str
    anchors: list[tuple[int, str, int]] = field(default_factory=list)  # (offset here, file, offset there)
    starts: dict[str, list[int]] = field(default_factory=dict)  # file -> offsets of its line starts

    def place(self, pos: int, artifact: str) -> str:
        """``file:line:column`` of an offset of the expanded text (the artifact named for a single .tex)."""
        k = bisect.bisect_right([a[0] for a in self.anchors], pos) - 1
        at, name, there = self.anchors[max(k, 0)]
        offset = there + pos - at
        lines = self.starts[name]
        line = bisect.bisect_right(lines, offset)
        where = name if artifact.endswith((".tar.gz", ".tgz", ".tar")) else artifact
        return f"{where}:{line}:{offset - lines[line - 1] + 1}"


def _blank_comments(text: str) -> str:
    """Comments replaced by spaces, so offsets still point into the file."""
    return _COMMENT.sub(lambda m: " " * len(m.group(0)), text)


def main_file(files: dict[str, str]) -> str:
    """The file that starts the document (\\documentclass and \\begin{document}); the only file otherwise."""
    ranked = sorted(
        files,
        key=lambda n: ("\\begin{document}" not in files[n], "\\documentclass" not in files[n], n.count("/"), n),
    )
    if not ranked:
        raise NoLatexError("no .tex file in the LaTeX source")
    return ranked[0]


def _resolve(files: dict[str, str], here: str, target: str) -> str | None:
    base = PurePosixPath(here).parent
    for candidate in (target, f"{target}.tex"):
        for name in (str(PurePosixPath(candidate)), str(base / candidate)):
            if name in files:
                return name
    return None


def expand(files: dict[str, str], name: str, stack: tuple[str, ...] = ()) -> Expanded:
    """``name`` with every \\input/\\include it names spliced in (cycles and depth bounded)."""
    text = _blank_comments(files[name])
    result = Expanded("", [(0, name, 0)], {})
    result.starts[name] = [0, *(m.end() for m in re.finditer("\n", text))]
    parts, pos, length = [], 0, 0
    for match in _INPUT.finditer(text):
        target = _resolve(files, name, (match.group(1) or match.group(2)).strip())
        if target is None or target in stack or len(stack) >= MAX_DEPTH:
            continue
        parts.append(text[pos : match.start()])
        length += match.start() - pos
        inner = expand(files, target, (*stack, name))
        result.anchors += [(length + a, f, o) for a, f, o in inner.anchors]
        result.starts.update(inner.starts)
        parts.append(inner.text)
        length += len(inner.text)
        pos = match.end()
        result.anchors.append((length, name, pos))
    parts.append(text[pos:])
    result.text = "".join(parts)
    return result


def _braced(text: str, start: int) -> str:
    """The text of the brace group opening at ``start`` - 1 (up to its matching brace)."""
    depth, i = 1, start
    while i < len(text) and depth:
        depth += {"{": 1, "}": -1}.get(text[i], 0) if text[i - 1] != "\\" else 0
        i += 1
    return text[start : i - 1]


@dataclass
class Macros:
    """Simple user macros: no-argument ones replaced by their text, one-argument ones that set bold."""

    text: dict[str, str] = field(default_factory=dict)
    bold: set[str] = field(default_factory=set)


def find_macros(text: str) -> Macros:
    macros = Macros()
    for pattern in (_NEWCOMMAND, _DEF):
        for m in pattern.finditer(text):
            body = _braced(text, m.end())
            if m.group(2):
                if any(f"\\{b}" in body for b in BOLD):
                    macros.bold.add(m.group(1))
            else:
                macros.text[m.group(1)] = body
    return macros


def _converter(macros: Macros, refs: dict[str, str] | None = None) -> LatexNodes2Text:
    """Text of LaTeX nodes with the user's simple macros, and each \\ref to a table as LaTeX prints it."""
    db = get_default_latex_context_db()
    plain = LatexNodes2Text()
    specs = [
        MacroTextSpec(name, simplify_repl=plain.latex_to_text(body).replace("%", "%%"))
        for name, body in macros.text.items()
    ]
    known = refs or {}

    def ref(node: LatexMacroNode, *_: object) -> str:
        key = _verbatim(node.nodeargd.argnlist[-1]) if node.nodeargd and node.nodeargd.argnlist else ""
        number = known.get(key, "??")
        return number if node.macroname == "ref" else f"Table {number}"

    specs += [MacroTextSpec(name, simplify_repl=ref) for name in ("ref", "autoref", "cref", "Cref")]
    db.add_context_category("user-macros", prepend=True, macros=specs)
    return LatexNodes2Text(latex_context=db, math_mode="text")


def _verbatim(node: LatexNode | None) -> str:
    return node.latex_verbatim().strip().strip("{}").strip() if node is not None else ""


def _label_key(nodes: list[LatexNode] | None) -> str:
    """The key of the first \\label among ``nodes`` and the groups they open."""
    nodes = [n for n in nodes or [] if n is not None]
    for k, node in enumerate(nodes):
        if isinstance(node, LatexMacroNode) and node.macroname == "label":
            args = _args(nodes, k, 1)[0]
            return _verbatim(args[-1]) if args else ""
        if isinstance(node, LatexGroupNode) and (inner := _label_key(node.nodelist)):
            return inner
    return ""


def _args(nodes: list[LatexNode], i: int, n: int) -> tuple[list[LatexNode], int]:
    """The ``n`` brace groups after the macro at ``i`` (pylatexenc leaves unknown macros' arguments as
    siblings), skipping spaces and a ``(lr)`` trim; returns them and the index after the last."""
    node = nodes[i]
    parsed = [a for a in (node.nodeargd.argnlist if getattr(node, "nodeargd", None) else []) if a is not None]
    groups = [a for a in parsed if isinstance(a, LatexGroupNode)]
    if len(groups) >= n:
        return groups[-n:] if n else [], i + 1
    found: list[LatexNode] = list(groups)
    j = i + 1
    while j < len(nodes) and len(found) < n:
        item = nodes[j]
        if isinstance(item, LatexGroupNode) and item.delimiters == ("{", "}"):
            found.append(item)
        elif not (isinstance(item, LatexCharsNode) and re.fullmatch(r"\s*(\([a-z]*\)|\[[^\]]*\])?\s*", item.chars)):
            break
        j += 1
    return found, j


def _walk(nodes: list[LatexNode] | None) -> list[LatexNode]:
    """Every node, depth first, arguments included."""
    out: list[LatexNode] = []
    for node in nodes or []:
        if node is None:
            continue
        out.append(node)
        if isinstance(node, (LatexGroupNode, LatexEnvironmentNode, LatexMathNode)):
            out += _walk(node.nodelist)
        if getattr(node, "nodeargd", None):
            out += _walk([a for a in node.nodeargd.argnlist if a is not None])
    return out


def _macro_names(nodes: list[LatexNode]) -> set[str]:
    return {n.macroname for n in _walk(nodes) if isinstance(n, LatexMacroNode)}


@dataclass
class _Cell:
    nodes: list[LatexNode] = field(default_factory=list)
    col_span: int = 1
    row_span: int = 1


class _TabularReader:
    """One tabular's rows and cells, from its token list."""

    def __init__(self, convert: LatexNodes2Text, macros: Macros, expanded: Expanded, artifact: str) -> None:
        self.convert, self.macros, self.expanded, self.artifact = convert, macros, expanded, artifact

    def rows(self, nodes: list[LatexNode]) -> tuple[list[list[_Cell]], int | None]:
        """The rows of cells, and the number of header rows (those above the first rule under a row)."""
        rows: list[list[_Cell]] = []
        row: list[_Cell] = [_Cell()]
        header: int | None = None
        i = 0
        while i < len(nodes):
            node = nodes[i]
            if isinstance(node, LatexMacroNode) and node.macroname in ("\\", "tabularnewline"):
                if any(self._text(c.nodes) for c in row) or len(row) > 1:
                    rows.append(row)
                row, i = [_Cell()], i + 1
                continue
            if isinstance(node, LatexMacroNode) and node.macroname in RULES:
                if (
                    node.macroname in HEADER_RULES
                    and header is None
                    and rows
                    and not any(self._text(c.nodes) for c in row)
                ):
                    header = len(rows)
                i = _args(nodes, i, RULES[node.macroname])[1]
                continue
            if isinstance(node, LatexSpecialsNode) and node.specials_chars == "&":
                row.append(_Cell())
            elif isinstance(node, LatexMacroNode) and node.macroname in ("multicolumn", "multirow"):
                args, i = _args(nodes, i, 3)
                if len(args) == 3:
                    span = self._text([args[0]])
                    if span.isdigit():
                        setattr(row[-1], "col_span" if node.macroname == "multicolumn" else "row_span", int(span))
                    row[-1].nodes += [args[2]]
                    self._inner_spans(args[2], row[-1])
                continue
            else:
                row[-1].nodes.append(node)
            i += 1
        if any(self._text(c.nodes) for c in row):
            rows.append(row)
        return rows, header

    def _inner_spans(self, group: LatexNode, cell: _Cell) -> None:
        """A \\multirow inside a \\multicolumn (or the reverse) spans both ways."""
        inner = group.nodelist or []
        for k, node in enumerate(inner):
            if isinstance(node, LatexMacroNode) and node.macroname in ("multicolumn", "multirow"):
                args = _args(inner, k, 3)[0]
                span = self._text([args[0]]) if args else ""
                if span.isdigit():
                    setattr(cell, "col_span" if node.macroname == "multicolumn" else "row_span", int(span))
                cell.nodes = [args[2]] if len(args) == 3 else cell.nodes

    def _text(self, nodes: list[LatexNode]) -> str:
        text = self.convert.nodelist_to_text(nodes)
        text = text.replace("_±", " ± ").replace("^", "").replace("~", " ")
        return " ".join(text.split())

    def cells(self, rows: list[list[_Cell]]) -> list[TextCell]:
        """Grid positions: a cell under a \\multirow is the empty placeholder LaTeX needs, and is skipped."""
        covered: set[tuple[int, int]] = set()
        out: list[TextCell] = []
        for r, row in enumerate(rows):
            col = 0
            for cell in row:
                if (r, col) in covered and not any(not _blank(n) for n in cell.nodes):
                    col += cell.col_span
                    continue
                text = self._text(cell.nodes)
                names = _macro_names(cell.nodes)
                start = next((n.pos for n in _walk(cell.nodes) if not _blank(n)), None)
                place = self.expanded.place(start, self.artifact) if start is not None else ""
                if text or cell.col_span > 1 or cell.row_span > 1:
                    out.append(
                        TextCell(
                            r,
                            col,
                            text,
                            row_span=cell.row_span,
                            col_span=cell.col_span,
                            bold=bool(names & (BOLD | self.macros.bold)),
                            italic=bool(names & ITALIC),
                            underline=bool(names & UNDERLINE),
                            place=place,
                        )
                    )
                for dr in range(cell.row_span):
                    for dc in range(cell.col_span):
                        covered.add((r + dr, col + dc))
                col += cell.col_span
        return out


def _blank(node: LatexNode) -> bool:
    return isinstance(node, LatexCharsNode) and not node.chars.strip()


def _tabular_body(env: LatexEnvironmentNode) -> list[LatexNode]:
    """The tabular's content without its column spec (and width), however pylatexenc took its arguments."""
    nodes = [n for n in env.nodelist or [] if n is not None]
    parsed = len([a for a in (env.nodeargd.argnlist if env.nodeargd else []) if a is not None])
    missing = TABULARS[env.environmentname] - parsed
    while missing > 0 and nodes:
        first = nodes.pop(0)
        if isinstance(first, LatexGroupNode):
            missing -= 1
    return nodes


def _caption(nodes: list[LatexNode] | None, convert: LatexNodes2Text, names: tuple[str, ...]) -> str | None:
    """The first caption among ``nodes`` and the groups they open (not inside panels or tabulars)."""
    nodes = [n for n in nodes or [] if n is not None]
    for k, node in enumerate(nodes):
        if isinstance(node, LatexMacroNode) and node.macroname in names:
            args = _args(nodes, k, 1)[0]
            if args:
                return " ".join(convert.nodelist_to_text(args[-1].nodelist or []).split())
        if isinstance(node, LatexGroupNode) and (inner := _caption(node.nodelist, convert, names)) is not None:
            return inner
    return None


def _tabulars(nodes: list[LatexNode] | None) -> list[LatexEnvironmentNode]:
    return [n for n in _walk(nodes) if isinstance(n, LatexEnvironmentNode) and n.environmentname in TABULARS]


class LatexDocument:
    """One LaTeX source's tables and prose."""

    def __init__(self, files: dict[str, str], artifact: str) -> None:
        self.artifact = artifact
        self.expanded = expand(files, main_file(files))
        self.macros = find_macros(self.expanded.text)
        self.convert = _converter(self.macros)
        self.refs: dict[str, str] = {}  # \\label key -> the table's number, as \\ref prints it
        try:
            self.nodes = LatexWalker(self.expanded.text, tolerant_parsing=True).get_latex_nodes()[0]
        except LatexWalkerError as exc:
            raise BadInputError(f"{artifact}: cannot parse the LaTeX ({exc})") from None

    def floats(self) -> list[LatexEnvironmentNode]:
        return [n for n in _walk(self.nodes) if isinstance(n, LatexEnvironmentNode) and n.environmentname in FLOATS]

    def _numbering(self) -> list[tuple[int, int | None, str | None]]:
        """(offset, counter set to, number prefix) of each \\setcounter{table} and \\renewcommand\\thetable."""
        text = self.expanded.text
        events = [(m.start(), int(m.group(1)), None) for m in _SETCOUNTER.finditer(text)]
        events += [(m.start(), None, m.group(1)) for m in _THETABLE.finditer(text)]
        return sorted(events, key=lambda e: e[0])

    def tables(self) -> list[TextTable]:
        found: list[TextTable] = []
        number, prefix = 0, ""
        events = self._numbering()
        for env in self.floats():
            caption = _caption(env.nodelist, self.convert, ("caption",))
            if caption is None:
                continue
            while events and events[0][0] < env.pos:
                _, counter, numbering = events.pop(0)
                number = counter if counter is not None else number
                prefix = numbering if numbering is not None else prefix
            number += 1
            label = f"Table {prefix}{number}"
            if key := _label_key(env.nodelist):
                self.refs[key] = f"{prefix}{number}"
            place = self.expanded.place(env.pos, self.artifact)
            panels = [
                p
                for p in _walk(env.nodelist)
                if isinstance(p, LatexEnvironmentNode) and p.environmentname in PANELS and _tabulars(p.nodelist)
            ]
            if len(panels) >= 2:
                for k, panel in enumerate(panels):
                    sub = _caption(panel.nodelist, self.convert, ("caption", "subcaption")) or ""
                    mark = f"({chr(ord('a') + k)})"
                    for tabular in _tabulars(panel.nodelist)[:1]:
                        found.append(self._table(tabular, caption, label, place, f"{mark} {sub}".strip()))
            else:
                for tabular in _tabulars(env.nodelist)[:1]:
                    found.append(self._table(tabular, caption, label, place, None))
        return found

    def _table(self, env: LatexEnvironmentNode, caption: str, label: str, place: str, panel: str | None) -> TextTable:
        reader = _TabularReader(self.convert, self.macros, self.expanded, self.artifact)
        rows, header = reader.rows(_tabular_body(env))
        return TextTable(reader.cells(rows), caption, place, label=label, header_rows=header or 1, panel=panel)

    def prose(self) -> list[str]:
        """The document body's paragraphs, floats left out; \\ref{tab:x} reads "3" once ``tables`` has run."""
        body = next(
            (n for n in _walk(self.nodes) if isinstance(n, LatexEnvironmentNode) and n.environmentname == "document"),
            None,
        )
        nodes = [
            n
            for n in (body.nodelist if body is not None else self.nodes)
            if not (isinstance(n, LatexEnvironmentNode) and n.environmentname in (*FLOATS, "figure", "figure*"))
        ]
        text = _converter(self.macros, self.refs).nodelist_to_text(nodes)
        return [" ".join(p.split()) for p in re.split(r"\n\s*\n", text) if p.strip()]


def read_latex(path: Path, artifact: str, limit: int = MAX_TEXT_BYTES) -> Reading:
    """Every captioned table float of the LaTeX source at ``path``, and its prose."""
    files = latex_files(path, limit=limit)
    if not files:
        raise NoLatexError(f"{path}: no .tex file in the LaTeX source")
    document = LatexDocument(files, artifact)
    return Reading(document.tables(), document.prose())
