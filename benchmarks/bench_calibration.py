"""Does a table's confidence tell the truth? Every gold grid the project can score, extracted once, each matched
to the table the extractor returned for it (same page, same label, else the best cell F1, as
../shared/bench/score_tables.py matches them), then:

- confidence bins (width 0.1) against mean cell F1 and the share of exact tables,
- expected calibration error (ECE: the bins' gap between mean confidence and mean cell F1, weighted by size;
  beside it the same gap to the exact share),
- the purity of the top bin (tables at >= 0.9 with cell F1 >= 0.98; target 95%),
- every table with cell F1 < 0.9 and its confidence (target: all below 0.8), with the reasons written on it,
- a reliability plot (PNG, matplotlib from the `bench` extra).

Sets: corpus (../shared/corpus/gold), journals, journals2, gold_dev2 (benchmarks/gold_dev2) and fixtures (the
typeset test papers with exact truth). `--tune` names the sets the confidence model was tuned on; the others are
reported apart as the measure. Cell F1 is score_tables.py's (imported, not copied).

    python benchmarks/bench_calibration.py [--shared ../shared] [--sets corpus,journals,...]
        [--tune journals2,fixtures] [--plot .bench/calibration.png] [--json OUT] [-v]
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import json
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import testpapers  # noqa: F401  (puts tests/ on the path for the typeset test papers)

from pipeline.extract.document.continued import page_parts
from pipeline.extract.document.tables import extract_tables
from pipeline.fixtures import PaperTruth, demo_truth, render_paper, write_demo_paper
from pipeline.fixtures.spec import TableTruth

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
SETS = ("corpus", "journals", "journals2", "gold_dev2", "fixtures")
TUNE = ("journals2", "fixtures")  # the sets the confidence model was tuned on; the rest measure it
PURE_F1 = 0.98  # a table at >= SURE is right when its cell F1 reaches this
SURE = 0.9
WRONG_F1 = 0.9  # a table under this F1 is misread: its confidence must be under DOUBT
DOUBT = 0.8
BINS = 10


@dataclass
class Scored:
    """One gold grid, the extracted table it was matched with (none: missed), and its cell F1."""

    set: str
    name: str
    f1: float
    confidence: float | None  # None: no table was found for it
    notes: list[str]


def score_tables(shared: Path) -> ModuleType:
    """../shared/bench/score_tables.py, imported: its relations and F1 are the ones every benchmark reports."""
    path = shared / "bench" / "score_tables.py"
    spec = importlib.util.spec_from_file_location("score_tables", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"{path}: cannot load score_tables.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def found_tables(pdf: Path) -> list[dict[str, Any]]:
    """The tables `litaudit tables` writes for ``pdf`` (a continued table as one table per page)."""
    return [part.to_dict() for table in extract_tables(pdf).tables for part in page_parts(table)]


def match(st: ModuleType, truth: dict[str, Any], found: list[dict[str, Any]]) -> tuple[float, dict[str, Any] | None]:
    """The found table for one truth table, chosen as score_tables.score chooses it, and its F1."""
    gold = st.relations(truth["cells"])
    same_page = [t for t in found if int(t.get("page", 0)) == truth["page"]]
    label = truth.get("label")
    same = [t for t in same_page if label and t.get("label") and st.norm(t["label"]) == st.norm(label)]
    best: tuple[float, dict[str, Any] | None] = (0.0, None)
    for table in same or same_page:
        f1 = st.prf(gold, st.relations(st.from_contract([table])[0]["cells"]))[3]
        if best[1] is None or f1 > best[0]:
            best = (f1, table)
    return best


def scored(set_name: str, name: str, f1: float, table: dict[str, Any] | None) -> Scored:
    confidence = None if table is None else float(table.get("confidence") or 0.0)
    return Scored(set_name, name, round(f1, 4), confidence, list(table.get("notes", [])) if table else [])


def gold_set(st: ModuleType, set_name: str, gold_dir: Path) -> Iterator[Scored]:
    for pdf, truths in st.load_gold_dir(str(gold_dir)).items():
        found = found_tables(Path(pdf))
        for truth in truths:
            yield scored(set_name, truth["name"], *match(st, truth, found))


def truth_cells(truth: TableTruth) -> list[dict[str, Any]]:
    """A typeset table's truth in score_tables' cell form (inclusive spans)."""
    spans = {(s.row, s.col): (s.row_span, s.col_span) for s in truth.spans}
    cells = []
    for r, row in enumerate(truth.cells):
        for c, text in enumerate(row):
            if text is not None:
                rs, cs = spans.get((r, c), (1, 1))
                cells.append({"r0": r, "r1": r + rs - 1, "c0": c, "c1": c + cs - 1, "text": text})
    return cells


def fixture_papers() -> dict[str, Callable[[Path], PaperTruth]]:
    """Every typeset paper with exact truth: the feature papers, the extra ones, the journal, figure and unseen-paper
    layouts, and the demo paper."""
    from papers import EXTRA_FEATURE_PAPERS, FEATURE_PAPERS, render_side_by_side, render_unnamed_bold
    from papers.figure_layouts import FIGURE_LAYOUTS
    from papers.journal_layouts import JOURNAL_LAYOUTS
    from papers.unseen_layouts import UNSEEN_LAYOUT_PAPERS, UNSEEN_LAYOUT_RENDERERS

    def paper(spec: Any) -> Callable[[Path], PaperTruth]:
        return lambda path: render_paper(spec, path)

    def demo(path: Path) -> PaperTruth:
        write_demo_paper(path)
        return demo_truth()

    specs = {**FEATURE_PAPERS, **EXTRA_FEATURE_PAPERS, **UNSEEN_LAYOUT_PAPERS}
    renders = {name: paper(spec) for name, spec in specs.items()}
    renders |= {"side_by_side": render_side_by_side, "unnamed_bold": render_unnamed_bold, "demo": demo}
    renders |= {f"journal_{name}": render for name, render in JOURNAL_LAYOUTS.items()}
    renders |= {f"figure_{name}": render for name, (render, _signal) in FIGURE_LAYOUTS.items()}
    renders |= {f"unseen_{name}": render for name, render in UNSEEN_LAYOUT_RENDERERS.items()}
    return renders


def fixture_set(st: ModuleType, tmp: Path) -> Iterator[Scored]:
    for name, render in fixture_papers().items():
        pdf = tmp / f"{name}.pdf"
        truth = render(pdf)
        found = found_tables(pdf)
        for table in truth.tables:
            for part in table.parts or [table]:
                gold = {"page": part.page, "label": part.label, "cells": truth_cells(part)}
                panel = f" {part.panel}" if part.panel else ""
                yield scored("fixtures", f"{name}: {part.label}{panel} p{part.page}", *match(st, gold, found))


def collect(st: ModuleType, shared: Path, sets: list[str]) -> list[Scored]:
    dirs = {
        "corpus": shared / "corpus" / "gold",
        "journals": shared / "corpus" / "journals" / "gold",
        "journals2": shared / "corpus" / "journals2" / "gold",
        "gold_dev2": ROOT / "benchmarks" / "gold_dev2",
    }
    out: list[Scored] = []
    for name in sets:
        start = time.perf_counter()
        if name == "fixtures":
            with tempfile.TemporaryDirectory() as tmp:
                out += fixture_set(st, Path(tmp))
        elif dirs[name].is_dir():
            out += gold_set(st, name, dirs[name])
        else:
            print(f"{name}: {dirs[name]} not found, skipped", file=sys.stderr)
        print(f"  {name}: extracted and scored in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    return out


def bins(rows: list[Scored]) -> list[tuple[float, float, list[Scored]]]:
    edges = [i / BINS for i in range(BINS + 1)]
    return [
        (lo, hi, [s for s in rows if lo <= s.confidence < hi or (hi == 1.0 and s.confidence == 1.0)])  # type: ignore[operator]
        for lo, hi in itertools.pairwise(edges)
    ]


def mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def summary(rows: list[Scored]) -> dict[str, Any]:
    """The calibration figures of the found tables among ``rows`` (missed ones have no confidence)."""
    found = [s for s in rows if s.confidence is not None]
    n = max(len(found), 1)
    ece_f1 = ece_exact = 0.0
    for _lo, _hi, members in bins(found):
        if members:
            conf = mean([s.confidence for s in members])  # type: ignore[misc]
            ece_f1 += len(members) / n * abs(conf - mean([s.f1 for s in members]))
            ece_exact += len(members) / n * abs(conf - mean([float(s.f1 == 1.0) for s in members]))
    sure = [s for s in found if s.confidence >= SURE]  # type: ignore[operator]
    wrong = [s for s in found if s.f1 < WRONG_F1]
    return {
        "tables": len(rows),
        "found": len(found),
        "mean_f1": round(mean([s.f1 for s in rows]), 4),
        "exact": sum(s.f1 == 1.0 for s in rows),
        "ece_f1": round(ece_f1, 4),
        "ece_exact": round(ece_exact, 4),
        "sure": len(sure),
        "sure_right": sum(s.f1 >= PURE_F1 for s in sure),
        "wrong": len(wrong),
        "wrong_but_sure": sum(s.confidence >= DOUBT for s in wrong),  # type: ignore[operator]
    }


def summary_line(name: str, rows: list[Scored]) -> str:
    s = summary(rows)
    purity = f"{s['sure_right']}/{s['sure']} = {s['sure_right'] / s['sure']:.3f}" if s["sure"] else "-"
    return (
        f"{name:22} {s['tables']:4d} {s['found']:5d} {s['mean_f1']:7.3f} {s['exact']:5d}  {s['ece_f1']:6.3f} "
        f"{s['ece_exact']:9.3f}  {purity:>17}  {s['wrong_but_sure']:3d} of {s['wrong']:3d}"
    )


def report(rows: list[Scored], tune: list[str], verbose: bool) -> list[str]:
    found = [s for s in rows if s.confidence is not None]
    lines = ["confidence bin   tables  mean conf  mean F1  exact share"]
    for lo, hi, members in bins(found):
        if members:
            conf = mean([s.confidence for s in members])  # type: ignore[misc]
            f1 = mean([s.f1 for s in members])
            exact = mean([float(s.f1 == 1.0) for s in members])
            shut = "]" if hi == 1.0 else ")"
            lines.append(f"[{lo:.1f}, {hi:.1f}{shut}    {len(members):6d}  {conf:9.3f}  {f1:7.3f}  {exact:11.3f}")
    header = (
        f"{'set':22} {'n':>4} {'found':>5} {'mean F1':>7} {'exact':>5}  {'ECE F1':>6} {'ECE exact':>9}  "
        f"{'F1>=0.98 of >=0.9':>17}  F1<0.9 at >=0.8"
    )
    lines += ["", header]
    present = [name for name in SETS if any(s.set == name for s in rows)]
    lines += [summary_line(name, [s for s in rows if s.set == name]) for name in present]
    tuned = [s for s in rows if s.set in tune]
    measured = [s for s in rows if s.set not in tune]
    lines += [summary_line(f"tuned on ({','.join(tune)})", tuned)] if tuned else []
    lines += [summary_line("measured (the rest)", measured)] if measured else []
    lines.append(summary_line("all", rows))
    wrong = sorted((s for s in found if s.f1 < WRONG_F1), key=lambda s: (-(s.confidence or 0), s.f1))
    lines += ["", f"tables with cell F1 < {WRONG_F1} ({len(wrong)}), most confident first:"]
    for s in wrong:
        flag = "  <-- sure of a misread table" if s.confidence >= DOUBT else ""  # type: ignore[operator]
        lines.append(f"  conf {s.confidence:.2f}  F1 {s.f1:.3f}  {s.set}/{s.name}{flag}")
        if verbose or flag:
            lines += [f"      note: {note}" for note in s.notes]
    missed = [s for s in rows if s.confidence is None]
    lines += ["", f"gold tables with no table found on their page ({len(missed)}):"]
    lines += [f"  {s.set}/{s.name}" for s in missed]
    if verbose:
        lines += ["", "every table:"]
        lines += [
            f"  conf {'-' if s.confidence is None else f'{s.confidence:.2f}':>4}  F1 {s.f1:.3f}  {s.set}/{s.name}"
            for s in sorted(rows, key=lambda s: (s.set, s.name))
        ]
    return lines


def plot(rows: list[Scored], path: Path) -> str:
    """The reliability diagram: mean cell F1 and exact share per confidence bin against the diagonal."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "reliability plot skipped: matplotlib is not installed (pip install 'litaudit[bench]')"
    found = [s for s in rows if s.confidence is not None]
    centres, f1s, exacts, sizes = [], [], [], []
    for _lo, _hi, members in bins(found):
        if members:
            centres.append(mean([s.confidence for s in members]))  # type: ignore[misc]
            f1s.append(mean([s.f1 for s in members]))
            exacts.append(mean([float(s.f1 == 1.0) for s in members]))
            sizes.append(len(members))
    fig, ax = plt.subplots(figsize=(5.5, 5))
    ax.plot([0, 1], [0, 1], color="grey", linestyle=":", label="calibrated")
    ax.plot(centres, f1s, marker="o", label="mean cell F1")
    ax.plot(centres, exacts, marker="s", linestyle="--", label="share exact")
    for x, y, n in zip(centres, f1s, sizes, strict=True):
        ax.annotate(str(n), (x, y), textcoords="offset points", xytext=(4, -12), fontsize=8)
    ax.scatter([s.confidence for s in found], [s.f1 for s in found], s=8, alpha=0.35, color="black", label="tables")
    ax.axvline(DOUBT, color="red", linewidth=0.6)
    s = summary(rows)
    ax.set(xlim=(0, 1.02), ylim=(0, 1.02), xlabel="confidence", ylabel="cell F1 / share exact")
    ax.set_title(f"{s['found']} tables, ECE {s['ece_f1']:.3f} (F1), {s['ece_exact']:.3f} (exact)", fontsize=10)
    ax.legend(loc="upper left", fontsize=8)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)
    return f"reliability plot: {path}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shared", type=Path, default=SHARED)
    ap.add_argument("--sets", default=",".join(SETS), help=f"comma separated, of {','.join(SETS)}")
    ap.add_argument("--tune", default=",".join(TUNE), help="the sets the model was tuned on (reported apart)")
    ap.add_argument("--plot", type=Path, default=ROOT / ".bench" / "calibration.png")
    ap.add_argument("--json", type=Path, help="write every scored table here")
    ap.add_argument("-v", "--verbose", action="store_true", help="every table, and the notes of each misread one")
    args = ap.parse_args()
    sets = [s for s in args.sets.split(",") if s]
    unknown = sorted(set(sets) - set(SETS))
    if unknown:
        raise SystemExit(f"bench_calibration: unknown set(s) {', '.join(unknown)} (known: {', '.join(SETS)})")
    if not (args.shared / "bench" / "score_tables.py").is_file():
        raise SystemExit(f"bench_calibration: {args.shared}/bench/score_tables.py not found (pass --shared)")
    st = score_tables(args.shared)
    rows = collect(st, args.shared, sets)
    print("\n".join(report(rows, [s for s in args.tune.split(",") if s], args.verbose)))
    print(plot(rows, args.plot))
    if args.json:
        args.json.write_text(json.dumps([asdict(s) for s in rows], indent=1))


if __name__ == "__main__":
    main()
