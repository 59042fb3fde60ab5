"""Release benchmark: freeze 100 papers' worth of records and PDFs, then time a full verify.

Builds a synthetic workspace (real reportlab PDFs padded with an incompressible image to a typical
arXiv size, a 40 x 5 results table each, one finding and a few review decisions per paper), then runs
the real command line (``python -m pipeline``) for freeze, verify (folder, archive, --fast) and export.
Target: a full verify under 60 s on the project machine.

    python benchmarks/bench_release.py [--papers 100] [--pdf-kb 1500] [--workdir DIR] [--keep]
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
from typing import Any

from pipeline.release.records import read_source_records
from pipeline.release.sample import SamplePaper, add_paper, write_catalogue
from pipeline.reviews import record_decision
from pipeline.store import Workspace

TARGET_VERIFY_S = 60.0
DATE = "2025-03-01"


def timed(action: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    result = action()
    return result, time.perf_counter() - start


def litaudit(root: Path, *args: str, expect: int = 0) -> dict[str, Any]:
    """Run the real CLI in a fresh process; its --json result."""
    cmd = [sys.executable, "-m", "pipeline", "--root", str(root), *args, "--json"]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != expect:
        raise SystemExit(f"bench: {' '.join(args)} exited {done.returncode}: {done.stderr.strip()}")
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def build_workspace(ws: Workspace, papers: int, pdf_kb: int, reviews: int) -> dict[str, int]:
    write_catalogue(ws)
    n_records = n_reviews = 0
    for i in range(papers):
        sid = f"arxiv:2501.{i:05d}"
        records = add_paper(ws, SamplePaper(sid, seed=i, n_datasets=40, n_models=5, noise_kb=pdf_kb))
        stored = read_source_records(ws, sid)
        for j, record in enumerate(records[:reviews]):
            decision = ("accept", "correct", "reject")[j % 3]
            record_decision(
                ws, sid, record.id, decision, known=stored.ids(), reviewer="bench", value=0.5, date=f"{DATE}T00:00:00Z"
            )
        n_records += len(records)
        n_reviews += min(reviews, len(records))
    pdf_bytes = sum(p.stat().st_size for p in ws.sources_dir.glob("*/source.pdf"))
    return {"papers": papers, "records": n_records, "reviews": n_reviews, "pdf_bytes": pdf_bytes}


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=100)
    parser.add_argument("--pdf-kb", type=int, default=1500, help="approximate size of each PDF (arXiv papers: 1-3 MB)")
    parser.add_argument("--reviews", type=int, default=6, help="review decisions per paper")
    parser.add_argument("--workdir", type=Path, default=None, help="where to build (default: a temporary folder)")
    parser.add_argument("--keep", action="store_true", help="keep the workspace afterwards")
    args = parser.parse_args()

    base = args.workdir or Path(tempfile.mkdtemp(prefix="bench-release-"))
    root = base / "ws"
    if root.exists():
        shutil.rmtree(root)
    ws = Workspace(root)
    try:
        built, t_build = timed(lambda: build_workspace(ws, args.papers, args.pdf_kb, args.reviews))
        print(
            f"workspace: {built['papers']} papers, {built['records']} records, {built['reviews']} review decisions, "
            f"{built['pdf_bytes'] / 1e6:.1f} MB of PDFs (built in {t_build:.1f} s)"
        )
        frozen, t_freeze = timed(lambda: litaudit(root, "freeze", "--with-pdfs", "--date", DATE))
        release, archive = Path(frozen["path"]), Path(frozen["archive"])
        print(
            f"freeze --with-pdfs: {t_freeze:.2f} s -> {frozen['id']} "
            f"({folder_bytes(release) / 1e6:.1f} MB folder, {archive.stat().st_size / 1e6:.1f} MB archive)"
        )
        checks = [
            ("verify (folder, full)", (str(release),)),
            ("verify (archive, full)", (str(archive),)),
            ("verify --fast (folder)", (str(release), "--fast")),
        ]
        t_full = 0.0
        for label, extra in checks:
            report, seconds = timed(lambda extra=extra: litaudit(root, "verify", *extra))
            t_full = seconds if label == "verify (folder, full)" else t_full
            print(
                f"{label}: {seconds:.2f} s ({report['files']} files, {report['bytes'] / 1e6:.1f} MB, ok={report['ok']})"
            )
        target = base / "catalogue.duckdb"
        exported, t_export = timed(
            lambda: litaudit(root, "export", str(release), "--format", "duckdb", "-o", str(target))
        )
        print(f"export --format duckdb: {t_export:.2f} s ({exported['rows']['results']} result rows)")
        verdict = "met" if t_full < TARGET_VERIFY_S else "MISSED"
        print(f"target full verify < {TARGET_VERIFY_S:.0f} s: {verdict} ({t_full:.2f} s)")
    finally:
        if not args.keep and args.workdir is None:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
