"""Life-science journal layouts (../shared/corpus/journals and journals2): per set, one extraction run, then
(1) label recall per paper and overall: each captioned table found on every page it occupies under its printed label,
(2) tables extracted over not_tables.tsv regions (figures, footers, reference lists, invisible text), and the
    regions set apart as figures (kept apart from the tables, so never counted as one),
(3) mean/micro cell F1 and exact share on the set's gold for the project and camelot-stream, in one run, and
    the mean F1 per paper,
then the same figures over both sets together, and (4) the judged audit precision on the journals papers (the
pipeline run as bench_audit_real runs it; --skip-audit).

    python benchmarks/bench_journals.py [--shared ../shared] [--sets journals,journals2] [--no-camelot]
                                        [--skip-audit] [--tables DIR] [-v]

--tables DIR scores the <pdf stem>.json files already in DIR (a `litaudit tables --out DIR` run) instead of
extracting again.
"""

from __future__ import annotations

import argparse
import collections
import csv
import json
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import bench_audit_real as audit_real  # the same runs and judgements as make bench-audit-real

from pipeline.audit.settings import AuditSettings

SHARED = Path(__file__).resolve().parents[2] / "shared"


def load_tsv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def norm_label(label: str | None) -> str:
    """As score_labels.py compares labels: case, spaces and trailing '.', ':' or '|' ignored."""
    return "".join((label or "").lower().split()).rstrip(".:|")


def iou(a: list[float], b: list[float]) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def box(text: str) -> list[float]:
    return [float(x) for x in text.split(",")]


def extract(papers: list[Path], out: Path) -> float:
    """`litaudit tables` over every paper; wall seconds."""
    started = time.perf_counter()
    done = subprocess.run(
        [str(Path(sys.executable).with_name("litaudit")), "tables", "--out", str(out), *map(str, papers)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"litaudit tables failed (exit {done.returncode}): {done.stderr.strip()[-400:]}")
    return time.perf_counter() - started


def predictions(out: Path, pdfs: set[str]) -> dict[str, list[dict[str, Any]]]:
    found = {}
    for pdf in sorted(pdfs):
        path = out / f"{Path(pdf).stem}.json"
        found[pdf] = json.loads(path.read_text()).get("tables", []) if path.is_file() else []
    return found


Recall = dict[str, list[int]]  # pdf -> [label rows, found under their label, found with their bbox]
Extra = tuple[str, int, str | None, float, str]  # pdf, page, label, confidence, what the region is


def label_recall(labels: list[dict[str, str]], preds: dict[str, list[dict[str, Any]]]) -> tuple[Recall, list[str]]:
    """Per paper: label rows, rows found under their printed label, rows found at their bbox; and the misses."""
    per: Recall = collections.defaultdict(lambda: [0, 0, 0])
    misses = []
    for row in labels:
        pdf, page, bb = row["pdf"], int(row["page"]), box(row["bbox"])
        on_page = [t for t in preds[pdf] if int(t.get("page", 0)) == page]
        hit = any(norm_label(t.get("label")) == norm_label(row["label"]) for t in on_page)
        placed = any(t.get("bbox") and iou(bb, t["bbox"]) > 0.3 for t in on_page)
        per[pdf][0] += 1
        per[pdf][1] += hit
        per[pdf][2] += placed
        if not hit:
            got = ", ".join(f"{t.get('label')}" for t in on_page) or "nothing"
            misses.append(f"  missed {pdf} p{page} {row['label']} (found there: {got})")
    return per, misses


def recall_line(per: Recall) -> str:
    n, hits, placed = (sum(v[i] for v in per.values()) for i in range(3))
    share = f"{hits}/{n} = {hits / max(n, 1):.3f}"
    return f"label recall {share}   page+bbox recall {placed}/{n} = {placed / max(n, 1):.3f}"


def not_table_extras(not_tables: list[dict[str, str]], preds: dict[str, list[dict[str, Any]]]) -> list[Extra]:
    """Predicted tables over a region that is not a table."""
    extras = []
    for row in not_tables:
        pdf, page, bb = row["pdf"], int(row["page"]), box(row["bbox"])
        for t in preds[pdf]:
            if int(t.get("page", 0)) == page and t.get("bbox") and iou(bb, t["bbox"]) > 0.3:
                extras.append((pdf, page, t.get("label"), float(t.get("confidence") or 0.0), row["what"]))
    return extras


def extras_lines(extras: list[Extra], regions: int) -> list[str]:
    """How many tables lie over not-table regions; those the extractor already doubts (confidence under the
    needs-check bar) are counted apart."""
    bar = AuditSettings().needs_check_below
    sure = [e for e in extras if e[3] >= bar]
    lines = [
        f"tables over not_tables regions: {len(extras)} (of {regions} regions); "
        f"{len(sure)} at or above the needs-check confidence {bar}"
    ]
    return lines + [
        f"  over {pdf} p{page}: label={lab!r} conf={conf:.2f} ({what[:70]})" for pdf, page, lab, conf, what in extras
    ]


def figures_set_apart(not_tables: list[dict[str, str]], out: Path) -> list[str]:
    """Regions the extractor set apart as figures (never tables): how many, and how many lie on a
    not_tables.tsv region."""
    figures = [(pdf, f) for pdf in sorted({r["pdf"] for r in not_tables}) for f in _file(out, pdf).get("figures", [])]
    on_region = sum(
        any(
            r["pdf"] == pdf and int(r["page"]) == f["page"] and iou(box(r["bbox"]), f["bbox"]) > 0.3 for r in not_tables
        )
        for pdf, f in figures
    )
    return [f"figures set apart (not tables): {len(figures)}, {on_region} of them over not_tables regions"]


def _file(out: Path, pdf: str) -> dict[str, Any]:
    path = out / f"{Path(pdf).stem}.json"
    return json.loads(path.read_text()) if path.is_file() else {}


Scores = dict[str, list[tuple[str, float]]]  # system -> (gold file, cell F1) per truth table


def cell_f1(gold: Path, out: Path, camelot: bool) -> Scores:
    """score_tables.py over a gold folder: the project's tables are the ones already extracted (copied, not
    re-run), camelot-stream runs in the same call."""
    systems = "project,camelot-stream" if camelot else "project"
    copy = f"cp {shlex.quote(str(out))}/*.json {{out}}/ # {{pdfs}}"
    with tempfile.TemporaryDirectory(prefix="bench-journals-scores-") as tmp:
        report = Path(tmp) / "scores.json"
        cmd = [sys.executable, str(SHARED / "bench" / "score_tables.py"), "--gold", str(gold), "--systems", systems]
        done = subprocess.run([*cmd, "--project-cmd", copy, "--json", str(report)], capture_output=True, text=True)
        if done.returncode != 0 or not report.is_file():
            raise SystemExit(f"score_tables.py failed (exit {done.returncode}): {done.stderr.strip()[-400:]}")
        scored = json.loads(report.read_text())
    return {key.rsplit("/", 1)[1]: [(name, float(f1)) for name, f1 in row["per"]] for key, row in scored.items()}


def f1_line(system: str, per: list[tuple[str, float]]) -> str:
    """Mean cell F1 over the truth tables and the share reproduced exactly."""
    mean = sum(f1 for _, f1 in per) / max(len(per), 1)
    exact = sum(f1 >= 1.0 for _, f1 in per)
    return f"{system:15} mean cell F1 {mean:.3f}   exact {exact}/{len(per)}"


def paper_lines(per_recall: Recall, scores: Scores) -> list[str]:
    """One line per paper: label rows found, and the mean F1 of its gold tables per system."""
    systems = list(scores)
    lines = [f"{'paper':42} {'labels':>6} {'label ok':>8} {'bbox ok':>7} {'gold':>4}  " + "  ".join(systems)]
    for pdf, (n, hits, placed) in sorted(per_recall.items()):
        stem = Path(pdf).stem
        f1s = {s: [f1 for name, f1 in scores[s] if name.split("__")[0] == stem] for s in systems}
        golds = len(f1s[systems[0]]) if systems else 0
        cells = "  ".join(f"{sum(v) / len(v):{len(s)}.3f}" if v else f"{'-':>{len(s)}}" for s, v in f1s.items())
        lines.append(f"{stem[:42]:42} {n:6d} {hits:8d} {placed:7d} {golds:4d}  {cells}")
    return lines


def audit_lines(shared: Path) -> list[str]:
    """Judged audit precision on the journal papers: the whole pipeline run on them (bench_audit_real's
    workspace, remade when the code changed) and every error, warning and needs-check finding matched with
    the judgements made by looking at the page (benchmarks/realpapers/)."""
    pdfs = sorted((shared / "corpus" / "journals" / "papers").glob("*.pdf"))
    findings, papers = audit_real.read_findings("journals", audit_real.run_set("journals", pdfs, jobs=2))
    judged = audit_real.load_judgements()
    row = audit_real.tally(findings, judged)["set journals"]
    unjudged = sum(
        f.severity in audit_real.LISTED_SEVERITIES and audit_real.verdict_of(f, judged) is None for f in findings
    )
    return [
        f"audit on {papers} papers, judged precision: errors {row['error'].cell()}, errors+warnings "
        f"{row['error+warning'].cell()}, needs-check {row['needs-check'].cell()}; unjudged {unjudged}"
    ]


def bench_set(root: Path, args: argparse.Namespace) -> tuple[Recall, list[Extra], int, Scores]:
    """One set: extraction (or the tables already in --tables), then its figures printed."""
    labels, not_tables = load_tsv(root / "labels.tsv"), load_tsv(root / "not_tables.tsv")
    pdfs = {r["pdf"] for r in labels} | {r["pdf"] for r in not_tables}
    with tempfile.TemporaryDirectory(prefix="bench-journals-") as tmp:
        out = args.tables or Path(tmp)
        seconds = 0.0 if args.tables else extract([root / "papers" / pdf for pdf in sorted(pdfs)], out)
        preds = predictions(out, pdfs)
        recall, misses = label_recall(labels, preds)
        extras = not_table_extras(not_tables, preds)
        scores = cell_f1(root / "gold", out, not args.no_camelot)
        print(f"== {root.name}: {len(pdfs)} papers" + (f", litaudit tables {seconds:.1f} s" if seconds else ""))
        for line in [
            *paper_lines(recall, scores),
            recall_line(recall),
            *(misses if args.verbose else []),
            *extras_lines(extras, len(not_tables)),
            *figures_set_apart(not_tables, out),
            *(f1_line(system, per) for system, per in scores.items()),
            *(f"  {f1:.3f}  {name}" for name, f1 in scores["project"] if args.verbose and f1 < 1.0),
        ]:
            print(line)
    return recall, extras, len(not_tables), scores


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=SHARED)
    parser.add_argument("--sets", default="journals,journals2", help="comma-separated sets under corpus/")
    parser.add_argument("--tables", type=Path, help="score the tables already extracted into this folder")
    parser.add_argument("--no-camelot", action="store_true", help="score the project alone")
    parser.add_argument("--skip-audit", action="store_true", help="leave out the audit precision line")
    parser.add_argument("-v", "--verbose", action="store_true", help="every missed label and every table's F1")
    args = parser.parse_args()
    roots = [args.shared / "corpus" / name for name in args.sets.split(",")]
    for root in roots:
        if not (root / "labels.tsv").is_file():
            print(f"{root}: no journal set (labels.tsv missing); put ../shared beside the project")
            return 2
    recall: Recall = {}
    extras: list[Extra] = []
    regions = 0
    scores: Scores = collections.defaultdict(list)
    for root in roots:
        set_recall, set_extras, set_regions, set_scores = bench_set(root, args)
        recall.update({f"{root.name}/{pdf}": v for pdf, v in set_recall.items()})
        extras += set_extras
        regions += set_regions
        for system, per in set_scores.items():
            scores[system] += per
    if len(roots) > 1:
        print(f"== overall ({' + '.join(root.name for root in roots)})")
        for line in [
            recall_line(recall),
            *extras_lines(extras, regions)[:1],
            *(f1_line(system, per) for system, per in scores.items()),
        ]:
            print(line)
    if not args.skip_audit and "journals" in args.sets.split(","):
        print(*audit_lines(args.shared), sep="\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
