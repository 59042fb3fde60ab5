"""The same paper as LaTeX (and its tables as HTML or Markdown), written from the spec the typesetter sets as a
PDF: two readings of one paper.

``changed`` plants disagreements: {(table label, row, col): printed text in the LaTeX instead}.
"""

from __future__ import annotations

import html
import io
import re
import tarfile

from pipeline.fixtures.spec import Heading, NewPage, PaperSpec, Paragraph, TableSpec, split_mark

_ESCAPES = {"%": r"\%", "&": r"\&", "_": r"\_", "#": r"\#", "±": r"$\pm$", "\u2212": "-"}


def _escape(text: str) -> str:
    return "".join(_ESCAPES.get(ch, ch) for ch in text)


def _cell(table: TableSpec, row: int, col: int, text: str) -> str:
    base, mark = split_mark(text)
    body = _escape(base) + (f"\\textsuperscript{{{_escape(mark)}}}" if mark else "")
    if (row, col) in table.bold:
        body = f"\\textbf{{{body}}}"
    if (row, col) in table.underline:
        body = f"\\underline{{{body}}}"
    span = table.span_covering(row, col)
    if span is not None and span.col_span > 1:
        body = f"\\multicolumn{{{span.col_span}}}{{c}}{{{body}}}"
    if span is not None and span.row_span > 1:
        body = f"\\multirow{{{span.row_span}}}{{*}}{{{body}}}"
    return body


def _numbering(label: str) -> list[str]:
    """The counter commands that make LaTeX number the float as the spec labels it ("Table S1", "Table 4")."""
    match = re.fullmatch(r"Table (S?)(\d+)", label)
    if match is None:
        return []
    prefix = f"\\renewcommand{{\\thetable}}{{{match.group(1)}\\arabic{{table}}}}"
    return [prefix, f"\\setcounter{{table}}{{{int(match.group(2)) - 1}}}"]


def table_latex(table: TableSpec, changed: dict[tuple[int, int], str]) -> str:
    lines = [
        *_numbering(table.label),
        "\\begin{table}[t]",
        f"\\caption{{{_escape(table.caption)}}}",
        f"\\label{{tab:{table.label.split()[-1]}}}",
        f"\\begin{{tabular}}{{{'l' * table.n_cols}}}",
        "\\toprule",
    ]
    for r, row in enumerate(table.rows):
        cells = []
        for c, text in enumerate(row):
            span = table.span_covering(r, c)
            if text is None and span is not None and span.row == r:
                continue  # inside a \multicolumn
            cells.append("" if text is None else _cell(table, r, c, changed.get((r, c), text)))
        lines.append(" & ".join(cells) + " \\\\")
        if r == table.header_rows - 1:
            lines.append("\\midrule")
    lines += ["\\bottomrule", "\\end{tabular}", "\\end{table}"]
    return "\n".join(lines)


def paper_latex(paper: PaperSpec, changed: dict[tuple[str, int, int], str] | None = None) -> tuple[str, str]:
    """main.tex and results.tex (the body and tables, which main.tex inputs)."""
    changed = changed or {}
    body = []
    for block in paper.blocks:
        if isinstance(block, NewPage) and isinstance(block.top, TableSpec):
            block = block.top  # a full-width table at the top of a two-column page: a table* float in LaTeX
        if isinstance(block, Heading):
            body.append(f"\\section*{{{_escape(block.text)}}}")
        elif isinstance(block, Paragraph):
            body.append(_escape(block.text))
        elif isinstance(block, TableSpec):
            mine = {(r, c): t for (label, r, c), t in changed.items() if label == block.label}
            body.append(table_latex(block, mine))
    return "\n\n".join(
        [
            "\\documentclass{article}",
            "\\usepackage{booktabs,multirow}",
            "\\begin{document}",
            f"\\title{{{_escape(paper.title)}}}",
            "\\input{results}",
            "\\end{document}",
        ]
    ), "\n\n".join(body)


def paper_tarball(paper: PaperSpec, changed: dict[tuple[str, int, int], str] | None = None) -> bytes:
    """A gzip'd e-print tarball: main.tex inputs results.tex, which holds the body and tables."""
    main, results = paper_latex(paper, changed)
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as archive:
        for name, text in (("main.tex", main), ("results.tex", results)):
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size, info.mtime = len(data), 0
            archive.addfile(info, io.BytesIO(data))
    return out.getvalue()


def table_html(table: TableSpec) -> str:
    """The table as an HTML <table> with <caption>, <thead>, colspan/rowspan and <b>."""
    rows = []
    for r, row in enumerate(table.rows):
        cells = []
        for c, text in enumerate(row):
            span = table.span_covering(r, c)
            if text is None:
                continue
            tag = "th" if r < table.header_rows else "td"
            attrs = ""
            if span is not None and span.row_span > 1:
                attrs += f' rowspan="{span.row_span}"'
            if span is not None and span.col_span > 1:
                attrs += f' colspan="{span.col_span}"'
            body = html.escape("".join(split_mark(text)))
            body = f"<b>{body}</b>" if (r, c) in table.bold else body
            cells.append(f"<{tag}{attrs}>{body}</{tag}>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    head, body = rows[: table.header_rows], rows[table.header_rows :]
    caption = html.escape(table.full_caption)
    return f"<table><caption>{caption}</caption><thead>{''.join(head)}</thead><tbody>{''.join(body)}</tbody></table>"


def table_markdown(table: TableSpec) -> str | None:
    """The table as a GFM pipe table under its caption; None when it has spans or several header rows
    (a pipe table has neither)."""
    if table.spans or table.header_rows != 1:
        return None
    lines = [table.full_caption, ""]
    for r, row in enumerate(table.rows):
        cells = ["".join(split_mark(t or "")).replace("|", "\\|") for t in row]
        cells = [f"**{t}**" if (r, c) in table.bold and t else t for c, t in enumerate(cells)]
        lines.append("| " + " | ".join(cells) + " |")
        if r == 0:
            lines.append("|" + "---|" * len(row))
    return "\n".join(lines)
