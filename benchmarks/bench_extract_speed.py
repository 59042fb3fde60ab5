"""Extraction speed, measured in one run on the same PDFs: (1) merely reading every character with its box
through pypdfium2, (2) `litaudit tables`, (3) camelot's stream flavour (the `bench` extra), each in a
fresh process so no run warms another's caches. Targets: litaudit <= 2x the pdfium read, >= 2x faster
than camelot-stream. Wall seconds are the figure; CPU seconds (user + system) are printed beside them.
A shared machine's speed drifts by tens of percent within minutes, so the three are run in turn
``--repeat`` times (default 3) and each one's fastest run is compared (the medians are printed too).
Also prints litaudit's peak RSS.

--memory: peak RSS of `litaudit tables` on one long PDF of 30 and of 300 pages (pages of the shared
papers joined with pypdfium2, in a temporary folder): memory must stay bounded per page, not grow with
the document.

    python benchmarks/bench_extract_speed.py [PDF ...]   (default: the dev-gold papers of ../shared)
    python benchmarks/bench_extract_speed.py --memory
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Timing:
    wall: float  # seconds
    cpu: float  # user + system seconds
    rss_mb: float  # peak resident memory

    def __str__(self) -> str:
        return f"{self.wall:7.1f} s  (cpu {self.cpu:5.1f} s)"


def timed(command: list[str]) -> Timing:
    """Wall seconds, CPU seconds and peak RSS (from GNU time) of one command."""
    started = time.perf_counter()
    done = subprocess.run(["/usr/bin/time", "-f", "%U %S %M", *command], capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{command[:3]}: exit {done.returncode}: {done.stderr.strip()[-300:]}")
    user, system, rss = done.stderr.strip().splitlines()[-1].split()
    return Timing(seconds, float(user) + float(system), int(rss) / 1024)


def long_pdf(sources: list[Path], pages: int, target: Path) -> Path:
    """One PDF of the first ``pages`` pages of ``sources`` in turn."""
    import pypdfium2

    joined = pypdfium2.PdfDocument.new()
    for source in sources:
        if len(joined) >= pages:
            break
        pdf = pypdfium2.PdfDocument(source)
        joined.import_pages(pdf, list(range(min(len(pdf), pages - len(joined)))))
    if len(joined) < pages:
        raise SystemExit(f"the shared papers hold {len(joined)} pages, fewer than {pages}")
    joined.save(target)
    return target


def memory() -> int:
    """Peak RSS of `litaudit tables` on a 30-page and a 300-page PDF."""
    sources = sorted((SHARED / "corpus" / "journals" / "papers").glob("*.pdf"))
    sources += sorted((SHARED / "corpus" / "papers").glob("*.pdf"))
    if not sources:
        print("no PDFs: put ../shared beside the project")
        return 0
    with tempfile.TemporaryDirectory() as work:
        for pages in (30, 300):
            pdf = long_pdf(sources, pages, Path(work) / f"joined{pages}.pdf")
            run = timed([sys.executable, "-m", "pipeline", "tables", str(pdf), "--out", str(Path(work) / "out")])
            print(f"litaudit tables, one PDF of {pages:3d} pages  {run}  peak RSS {run.rss_mb:5.0f} MB")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pdfs", nargs="*", type=Path)
    parser.add_argument("--no-camelot", action="store_true", help="skip the camelot-stream timing")
    parser.add_argument("--memory", action="store_true", help="peak RSS on a 30- and a 300-page PDF instead")
    parser.add_argument("--repeat", type=_positive, default=3, help="runs of each, in turn (default 3)")
    args = parser.parse_args()
    if args.memory:
        return memory()
    pdfs = args.pdfs or dev_gold_pdfs()
    if not pdfs or not all(p.is_file() for p in pdfs):
        print("no PDFs: pass some, or put ../shared beside the project")
        return 0
    import pypdfium2

    pages = sum(len(pypdfium2.PdfDocument(p)) for p in pdfs)
    files = [str(p) for p in pdfs]
    commands = {"read": [sys.executable, "-c", READ_ALL_CHARS, *files]}
    if not args.no_camelot:
        commands["camelot"] = [sys.executable, "-c", CAMELOT_STREAM, *files]
    runs: dict[str, list[Timing]] = {"read": [], "ours": [], "camelot": []}
    for _ in range(args.repeat):  # in turn, so that a slow spell of the machine falls on all three
        runs["read"].append(timed(commands["read"]))
        with tempfile.TemporaryDirectory() as out:
            runs["ours"].append(timed([sys.executable, "-m", "pipeline", "tables", *files, "--out", out]))
        if "camelot" in commands:
            runs["camelot"].append(timed(commands["camelot"]))
    best = {name: min(times, key=lambda t: t.wall) for name, times in runs.items() if times}
    middle = {name: _median(times) for name, times in runs.items() if times}
    read, ours = best["read"], best["ours"]
    print(f"{len(pdfs)} PDFs, {pages} pages; fastest of {args.repeat} runs in turn (median in brackets)")
    print(f"pdfium, every character with its box  {read}  [{middle['read'].wall:5.1f} s]")
    print(
        f"litaudit tables                        {ours}  [{middle['ours'].wall:5.1f} s]  = {_ratio(ours, read)} "
        f"[{_ratio(middle['ours'], middle['read'])}] the pdfium read (target <= 2)"
    )
    print(f"litaudit peak RSS                      {max(t.rss_mb for t in runs['ours']):7.0f} MB")
    if "camelot" in best:
        camelot = best["camelot"]
        print(
            f"camelot-stream                         {camelot}  [{middle['camelot'].wall:5.1f} s]  = "
            f"{_ratio(camelot, ours)} [{_ratio(middle['camelot'], middle['ours'])}] litaudit (target >= 2)"
        )
    return 0


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least 1")
    return int(text)


def _median(times: list[Timing]) -> Timing:
    return sorted(times, key=lambda t: t.wall)[len(times) // 2]


def _ratio(a: Timing, b: Timing) -> str:
    return f"{a.wall / b.wall:.2f}x (cpu {a.cpu / b.cpu:.2f}x)"


if __name__ == "__main__":
    raise SystemExit(main())
