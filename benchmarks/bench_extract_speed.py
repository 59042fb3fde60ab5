"""Extraction speed, measured in one run on the same PDFs: (1) merely reading every character with its box
through pypdfium2, (2) `litaudit tables`, (3) camelot's stream flavour (the `bench` extra), each in a
fresh process so no run warms another's caches. Targets: litaudit <= 2x the pdfium read, >= 2x faster
than camelot-stream. Also prints litaudit's peak RSS per PDF.

    python benchmarks/bench_extract_speed.py [PDF ...]   (default: the dev-gold papers of ../shared)
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared"

READ_ALL_CHARS = """
import sys, pypdfium2
for path in sys.argv[1:]:
    pdf = pypdfium2.PdfDocument(path)
    for page in pdf:
        text = page.get_textpage()
        for i in range(text.count_chars()):
            text.get_charbox(i, loose=True)
            text.get_text_range(i, 1)
"""

CAMELOT_STREAM = """
import sys, camelot
for path in sys.argv[1:]:
    camelot.read_pdf(path, flavor="stream", pages="all")
"""


def dev_gold_pdfs() -> list[Path]:
    names = sorted({p.name.split("__")[0] for p in (SHARED / "corpus" / "gold").glob("*.json")})
    return [SHARED / "corpus" / "papers" / f"{name}.pdf" for name in names]


def timed(command: list[str]) -> tuple[float, int]:
    """Wall seconds and peak RSS (KB, from GNU time) of one command."""
    started = time.perf_counter()
    done = subprocess.run(["/usr/bin/time", "-f", "%M", *command], capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{command[:3]}: exit {done.returncode}: {done.stderr.strip()[-300:]}")
    return seconds, int(done.stderr.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pdfs", nargs="*", type=Path)
    parser.add_argument("--no-camelot", action="store_true", help="skip the camelot-stream timing")
    args = parser.parse_args()
    pdfs = args.pdfs or dev_gold_pdfs()
    if not pdfs or not all(p.is_file() for p in pdfs):
        print("no PDFs: pass some, or put ../shared beside the project")
        return 0
    import pypdfium2

    pages = sum(len(pypdfium2.PdfDocument(p)) for p in pdfs)
    files = [str(p) for p in pdfs]
    read, _ = timed([sys.executable, "-c", READ_ALL_CHARS, *files])
    with tempfile.TemporaryDirectory() as out:
        ours, rss = timed([sys.executable, "-m", "pipeline", "tables", *files, "--out", out])
    print(f"{len(pdfs)} PDFs, {pages} pages")
    print(f"pdfium, every character with its box  {read:7.1f} s")
    print(f"litaudit tables                        {ours:7.1f} s  = {ours / read:.2f}x the pdfium read (target <= 2)")
    print(f"litaudit peak RSS                      {rss / 1024:7.0f} MB")
    if not args.no_camelot:
        camelot, _ = timed([sys.executable, "-c", CAMELOT_STREAM, *files])
        print(f"camelot-stream {camelot:31.1f} s  = {camelot / ours:.2f}x litaudit (target >= 2)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
