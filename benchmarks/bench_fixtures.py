"""Extraction on the generated feature papers (the demo paper, and the extra layout papers marked '+'):
exact tables and time, per paper.

    python benchmarks/bench_fixtures.py

A complement to ../shared/bench/score_tables.py (real papers, ICDAR 2013): the generated papers have
exact truth for spans, bold, captions and continued tables, which the real gold set does not all cover.
"""

from __future__ import annotations

import tempfile
import time
from functools import partial
from pathlib import Path

import testpapers  # noqa: F401  (puts tests/ on the path for the typeset test papers)
from papers import EXTRA_FEATURE_PAPERS, FEATURE_PAPERS, render_side_by_side, render_unnamed_bold

from pipeline.extract.document.tables import extract_tables
from pipeline.fixtures import PaperTruth, demo_truth, render_paper, write_demo_paper


def exact_tables(pdf: Path, truth: PaperTruth) -> tuple[int, int, float]:
    start = time.perf_counter()
    found = extract_tables(pdf)
    elapsed = time.perf_counter() - start
    exact = 0
    for table in truth.tables:
        parts = [t for t in found.tables if (t.label, t.panel or "") == (table.label, table.panel)]
        exact += [p.grid() for p in parts] == [table.cells]  # a continued table is one table; a panel its own
    return exact, len(truth.tables), elapsed


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        papers = {name: (Path(tmp) / f"{name}.pdf", spec) for name, spec in FEATURE_PAPERS.items()}
        rows = [(name, *exact_tables(pdf, render_paper(spec, pdf))) for name, (pdf, spec) in papers.items()]
        demo = write_demo_paper(Path(tmp) / "demo.pdf")
        rows.append(("demo", *exact_tables(demo, demo_truth())))
        extra = {name: partial(render_paper, spec) for name, spec in EXTRA_FEATURE_PAPERS.items()}
        extra |= {"side_by_side": render_side_by_side, "unnamed_bold": render_unnamed_bold}
        for name, render in extra.items():
            pdf = Path(tmp) / f"extra-{name}.pdf"
            truth = render(pdf)
            rows.append((f"+{name}", *exact_tables(pdf, truth)))
    for name, exact, total, elapsed in rows:
        print(f"{name:24} {exact}/{total} exact  {elapsed:6.2f} s")
    print(f"{'all':24} {sum(r[1] for r in rows)}/{sum(r[2] for r in rows)} exact  {sum(r[3] for r in rows):6.2f} s")


if __name__ == "__main__":
    main()
