"""What a plain install costs: the wheel installed without extras into a fresh venv, its size on disk, and
the time and peak memory of `litaudit --help` and `litaudit --version` (best of five).

    python benchmarks/bench_install.py [--extras probe,export]

Targets (issue #22): --help under 0.15 s and 30 MB; the runtime install under 100 MB.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*command: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(c) for c in command], capture_output=True, text=True, check=True)


def folder_mb(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink()) / 2**20


# A fresh wrapper per measurement: RUSAGE_CHILDREN's peak then covers the one command alone.
_PEAK = (
    "import resource, subprocess, sys; subprocess.run(sys.argv[1:], capture_output=True, check=True); "
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
)


def timed(command: list[str | Path]) -> tuple[float, float]:
    """Best wall time of five runs (s) and the largest peak RSS (MB)."""
    best, peak = float("inf"), 0.0
    for _ in range(5):
        start = time.perf_counter()
        subprocess.run([str(c) for c in command], capture_output=True, check=True)
        best = min(best, time.perf_counter() - start)
        kilobytes = run(sys.executable, "-c", _PEAK, *command).stdout
        peak = max(peak, int(kilobytes) / 1024)
    return best, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--extras", default="", help="comma-separated extras to install as well")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", out / "dist", ROOT)
        wheel = next((out / "dist").glob("litaudit-*.whl"))
        run(sys.executable, "-m", "venv", out / "venv")
        empty = folder_mb(out / "venv")
        target = f"{wheel}[{args.extras}]" if args.extras else str(wheel)
        run(out / "venv" / "bin" / "python", "-m", "pip", "install", "-q", target)
        size = folder_mb(out / "venv") - empty
        litaudit = out / "venv" / "bin" / "litaudit"
        help_s, help_mb = timed([litaudit, "--help"])
        version_s, version_mb = timed([litaudit, "--version"])
    extras = args.extras or "none"
    print(f"plain install (extras: {extras}): {size:.0f} MB installed on top of an empty venv (target < 100 MB)")
    print(f"litaudit --help:    {help_s:.3f} s, peak {help_mb:.0f} MB (target < 0.15 s, < 30 MB)")
    print(f"litaudit --version: {version_s:.3f} s, peak {version_mb:.0f} MB")


if __name__ == "__main__":
    main()
