"""The source readers and the two-reading agreement, on tables with exact truth (prints figures; not a test).

    python benchmarks/bench_sources.py [--shared ../shared]

1. Per reader (LaTeX, HTML, Markdown): every table of the typeset feature papers (tests/papers/features.py)
   written as that source from its spec, read back: tables found, cells exact against the spec, time.
   Markdown gets only the tables a pipe table can hold (one header row, no spans).
2. PDF vs LaTeX: each feature paper typeset as a PDF and written as LaTeX from the same spec, the PDF
   extracted and each cell checked against the LaTeX reading: share of cells read twice that agree.
   Since both come from one spec, every disagreement is a PDF misreading; the first few are listed.
3. With --shared: the Markdown reader on docling's Markdown renderings of real pages
   (tablebench/docling/groundtruth/*.md), tables found and cells equal to docling's own JSON grid; then the
   two-reading check on those real pages, our PDF extraction against docling's Markdown: the notes it
   writes per table and every disagreement (judge them on the page: either reading may be the wrong one).
4. README leaderboards (fetch --file -> run, then `catalogue suggest --entries` added to the catalogue ->
   run): the generated one of tests/papers/readme_leaderboard.py and, with --shared, GENEB's published README
   (corpus/leaderboards/geneb_README.md) and a copy with three planted problems (a bold that is not the best
   of the six, a finding quoting 0.625 for a printed 0.652, "All 40 evaluated models" above 39 rows):
   candidates with dataset, metric, regime and model, records after the loop, and the findings.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import testpapers  # noqa: F401  (puts tests/ on sys.path for ``papers``)
from papers.features import feature_papers
from papers.readme_leaderboard import readme
from papers.sources import paper_tarball, table_html, table_latex, table_markdown

from pipeline.extract.document.tables import extract_tables
from pipeline.fixtures import render_paper
from pipeline.fixtures.spec import TableSpec, truth_text
from pipeline.model import Table
from pipeline.readers import read_artifact
from pipeline.readers.agreement import compare_readings

SHA = "0" * 64
Writer = Callable[[TableSpec], "str | None"]


def _latex(spec: TableSpec) -> str:
    return "\\documentclass{article}\\begin{document}\n" + table_latex(spec, {}) + "\n\\end{document}\n"


def _html(spec: TableSpec) -> str:
    return f"<html><body>{table_html(spec)}</body></html>"


READERS: dict[str, tuple[str, str, Writer]] = {
    "latex": ("source.tex", "latex", _latex),
    "html": ("source.html", "html", _html),
    "markdown": ("source.md", "markdown", table_markdown),
}


def _truth(spec: TableSpec) -> dict[tuple[int, int], str]:
    return {(r, c): truth_text(t) for r, row in enumerate(spec.rows) for c, t in enumerate(row) if t}


def _grid(table: Table) -> dict[tuple[int, int], str]:
    return {(c.row, c.col): c.text for c in table.cells if c.text}


def bench_readers(folder: Path) -> None:
    specs = [t for paper in feature_papers().values() for t in paper.tables()]
    print(f"1. readers on {len(specs)} feature tables written from their specs")
    print(f"   {'reader':<10} {'tables':>8} {'found':>6} {'cells exact':>16} {'ms/table':>9}")
    for name, (file_name, kind, writer) in READERS.items():
        found = exact = total = written = 0
        elapsed = 0.0
        for k, spec in enumerate(specs):
            text = writer(spec)
            if text is None:
                continue
            written += 1
            path = folder / f"{k}-{file_name}"
            path.write_text(text)
            start = time.perf_counter()
            tables, _ = read_artifact(kind, path, SHA)
            elapsed += time.perf_counter() - start
            truth = _truth(spec)
            total += len(truth)
            if tables:
                found += 1
                grid = _grid(tables[0])
                exact += sum(1 for pos, text in truth.items() if grid.get(pos) == text)
        share = f"{exact}/{total} ({exact / max(total, 1):.1%})"
        print(f"   {name:<10} {written:>8} {found:>6} {share:>16} {1000 * elapsed / max(written, 1):>9.1f}")


def bench_agreement(folder: Path) -> None:
    print("2. PDF vs LaTeX written from the same spec (every disagreement is a PDF misreading)")
    agree = read = paired = body = 0
    misses: list[str] = []
    for name, paper in feature_papers().items():
        pdf, tarball = folder / f"{name}.pdf", folder / f"{name}.tar.gz"
        render_paper(paper, pdf)
        tarball.write_bytes(paper_tarball(paper))
        pdf_tables = extract_tables(pdf).tables
        latex_tables, _ = read_artifact("latex", tarball, SHA)
        compare_readings(pdf_tables, latex_tables)
        cells = [c for t in pdf_tables for c in t.cells if c.second_reading]
        ok = sum(1 for c in cells if c.second_reading and c.second_reading.agrees)
        agree, read = agree + ok, read + len(cells)
        values = [c for t in pdf_tables for c in t.cells if c.kind == "body" and c.value is not None]
        paired, body = paired + sum(1 for c in values if c.second_reading), body + len(values)
        matched = sum(1 for t in pdf_tables if any(c.second_reading for c in t.cells))
        print(f"   {name:<18} tables {matched}/{len(paper.tables())} matched, cells {ok}/{len(cells)} agree")
        misses += [
            f"{name} {t.label} r{c.row}c{c.col}: PDF '{c.text}' vs LaTeX '{c.second_reading.text}'"
            for t in pdf_tables
            for c in t.cells
            if c.second_reading and not c.second_reading.agrees
        ]
    print(f"   agreement: {agree}/{read} cells ({agree / max(read, 1):.1%})")
    print(f"   pairing: {paired}/{body} value cells of the PDF read twice ({paired / max(body, 1):.1%})")
    for miss in misses[:10]:
        print(f"     {miss}")


def _docling_grid(path: Path) -> list[dict[tuple[int, int], str]]:
    """docling's grid of each table: every position, a spanning cell's text repeated (as its Markdown writes it)."""
    doc = json.loads(path.read_text())
    return [
        {
            (r, c): " ".join(cell["text"].split())
            for r, row in enumerate(t["data"]["grid"])
            for c, cell in enumerate(row)
        }
        for t in doc.get("tables", [])
    ]


def bench_docling(shared: Path) -> None:
    folder = shared / "tablebench" / "docling" / "groundtruth"
    if not folder.is_dir():
        print("3. skipped: no ../shared/tablebench/docling")
        return
    print("3. Markdown reader on docling's Markdown of real pages, against docling's JSON grid")
    for md in sorted(folder.glob("*.md")):
        tables, _ = read_artifact("markdown", md, SHA)
        truth = _docling_grid(md.with_suffix(".json"))
        exact = total = 0
        for table, grid in zip(tables, truth, strict=False):
            mine = {(c.row, c.col): c.text for c in table.cells}
            total += len(grid)
            exact += sum(1 for pos, text in grid.items() if mine.get(pos, "") == text)
        print(f"   {md.name:<34} tables {len(tables)}/{len(truth)}, cells equal {exact}/{total}")
        pdf = folder.parent / "sources" / f"{md.stem}.pdf"
        if pdf.is_file():
            pdf_tables = extract_tables(pdf).tables
            for note in compare_readings(pdf_tables, tables) or ["no table matched"]:
                print(f"     PDF vs Markdown: {note}")
            for table in pdf_tables:
                for c in table.cells:
                    if c.second_reading and not c.second_reading.agrees:
                        print(f"       p{table.page} r{c.row}c{c.col}: PDF '{c.text}' vs '{c.second_reading.text}'")


def _plant(text: str) -> str:
    """GENEB's README with the three problems of corpus/leaderboards/README.md planted."""
    planted = text.replace("strongest on splice sites\n(0.652)", "strongest on splice sites\n(0.625)")
    planted = planted.replace("| GENERator-eukaryote-3b | 0.537 |", "| GENERator-eukaryote-3b | **0.537** |")
    planted = planted.replace("| GenomeOcean-4B | **0.545** |", "| GenomeOcean-4B | 0.545 |")
    planted = planted.replace("| Caduceus-PH-1k | Mamba | SN | 2M | human |\n", "")
    return planted


def _leaderboard(name: str, text: str, folder: Path) -> None:
    """One README through fetch -> run -> suggest --entries -> run, as a curator does it."""
    ws = folder / name
    (ws / "config").mkdir(parents=True)
    shutil.copytree(Path(__file__).resolve().parents[1] / "config" / "catalogue", ws / "config" / "catalogue")
    (ws / "README.md").write_text(text)

    def cli(*args: str) -> str:
        done = subprocess.run([sys.executable, "-m", "pipeline", *args], cwd=ws, capture_output=True, text=True)
        return done.stdout

    cli("fetch", "--file", "README.md", "--id", "local:board")
    started = time.perf_counter()
    cli("run")
    elapsed = time.perf_counter() - started
    candidates = json.loads((ws / "extracted/local_board/candidates.json").read_text())["candidates"]
    kinds = ("dataset", "metric", "regime", "configuration")
    complete = [c for c in candidates if all(c["printed_labels"].get(k) for k in kinds)]
    regimes = sorted({str(c["printed_labels"].get("regime")) for c in candidates})
    findings = json.loads((ws / "audits/local_board/findings.json").read_text())["findings"]
    problems = [f for f in findings if f["severity"] in ("error", "warning", "needs-check")]
    (ws / "config/catalogue/suggested.yaml").write_text(cli("catalogue", "suggest", "--entries"))
    cli("run")
    records = (ws / "extracted/local_board/records.jsonl").read_text().splitlines()
    print(f"   {name:<16} candidates {len(candidates)} ({len(complete)} with dataset, metric, regime and model; "
          f"regimes {', '.join(regimes)}), records after suggest --entries: {len(records)}, "
          f"run {elapsed:.1f} s")  # fmt: skip
    print(f"   {'':<16} findings (error/warning/needs-check): {len(problems)}")
    for finding in problems:
        print(f"     {finding['check']}: {finding['message'][:150]}")


def bench_leaderboards(shared: Path, folder: Path) -> None:
    print("4. README leaderboards: fetch --file -> run -> catalogue suggest --entries -> run")
    _leaderboard("generated", readme(), folder)
    _leaderboard("generated-planted", readme(planted=True), folder)
    published = shared / "corpus/leaderboards/geneb_README.md"
    if not published.is_file():
        print("   skipped GENEB's README: no ../shared/corpus/leaderboards")
        return
    _leaderboard("geneb", published.read_text(), folder)
    _leaderboard("geneb-planted", _plant(published.read_text()), folder)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=Path(__file__).resolve().parents[2] / "shared")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        bench_readers(folder)
        bench_agreement(folder)
        bench_docling(args.shared)
        bench_leaderboards(args.shared, folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
