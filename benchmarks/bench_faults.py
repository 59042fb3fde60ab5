"""Fault injection: what litaudit does when its files are edited, truncated, deleted or broken, a download
fails, a run is interrupted with Ctrl-C, or two runs start at once.

Each fault is injected into a fresh copy of a finished workspace (the demo paper and three more sources),
then the real command line is run as a user would. A row passes when the tool says what the fault is,
exits as documented, and no stored file is lost or half-written. Prints one table; exits 1 if any row fails.

    python benchmarks/bench_faults.py [--sigint-trials N]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ENV = {**os.environ, "LITAUDIT_MIN_REQUEST_INTERVAL": "0", "LITAUDIT_RETRIES": "0", "LITAUDIT_TIMEOUT": "2"}
SOURCES = ["local:demo", "local:a", "local:b", "local:c"]


def litaudit(root: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "pipeline", "--root", str(root), *args]
    return subprocess.run(command, capture_output=True, text=True, env={**ENV, **(env or {})}, check=False)


def snapshot(root: Path) -> dict[str, str]:
    """SHA-256 of every file litaudit keeps (state files included), by workspace path."""
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for folder in ("sources", "extracted", "audits")
        for p in sorted((root / folder).rglob("*"))
        if p.is_file()
    }


def leftovers(root: Path) -> list[str]:
    return [p.name for p in root.rglob(".*") if p.name.endswith((".tmp", ".part"))]


def status(root: Path) -> dict[str, dict[str, str]]:
    payload = json.loads(litaudit(root, "status", "--json").stdout)
    return {row["id"]: row["stages"] for row in payload["sources"]}


def all_done(root: Path) -> bool:
    return all(set(stages.values()) == {"done"} for stages in status(root).values()) and not leftovers(root)


@dataclass
class Row:
    fault: str
    expected: str
    seen: str
    intact: bool
    ok: bool


def build_workspace(folder: Path) -> Path:
    root = folder / "base"
    litaudit(root, "run", "--demo")
    pdf = root / "sources" / "local_demo" / "source.pdf"
    for sid in SOURCES[1:]:
        litaudit(root, "fetch", "--file", str(pdf), "--id", sid)
    litaudit(root, "run", "--jobs", "2")
    assert all_done(root), status(root)
    return root


def edited_output(root: Path) -> Row:
    path = root / "audits" / "local_demo" / "records.jsonl"
    original = path.read_bytes()
    path.write_bytes(original.replace(b"0.", b"9.", 1))
    state = status(root)["local:demo"]["audit"]
    frozen = litaudit(root, "freeze")
    rerun = litaudit(root, "run")
    seen = f"status audit={state}; freeze exit {frozen.returncode}; run exit {rerun.returncode}"
    ok = state == "modified" and frozen.returncode == 1 and "records.jsonl" in frozen.stderr
    return Row(
        "edited audits/…/records.jsonl",
        "modified; freeze 1; run redoes",
        seen,
        path.read_bytes() == original and all_done(root),
        ok,
    )


def truncated_output(root: Path) -> Row:
    path = root / "extracted" / "local_a" / "tables.json"
    original = path.read_bytes()
    path.write_bytes(original[: len(original) // 3])
    stages = status(root)["local:a"]
    rerun = litaudit(root, "run")
    seen = f"extract={stages['extract']}, map={stages['map']}, audit={stages['audit']}; run exit {rerun.returncode}"
    ok = (stages["extract"], stages["map"], stages["audit"]) == ("modified", "stale", "stale")
    return Row(
        "truncated extracted/…/tables.json",
        "modified, downstream stale; run redoes",
        seen,
        path.read_bytes() == original and all_done(root),
        ok,
    )


def deleted_output(root: Path) -> Row:
    path = root / "audits" / "local_b" / "report.md"
    path.unlink()
    state = status(root)["local:b"]["audit"]
    frozen = litaudit(root, "freeze")
    litaudit(root, "run")
    ok = state == "missing" and frozen.returncode == 1 and "report.md" in frozen.stderr
    return Row(
        "deleted audits/…/report.md",
        "missing; freeze 1; run redoes",
        f"audit={state}; freeze exit {frozen.returncode}",
        path.is_file() and all_done(root),
        ok,
    )


def edited_pdf(root: Path) -> Row:
    path = root / "sources" / "local_c" / "source.pdf"
    original = path.read_bytes()
    path.write_bytes(original + b"\n% appended\n")
    stages = status(root)["local:c"]
    frozen = litaudit(root, "freeze")
    ok = stages["fetch"] == "modified" and "fetch --file PATH --id local:c --refresh" in frozen.stderr
    seen = f"fetch={stages['fetch']}, extract={stages['extract']}; freeze exit {frozen.returncode}"
    path.write_bytes(original)
    return Row("edited sources/…/source.pdf", "modified; freeze names fetch --refresh", seen, all_done(root), ok)


def corrupt_source_record(root: Path) -> Row:
    path = root / "sources" / "local_b" / "source.json"
    original = path.read_bytes()
    path.write_text("{}")
    before = snapshot(root)
    shown = litaudit(root, "status")
    rerun = litaudit(root, "run", "--force")
    others = {sid: stages for sid, stages in status(root).items() if sid != "local:b"}
    ok = shown.returncode == 1 and rerun.returncode == 2 and "has no 'id'" in rerun.stderr  # status: not all done
    ok = ok and all(set(s.values()) == {"done"} for s in others.values()) and len(others) == 3
    path.write_bytes(original)
    kept = {k: v for k, v in snapshot(root).items() if "local_b" in k} == {
        k: v for k, v in before.items() if "local_b" in k and k != "sources/local_b/source.json"
    } | {"sources/local_b/source.json": hashlib.sha256(original).hexdigest()}
    seen = f"status exit {shown.returncode}; run exit {rerun.returncode}; other sources done: {len(others)}/3"
    return Row("source.json of one source is {}", "status 1 (not all done); run 2; others go on", seen, kept, ok)


def failed_fetch(root: Path) -> Row:
    (root / "config").mkdir(exist_ok=True)
    (root / "config" / "sources.yaml").write_text("sources:\n  - id: arxiv:2406.01627\n")
    env = {"LITAUDIT_ARXIV_API_BASE": "http://127.0.0.1:9/api/query", "LITAUDIT_ARXIV_PDF_BASE": "http://127.0.0.1:9/"}
    started = time.monotonic()
    rerun = litaudit(root, "run", "--json", env=env)
    took = time.monotonic() - started
    results = json.loads(rerun.stdout)["results"]
    fetch = results[0]
    others = {r["source_id"] for r in results[1:]}
    ok = (fetch["source_id"], fetch["status"]) == ("arxiv:2406.01627", "failed") and rerun.returncode == 1
    ok = ok and others == set(SOURCES) and "fetch arxiv:2406.01627" in rerun.stderr
    seen = f"exit {rerun.returncode}; fetch failed named; {len(others)} others ran; {took:.1f} s"
    return Row(
        "download fails (connection refused)", "that source failed; others go on; exit 1", seen, all_done(root), ok
    )


def failed_stage(root: Path) -> Row:
    (root / "config").mkdir(exist_ok=True)
    (root / "config" / "overrides.yaml").write_text("pins: [not, a, mapping]\n")
    rerun = litaudit(root, "run")
    stages = status(root)["local:demo"]
    frozen = litaudit(root, "freeze")
    ok = (stages["map"], stages["emit"], stages["audit"]) == ("failed", "stale", "stale") and frozen.returncode == 1
    seen = f"run exit {rerun.returncode}; map={stages['map']}, emit={stages['emit']}, audit={stages['audit']}"
    (root / "config" / "overrides.yaml").unlink()
    litaudit(root, "run")
    return Row("map fails (bad overrides.yaml)", "failed; downstream stale; freeze 1", seen, all_done(root), ok)


def interrupt(delay: float, signum: signal.Signals = signal.SIGINT) -> Callable[[Path], Row]:
    def inject(root: Path) -> Row:
        command = [sys.executable, "-m", "pipeline", "--root", str(root), "run", "--force", "--jobs", "2"]
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
        time.sleep(delay)
        sent = time.monotonic()
        process.send_signal(signum)
        _, stderr = process.communicate(timeout=60)
        stopped = time.monotonic() - sent
        ok = process.returncode in (130, 1) and "Traceback" not in stderr and stopped < 3
        seen = f"exit {process.returncode} after {stopped:.2f} s; stderr {len(stderr.splitlines())} line(s)"
        litaudit(root, "run")
        return Row(
            f"{'Ctrl-C' if signum == signal.SIGINT else 'SIGTERM'} after {delay:.1f} s, --jobs 2",
            "130, no traceback, < 3 s; re-run resumes",
            seen,
            all_done(root),
            ok,
        )

    return inject


def concurrent_runs(root: Path) -> Row:
    command = [sys.executable, "-m", "pipeline", "--root", str(root), "run", "--force", "--jobs", "2"]
    first = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    time.sleep(1.5)
    second = litaudit(root, "run")
    waited = litaudit(root, "run", "--wait")
    first.wait(timeout=300)
    ok = second.returncode == 2 and "workspace is busy" in second.stderr and waited.returncode == 1
    seen = f"second exit {second.returncode} (busy); with --wait exit {waited.returncode}"
    return Row("two runs at once", "second exits 2 (or waits with --wait)", seen, all_done(root), ok)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sigint-trials", type=int, default=4, help="Ctrl-C at this many random moments")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    delays = sorted(rng.uniform(0.8, 8.0) for _ in range(args.sigint_trials))
    faults: list[Callable[[Path], Row]] = [
        edited_output,
        truncated_output,
        deleted_output,
        edited_pdf,
        corrupt_source_record,
        failed_fetch,
        failed_stage,
        *(interrupt(d) for d in delays),
        interrupt(delays[len(delays) // 2], signal.SIGTERM),
        concurrent_runs,
    ]
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="bench-faults-") as tmp:
        base = build_workspace(Path(tmp))
        for number, fault in enumerate(faults):
            root = Path(shutil.copytree(base, Path(tmp) / f"case{number}"))
            rows.append(fault(root))
            shutil.rmtree(root)
    width = max(len(r.fault) for r in rows)
    print(f"{'fault':<{width}}  {'expected':<42}  {'seen':<62}  intact  pass")
    for r in rows:
        print(
            f"{r.fault:<{width}}  {r.expected:<42}  {r.seen:<62}  {'yes' if r.intact else 'NO':<6}  "
            f"{'PASS' if r.ok and r.intact else 'FAIL'}"
        )
    passed = sum(r.ok and r.intact for r in rows)
    print(f"{passed} of {len(rows)} rows pass")
    return 0 if passed == len(rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
