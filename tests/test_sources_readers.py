"""Each reader alone on sources written to show its features: LaTeX, HTML (with LaTeXML's markup)."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

from pipeline.model import Table
from pipeline.readers import read_artifact
from pipeline.readers.html import read_html
from pipeline.readers.latex import read_latex

SHA = "ab" * 32

MAIN = r"""\documentclass{article}
\usepackage{booktabs,multirow}
\newcommand{\ours}{DNA-X}
\newcommand{\best}[1]{\textbf{#1}}
\begin{document}
We compare \ours{} with NT in Table~\ref{tab:main}. % NT reaches 0.99 (a comment)
\input{sections/results}
\include{appendix}
\end{document}
"""

RESULTS = r"""\section{Results}
\begin{table*}[t]
\centering
\caption{Accuracy (mean $\pm$ s.d.) in \%.}\label{tab:main}
\begin{tabularx}{\linewidth}{l|cc}
\toprule
\multirow{2}{*}{Model} & \multicolumn{2}{c}{Promoters} \\
\cmidrule(lr){2-3}
 & TATA & non-TATA \\
\midrule
\ours & \textbf{91.2} $\pm$ 0.4 & {\bf 87.1\%} \\
NT & \underline{90.8} & \best{88.0} \\
\bottomrule
\end{tabularx}
\end{table*}
"""

APPENDIX = r"""\begin{table}
\caption{Two panels.}
\begin{subtable}{0.45\linewidth}\caption{Human}
\begin{tabular}{lc} Model & MCC \\ \hline NT & 0.61 \\ \end{tabular}
\end{subtable}
\begin{subtable}{0.45\linewidth}\caption{Mouse}
\begin{tabular}{lc} Model & MCC \\ \hline NT & 0.58 \\ \end{tabular}
\end{subtable}
\end{table}
"""


def _tarball(tmp_path: Path) -> Path:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as archive:
        for name, text in (("ms.tex", MAIN), ("sections/results.tex", RESULTS), ("appendix.tex", APPENDIX)):
            info = tarfile.TarInfo(name)
            info.size = len(text.encode())
            archive.addfile(info, io.BytesIO(text.encode()))
    path = tmp_path / "source.tar.gz"
    path.write_bytes(out.getvalue())
    return path


def _cells(table: Table) -> dict[tuple[int, int], str]:
    return {(c.row, c.col): c.text for c in table.cells}


def test_latex_reader_follows_inputs_macros_spans_and_styles(tmp_path: Path) -> None:
    main, human, mouse = read_artifact("latex", _tarball(tmp_path), SHA)[0]
    assert (main.label, main.caption, main.header_rows, main.stub_cols) == (
        "Table 1",
        "Accuracy (mean ± s.d.) in %.",
        2,
        1,
    )
    assert _cells(main) == {
        (0, 0): "Model",
        (0, 1): "Promoters",
        (1, 1): "TATA",
        (1, 2): "non-TATA",
        (2, 0): "DNA-X",
        (2, 1): "91.2 ± 0.4",
        (2, 2): "87.1%",
        (3, 0): "NT",
        (3, 1): "90.8",
        (3, 2): "88.0",
    }
    at = {(c.row, c.col): c for c in main.cells}
    assert (at[0, 0].row_span, at[0, 1].col_span) == (2, 2)
    assert (at[2, 1].value, at[2, 1].plus_minus, at[2, 2].percent) == (91.2, 0.4, True)
    assert [pos for pos, c in at.items() if c.bold] == [(2, 1), (2, 2), (3, 2)]  # \textbf, \bf, a bold macro
    assert [pos for pos, c in at.items() if c.underline] == [(3, 1)]
    assert at[2, 1].col_path == ["Promoters", "TATA"] and at[3, 2].row_path == ["NT"]
    assert at[3, 1].locator.place == "sections/results.tex:12:6"
    assert at[3, 1].locator.id == f"{SHA[:12]}:source.tar.gz:Table1:r3:c1"
    assert (human.label, human.panel, mouse.panel) == ("Table 2", "(a) Human", "(b) Mouse")
    assert _cells(mouse)[(1, 1)] == "0.58"


def test_latex_prose_leaves_out_comments_and_floats(tmp_path: Path) -> None:
    prose = " ".join(read_latex(_tarball(tmp_path), "source.tar.gz").prose)
    assert "We compare DNA-X with NT in Table 1." in prose  # \\ref{tab:main} reads as the table's number
    assert "0.99" not in prose and "91.2" not in prose


LATEXML = """<html><body><article>
<p>Table 1 shows that NT reaches 0.81.</p>
<figure class="ltx_table" id="S4.T1">
<figcaption class="ltx_caption"><span class="ltx_tag ltx_tag_table">Table 1: </span>Main results.</figcaption>
<table class="ltx_tabular ltx_align_middle">
<thead class="ltx_thead"><tr class="ltx_tr"><th class="ltx_td ltx_th" rowspan="2">Model</th>
<th class="ltx_td ltx_th" colspan="2">Score</th></tr>
<tr class="ltx_tr"><th class="ltx_td">A</th><th class="ltx_td">B</th></tr></thead>
<tbody class="ltx_tbody"><tr class="ltx_tr"><td class="ltx_td">NT</td>
<td class="ltx_td"><span class="ltx_text ltx_font_bold">0.81</span></td><td class="ltx_td">0.70&#177;0.01</td></tr>
<tr class="ltx_tr"><td class="ltx_td">HyenaDNA</td><td class="ltx_td">0.75</td>
<td class="ltx_td"><strong>0.90</strong></td></tr>
</tbody></table></figure>
<table class="ltx_equation ltx_eqn_table"><tr><td class="ltx_eqn_cell">F1 = 2PR/(P+R)</td><td>(1)</td></tr></table>
<table><caption>Table 2. Counts</caption><tr><th>Set</th><th>n</th></tr><tr><td>train</td><td>1,204</td></tr></table>
</article></body></html>
"""


def test_html_reader_reads_latexml_spans_captions_and_bold(tmp_path: Path) -> None:
    path = tmp_path / "page.html"
    path.write_text(LATEXML)
    first, second = read_artifact("html", path, SHA)[0]
    assert (first.label, first.caption, first.header_rows) == ("Table 1", "Table 1: Main results.", 2)
    at = {(c.row, c.col): c for c in first.cells}
    assert (at[0, 0].row_span, at[0, 1].col_span, at[1, 1].text) == (2, 2, "A")
    assert [pos for pos, c in at.items() if c.bold] == [(2, 1), (3, 2)]
    assert (at[2, 2].value, at[2, 2].plus_minus) == (0.70, 0.01)
    assert at[3, 2].locator.place.startswith("page.html:12:/html/body/article/figure/table/tbody/tr[2]/td[3]")
    assert (second.label, _cells(second)[(1, 1)]) == ("Table 2", "1,204")
    assert read_html(path, "page.html").prose == ["Table 1 shows that NT reaches 0.81."]


PANELS = """<html><body><figure class="ltx_table" id="S4.T2">
<figure class="ltx_figure ltx_figure_panel"><table class="ltx_tabular"><tr><th>Model</th><th>MCC</th></tr>
<tr><td>NT</td><td>0.61</td></tr></table><figcaption class="ltx_caption">(a) Human</figcaption></figure>
<figure class="ltx_figure ltx_figure_panel"><table class="ltx_tabular"><tr><th>Model</th><th>MCC</th></tr>
<tr><td>NT</td><td>0.58</td></tr></table><figcaption class="ltx_caption">Mouse</figcaption></figure>
<figcaption class="ltx_caption"><span class="ltx_tag ltx_tag_table">Table 2: </span>Two species.</figcaption>
</figure></body></html>"""


def test_html_tables_sharing_a_caption_are_its_panels(tmp_path: Path) -> None:
    path = tmp_path / "panels.html"
    path.write_text(PANELS)
    human, mouse = read_artifact("html", path, SHA)[0]
    assert (human.label, human.panel, mouse.panel, mouse.caption) == (
        "Table 2",
        "(a) Human",
        "(b) Mouse",
        "Table 2: Two species.",
    )
    assert human.cells[-1].locator.id != mouse.cells[-1].locator.id


def test_broken_sources_give_what_they_hold_and_no_traceback(tmp_path: Path) -> None:
    tex = tmp_path / "broken.tex"
    tex.write_text(r"\begin{table}\caption{x}\begin{tabular}{l}\multicolumn{a}{b} & \multirow \\ {{{ \end{tabular}")
    page = tmp_path / "broken.html"
    page.write_text('<table><tr><td colspan="x" rowspan="-3">1</td></tr><table><tr><td>')
    assert read_artifact("latex", tex, SHA)[0] == []
    [table] = read_artifact("html", page, SHA)[0]
    assert table.grid() == [["1"]]
