"""Time per decision posted to the workbench (``litaudit serve``) as the review log grows.

Issue #32: each decision used to re-read, re-verify and rewrite the whole ``reviews.jsonl``, so a POST grew
with the log. The demo workspace is built under .bench/review_log/ (git-ignored), its log filled with N
chained decisions (written directly, each hashed as the writer hashes it), then the real server is started on
a free port and timed over HTTP: POSTs of new decisions, one after another, and the queue's GET.

    python benchmarks/bench_review_log.py [--sizes 100,10000] [--posts 40]

Against another checkout (the code before a change), run it from there so that its ``pipeline`` is imported:
``cd OTHER && PYTHONPATH=OTHER python THIS/benchmarks/bench_review_log.py``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import requests

from pipeline.reviews import FINDING, RECORD, make_entry, reviews_path
from pipeline.store import Workspace

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / ".bench" / "review_log"
SID = "local:demo"


def litaudit(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pipeline", "--root", str(root), *args], capture_output=True, text=True
    )


def fill_log(ws: Workspace, records: list[str], findings: list[str], size: int) -> None:
    """``size`` chained decisions over the demo's records and findings, replacing the log."""
    lines, prev = [], None
    for i in range(size):
        if i % 4 == 3:
            entry = make_entry(
                FINDING, findings[i % len(findings)], "dismiss", None, f"n{i}", "bench", "2026-01-01T00:00:00Z", prev
            )
        else:
            entry = make_entry(
                RECORD, records[i % len(records)], "accept", None, f"n{i}", "bench", "2026-01-01T00:00:00Z", prev
            )
        lines.append(entry.line())
        prev = entry.sha256
    path = reviews_path(ws, SID)
    path.with_suffix(".tmp").write_text("".join(lines))
    os.replace(path.with_suffix(".tmp"), path)


def timed(call, *args, **kwargs) -> tuple[float, requests.Response]:
    start = time.perf_counter()
    response = call(*args, **kwargs)
    return (time.perf_counter() - start) * 1000, response


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,10000", help="log sizes (decisions) to measure at")
    parser.add_argument("--posts", type=int, default=40, help="POSTs timed at each size")
    args = parser.parse_args()
    root = WORK / "ws"
    if not (root / "audits").is_dir():
        shutil.rmtree(WORK, ignore_errors=True)
        done = litaudit(root, "run", "--demo")
        if done.returncode not in (0, 1):
            raise SystemExit(f"bench: litaudit run --demo exited {done.returncode}: {done.stderr.strip()}")
    ws = Workspace(root)
    server = subprocess.Popen(
        [sys.executable, "-m", "pipeline", "--root", str(root), "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert server.stdout is not None
        url = server.stdout.readline().strip()
        base, token = url.split("/?token=")
        headers = {"X-Litaudit-Token": token}
        for _ in range(100):
            try:
                requests.get(f"{base}/api/sources", headers=headers, timeout=5)
                break
            except requests.ConnectionError:
                time.sleep(0.1)
        records = [r["id"] for r in requests.get(f"{base}/api/records", headers=headers, timeout=60).json()["records"]]
        findings = [
            f["id"] for f in requests.get(f"{base}/api/findings", headers=headers, timeout=60).json()["findings"]
        ]
        print(f"{'log size':>9} {'POST median ms':>15} {'POST mean ms':>13} {'GET findings ms':>16}")
        for size in (int(s) for s in args.sizes.split(",")):
            fill_log(ws, records, findings, size)
            posts = []
            for i in range(args.posts + 3):  # the first three warm up (a kept log verifies the new file once)
                body = {"source": SID, "target": records[i % len(records)], "decision": "reject", "reviewer": "bench"}
                body["reason"] = f"post {size}-{i}"
                ms, response = timed(requests.post, f"{base}/api/reviews", json=body, headers=headers, timeout=600)
                if response.status_code != 200:
                    raise SystemExit(f"bench: POST answered {response.status_code}: {response.text}")
                posts.append(ms)
            gets = [timed(requests.get, f"{base}/api/findings", headers=headers, timeout=600)[0] for _ in range(5)]
            posts = posts[3:]
            post_ms, get_ms = statistics.median(posts), statistics.median(gets)
            print(f"{size:>9} {post_ms:>15.1f} {statistics.fmean(posts):>13.1f} {get_ms:>16.1f}")
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
