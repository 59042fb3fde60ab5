"""Scale within one source: a long PDF through every stage, and a large Markdown source through extract.

Two kinds of PDF, each cut to 30, 60, 120 and 300 pages: real papers of ../shared/corpus/papers concatenated
("real"; skipped without ../shared), and the demo paper repeated ("repeated": one set of labels printed many
times, as in a volume or a supplement that restarts its numbering). Per stage it prints wall time and the peak
RSS of the command (GNU time), then the sizes of the audit's outputs: audit time, memory and report size must
grow linearly with the tables, whatever the labels. The text kind is a Markdown leaderboard (../shared's GENEB
README when present, else a generated one) repeated to the given sizes, read with the size limit raised
(config/extract.yaml).

    python benchmarks/bench_audit_scale.py [--pages 30,60,120,300] [--kinds real,repeated,text] [--text-mb 1,2,4]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import pypdfium2

from pipeline.fixtures import write_demo_paper

ROOT = Path(__file__).resolve().parents[1]
PAPERS = ROOT.parent / "shared" / "corpus" / "papers"
LEADERBOARD = ROOT.parent / "shared" / "corpus" / "leaderboards" / "geneb_README.md"
STAGES = ("extract", "map", "emit", "audit")
OUTPUTS = ("report.md", "report.html", "findings.json", "records.jsonl")


@dataclass
class Step:
    seconds: float
    peak_mb: float


@dataclass
class Row:
    kind: str
    size: str  # "30 pages", "4 MB"
    tables: int = 0
    cells: int = 0
    steps: dict[str, Step] = field(default_factory=dict)
    outputs: dict[str, int] = field(default_factory=dict)  # audit output name -> bytes


def litaudit(root: Path, *args: str) -> Step:
    """One command under GNU time (its last stderr line: the peak RSS in KB); exit 0 or 1 (problems) is a run."""
    command = ["/usr/bin/time", "-f", "%M", sys.executable, "-m", "pipeline", "--root", str(root), *args]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode not in (0, 1):
        raise SystemExit(f"bench: litaudit {' '.join(args)} exited {done.returncode}: {done.stderr.strip()[-400:]}")
    return Step(seconds, int(done.stderr.strip().splitlines()[-1]) / 1024)


def concatenated(sources: list[Path], pages: int, dest: Path) -> Path:
    """The first ``pages`` pages of ``sources`` taken in turn (cycling), as one PDF."""
    out = pypdfium2.PdfDocument.new()
    try:
        while len(out) < pages:
            for path in sources:
                src = pypdfium2.PdfDocument(str(path))
                try:
                    wanted = min(len(src), pages - len(out))
                    out.import_pages(src, list(range(wanted)))
                finally:
                    src.close()
                if len(out) >= pages:
                    break
        out.save(str(dest))
    finally:
        out.close()
    return dest


def leaderboard(megabytes: float, dest: Path) -> Path:
    """A Markdown leaderboard repeated to about ``megabytes``."""
    if LEADERBOARD.is_file():
        unit = LEADERBOARD.read_text(encoding="utf-8")
    else:
        header = "| Model | " + " | ".join(f"Task {t}" for t in range(1, 7)) + " |\n|---|" + "---|" * 6 + "\n"
        rows = "".join(
            f"| Model-{m} | " + " | ".join(f"{0.5 + (m * 7 + t) % 40 / 100:.3f}" for t in range(6)) + " |\n"
            for m in range(12)
        )
        unit = f"## Results\n\nTable 1 reports MCC on six tasks.\n\n{header}{rows}\nThe best model wins four tasks.\n\n"
    copies = max(1, round(megabytes * 1024 * 1024 / len(unit.encode())))
    dest.write_text("\n".join(unit for _ in range(copies)), encoding="utf-8")
    return dest


def through_stages(kind: str, size: str, source: Path, work: Path, extract_yaml: str = "") -> Row:
    """``extract_yaml``: config/extract.yaml for the run (a one-off --set would leave extract stale for map)."""
    root = work / f"{kind}-{size.replace(' ', '')}"
    shutil.rmtree(root, ignore_errors=True)
    litaudit(root, "fetch", "--file", str(source), "--id", "local:scale")
    if extract_yaml:
        (root / "config").mkdir(exist_ok=True)
        (root / "config" / "extract.yaml").write_text(extract_yaml)
    row = Row(kind, size)
    for stage in STAGES:
        row.steps[stage] = litaudit(root, stage)
    tables = json.loads((root / "extracted" / "local_scale" / "tables.json").read_text())["tables"]
    row.tables, row.cells = len(tables), sum(len(t["cells"]) for t in tables)
    audits = root / "audits" / "local_scale"
    row.outputs = {name: (audits / name).stat().st_size for name in OUTPUTS if (audits / name).is_file()}
    shutil.rmtree(root)
    return row


def print_row(row: Row) -> None:
    steps = "  ".join(f"{s} {row.steps[s].seconds:6.1f} s {row.steps[s].peak_mb:5.0f} MB" for s in STAGES)
    sizes = "  ".join(f"{name} {row.outputs.get(name, 0) / 1e6:7.2f} MB" for name in OUTPUTS)
    print(f"{row.kind:<8} {row.size:>9} {row.tables:5d} tables {row.cells:7d} cells  {steps}  {sizes}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", default="30,60,120,300", help="PDF lengths, comma-separated")
    parser.add_argument("--kinds", default="real,repeated,text", help="which to run: real, repeated, text")
    parser.add_argument("--text-mb", default="1,2,4", help="Markdown sizes in MB, comma-separated")
    args = parser.parse_args()
    try:
        pages = [int(p) for p in args.pages.split(",")]
        text_mb = [float(m) for m in args.text_mb.split(",")]
    except ValueError:
        parser.error("--pages and --text-mb take comma-separated numbers")
    kinds = args.kinds.split(",")
    if unknown := set(kinds) - {"real", "repeated", "text"}:
        parser.error(f"--kinds: unknown {', '.join(sorted(unknown))} (real, repeated, text)")
    with tempfile.TemporaryDirectory(prefix="bench-audit-scale-") as tmp:
        work = Path(tmp)
        sources = {"repeated": [write_demo_paper(work / "demo.pdf")]}
        if "real" in kinds:
            if PAPERS.is_dir():
                sources["real"] = sorted(PAPERS.glob("*.pdf"))
            else:
                print(f"real: skipped, {PAPERS} not found")
        for kind in ("real", "repeated"):
            for n in pages if kind in kinds and kind in sources else []:
                pdf = concatenated(sources[kind], n, work / f"{kind}{n}.pdf")
                print_row(through_stages(kind, f"{n} pages", pdf, work))
        for mb in text_mb if "text" in kinds else []:
            source = leaderboard(mb, work / "leaderboard.md")
            limit = f"max_text_bytes: {int(mb * 2 * 1024 * 1024)}\n"  # the default would refuse the largest
            print_row(through_stages("text", f"{mb:g} MB", source, work, limit))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
