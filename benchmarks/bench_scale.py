"""Scale: N generated papers through every stage, serially, with --jobs 2 worker processes, and on a Dask
LocalCluster of 2 workers; papers/s, pages/s, peak RSS of the largest process, the cost per paper as N
grows (it must stay flat: the cost curve is linear) and whether every executor wrote the same bytes.

    python benchmarks/bench_scale.py [--sizes 50,200,1000] [--executors serial,jobs,dask]
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pypdfium2
import testpapers  # noqa: F401  (puts tests/ on the path for the typeset test papers)
from papers.audit_papers import AUDIT_PAPERS, write_audit_paper

from pipeline.fetch.retrieve import ingest_file
from pipeline.fixtures import write_demo_paper
from pipeline.settings import Settings
from pipeline.store import Workspace

EXECUTORS = {
    "serial": [],
    "--jobs 2": ["--jobs", "2"],
    "dask, 2 workers": ["--executor", "dask", "--jobs", "2"],
}
CHOICES = dict(zip(("serial", "jobs", "dask"), EXECUTORS, strict=True))  # --executors names


@dataclass
class Timing:
    executor: str
    papers: int
    pages: int
    seconds: float
    cpu_seconds: float
    peak_rss_mb: float
    digest: str


def make_papers(folder: Path) -> list[Path]:
    """The distinct generated papers we have: the demo and the planted audit papers."""
    papers = [write_demo_paper(folder / "demo.pdf")]
    for name in AUDIT_PAPERS:
        write_audit_paper(name, folder / f"{name}.pdf")
        papers.append(folder / f"{name}.pdf")
    return papers


def workspace(root: Path, papers: list[Path], n: int) -> int:
    """A workspace with ``n`` sources ingested cycling through ``papers``; returns the page count. Ingested
    in this process (what ``fetch --file`` calls): a command per source spent minutes starting Python at
    N = 1000, and fetch is not what is measured."""
    settings = Settings(root=root)
    ws = Workspace(root)
    pages = 0
    for i in range(n):
        pdf = papers[i % len(papers)]
        ingest_file(ws, settings, pdf, f"local:p{i:04d}", refresh=False)
        pages += len(pypdfium2.PdfDocument(pdf))
    return pages


def litaudit(root: Path, *args: str, measured: bool = False) -> subprocess.CompletedProcess[str]:
    """The command line; ``measured`` runs it under GNU time, whose last stderr line is the user and system
    CPU seconds of the run and every process it waited for, then the peak RSS in KB of the largest of them
    (a worker, for the executors with workers)."""
    command = [sys.executable, "-m", "pipeline", "--root", str(root), *args]
    if measured:
        command = ["/usr/bin/time", "-f", "%U %S %M", *command]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def outputs_digest(root: Path) -> str:
    digest = hashlib.sha256()
    for folder in ("extracted", "audits"):
        for path in sorted((root / folder).rglob("*")):
            if path.is_file() and not path.name.startswith("."):
                digest.update(path.relative_to(root).as_posix().encode() + path.read_bytes())
    return digest.hexdigest()[:12]


def measure(base: Path, n: int, pages: int, name: str, options: list[str], scratch: Path) -> Timing:
    root = Path(shutil.copytree(base, scratch / name.replace(" ", "_").replace(",", "")))
    started = time.perf_counter()
    done = litaudit(root, "run", *options, measured=True)
    seconds = time.perf_counter() - started
    if done.returncode not in (0, 1):
        raise SystemExit(f"{name}: litaudit run exited {done.returncode}: {done.stderr.strip()[-300:]}")
    user, system, peak_kb = done.stderr.strip().splitlines()[-1].split()
    timing = Timing(name, n, pages, seconds, float(user) + float(system), int(peak_kb) / 1024, outputs_digest(root))
    shutil.rmtree(root)
    return timing


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="50,200,1000", help="numbers of papers, comma-separated")
    parser.add_argument("--executors", default="serial,jobs,dask", help="which to run: serial, jobs, dask")
    args = parser.parse_args()
    try:
        sizes = [int(s) for s in args.sizes.split(",")]
    except ValueError:
        parser.error(f"--sizes: {args.sizes!r} is not a comma-separated list of numbers of papers")
    names = args.executors.split(",")
    if unknown := set(names) - set(CHOICES):
        parser.error(f"--executors: unknown {', '.join(sorted(unknown))} (serial, jobs, dask)")
    chosen = {CHOICES[name]: EXECUTORS[CHOICES[name]] for name in names}
    rows: list[Timing] = []
    with tempfile.TemporaryDirectory(prefix="bench-scale-") as tmp:
        scratch = Path(tmp)
        papers = make_papers(scratch)
        for n in sizes:
            base = scratch / f"base{n}"
            pages = workspace(base, papers, n)
            for name, options in chosen.items():
                rows.append(measure(base, n, pages, name, options, scratch))
                print(_line(rows[-1]), flush=True)
            shutil.rmtree(base)
    print()
    print("cost per paper as N grows, per executor, wall s / CPU s (flat = linear cost curve):")
    for name in chosen:
        mine = [r for r in rows if r.executor == name]
        print(
            f"  {name:<16} "
            + "  ".join(f"N={r.papers}: {r.seconds / r.papers:.3f} / {r.cpu_seconds / r.papers:.3f}" for r in mine)
        )
    identical = {n: len({r.digest for r in rows if r.papers == n}) == 1 for n in sizes}
    print(
        "outputs byte-identical across executors: "
        + ", ".join(f"N={n}: {'yes' if ok else 'NO'}" for n, ok in identical.items())
    )
    return 0 if all(identical.values()) else 1


def _line(r: Timing) -> str:
    return (
        f"N={r.papers:<5} {r.executor:<16} {r.seconds:8.1f} s  {r.papers / r.seconds:6.2f} papers/s  "
        f"{r.pages / r.seconds:6.1f} pages/s  CPU {r.cpu_seconds:8.1f} s  "
        f"peak RSS {r.peak_rss_mb:6.0f} MB  outputs {r.digest}"
    )


if __name__ == "__main__":
    raise SystemExit(main())
