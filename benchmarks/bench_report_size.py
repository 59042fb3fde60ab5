"""Size of the reviewer's static report (audits/<id>/report.html, page crops embedded) on real papers.

Target (issue #15): under 1 MB for a 30-page paper. Each PDF is ingested and run through every stage in a
fresh workspace under .bench/report_size/ (git-ignored); prints pages, tables, report bytes and the bytes
of the embedded crops.

    python benchmarks/bench_report_size.py [PDF ...]   (default: RETRO and OPT from ../shared/corpus/papers)
"""

from __future__ import annotations

import argparse
import base64
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pypdfium2

ROOT = Path(__file__).resolve().parents[1]
PAPERS = ROOT.parent / "shared" / "corpus" / "papers"
DEFAULT = ("2112.04426_retro.pdf", "2205.01068_opt.pdf")
IMAGE = re.compile(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"')


def litaudit(root: Path, *args: str) -> None:
    command = [sys.executable, "-m", "pipeline", "--root", str(root), *args]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1):
        raise SystemExit(f"bench: litaudit {' '.join(args)} exited {done.returncode}: {done.stderr.strip()}")


def measure(pdf: Path, work: Path) -> tuple[int, int, int, int]:
    root = work / pdf.stem
    shutil.rmtree(root, ignore_errors=True)
    name = re.sub(r"[^a-z0-9]+", "-", pdf.stem.lower()).strip("-")
    litaudit(root, "fetch", "--file", str(pdf), "--id", f"local:{name}")
    litaudit(root, "run")
    report = next(root.glob("audits/*/report.html"))
    images = IMAGE.findall(report.read_text(encoding="utf-8"))
    pages = len(pypdfium2.PdfDocument(str(pdf)))
    return pages, len(images), report.stat().st_size, sum(len(base64.b64decode(i)) for i in images)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pdfs", nargs="*", type=Path)
    args = parser.parse_args()
    pdfs = args.pdfs or [PAPERS / name for name in DEFAULT]
    missing = [p for p in pdfs if not p.is_file()]
    if missing:
        raise SystemExit(f"bench: not found: {', '.join(map(str, missing))}")
    work = ROOT / ".bench" / "report_size"
    print(f"{'paper':40} {'pages':>5} {'crops':>5} {'report bytes':>12} {'crop bytes':>10}  under 1 MB per 30 pages")
    for pdf in pdfs:
        pages, crops, size, crop_bytes = measure(pdf, work)
        ok = size <= 1_000_000 * max(pages, 1) / 30
        print(f"{pdf.stem[:40]:40} {pages:5d} {crops:5d} {size:12,d} {crop_bytes:10,d}  {'yes' if ok else 'NO'}")


if __name__ == "__main__":
    main()
