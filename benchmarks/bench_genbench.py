"""A realistic GenBench paper through the real CLI: the share of value cells that come out right (prints figures;
not a test).

    python benchmarks/bench_genbench.py [--keep DIR]

The paper (pipeline/fixtures/genbench_paper.py) is typeset, then `litaudit fetch --file`, `extract`, `map` and
`emit` run in a fresh workspace. A value cell is right when a record has its catalogue dataset name,
configuration, metric, printed text and table label (issue 4's kept-aside check; target >= 95%). Also printed:
the share per table, aggregation notes and percent rescales as the truth has them, every miss and every record
the truth does not have. The second variant wraps Table 7's multirow task names onto two lines.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from collections import Counter
from pathlib import Path

import testpapers  # noqa: F401  (puts tests/ on the path for the typeset test papers)
from click.testing import CliRunner
from papers.genbench_paper import (
    ExpectedValue,
    Key,
    Score,
    genbench_values,
    score_records,
    write_genbench_paper,
)

from pipeline.cli import main
from pipeline.store import read_jsonl

SID = "local:genbench-eval"


def run_pipeline(root: Path, pdf: Path) -> tuple[list[dict], dict, float]:
    """fetch -> extract -> map -> emit; the records, the mapping and the wall time of the four commands."""
    runner = CliRunner()
    start = time.perf_counter()
    for args in (("fetch", "--file", str(pdf), "--id", SID), ("extract", SID), ("map", SID), ("emit", SID)):
        result = runner.invoke(main, ["--root", str(root), *args])
        if result.exit_code not in (0, 1):
            raise SystemExit(f"litaudit {' '.join(args)} failed ({result.exit_code}): {result.output}")
    seconds = time.perf_counter() - start
    folder = root / "extracted" / "local_genbench-eval"
    return read_jsonl(folder / "records.jsonl"), json.loads((folder / "mapping.json").read_text()), seconds


def per_table(score: Score, expected: list[ExpectedValue]) -> str:
    total = Counter(v.table for v in expected if v.dataset is not None)
    missed: Counter[str] = Counter()
    for key, n in score.missed:
        missed[key[0]] += n
    return ", ".join(f"{t} {total[t] - missed[t]}/{total[t]}" for t in sorted(total, key=lambda t: int(t.split()[1])))


def notes_and_rescales(records: list[dict], expected: list[ExpectedValue]) -> tuple[str, str]:
    found = {(r["table_label"], r["printed"], r["dataset"], r["configuration"]): r for r in records}
    notes = rescales = notes_total = rescales_total = 0
    for value in (v for v in expected if v.dataset is not None):
        record = found.get((value.table, value.printed, value.dataset, value.configuration))
        if value.aggregation:
            notes_total += 1
            notes += record is not None and record["aggregation"] == value.aggregation
        if value.percent:
            rescales_total += 1
            rescaled = record is not None and record["rescale"] is not None
            rescales += rescaled and abs(record["catalogue_value"] - float(value.printed) / 100) < 1e-9
    return f"{notes}/{notes_total}", f"{rescales}/{rescales_total}"


def report(name: str, root: Path, wrapped: bool) -> None:
    pdf = root / "genbench.pdf"
    truth = write_genbench_paper(pdf, wrapped_multirow=wrapped)
    expected = genbench_values(wrapped_multirow=wrapped)
    shutil.rmtree(root / "ws", ignore_errors=True)  # a fresh workspace: nothing skipped as already done
    records, mapping, seconds = run_pipeline(root / "ws", pdf)
    score = score_records(records, expected)
    notes, rescales = notes_and_rescales(records, expected)
    print(
        f"{name}: {score.right}/{score.expected} value cells right ({100 * score.share:.1f}%) "
        f"[{len(truth.tables)} tables, {truth.pages} pages; fetch+extract+map+emit {seconds:.1f} s]"
    )
    print(f"    per table: {per_table(score, expected)}")
    print(f"    aggregation notes as the truth has them: {notes}; percent values rescaled right: {rescales}")
    unmapped = Counter(u["reasons"][0] for t in mapping["tables"] for u in t["unmapped"])
    for reason, n in unmapped.most_common():
        print(f"    unmapped x{n}: {reason}")
    for what, keys in (("missed", score.missed), ("wrong ", score.wrong)):
        for (table, dataset, metric), printed in grouped(keys).items():
            print(f"    {what} x{len(printed)}: {table} -> {dataset} / {metric}: printed {', '.join(printed)}")
    if not wrapped:
        limitations(root / "ws")


def limitations(root: Path) -> None:
    """The audit's Source record: its limitations (the panel float's caption count among them)."""
    result = CliRunner().invoke(main, ["--root", str(root), "audit", SID])
    if result.exit_code not in (0, 1):
        raise SystemExit(f"litaudit audit failed ({result.exit_code}): {result.output}")
    record = json.loads((root / "audits" / "local_genbench-eval" / "source_record.json").read_text())
    print(f"    Source record limitations ({len(record['limitations'])}):")
    for sentence in record["limitations"]:
        print(f"      - {sentence}")


def grouped(keys: list[tuple[Key, int]]) -> dict[tuple[str, str | None, str | None], list[str]]:
    """Misses by table, dataset and metric, with the printed values (one line per dataset row, not per cell)."""
    out: dict[tuple[str, str | None, str | None], list[str]] = {}
    for (table, printed, dataset, _, metric), n in keys:
        out.setdefault((table, dataset, metric), []).extend([printed] * n)
    return out


def main_() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, help="write the PDFs and workspaces here instead of a temp folder")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = args.keep or Path(tmp)
        for name, wrapped in (("GenBench paper", False), ("GenBench paper, wrapped multirow names", True)):
            folder = base / ("wrapped" if wrapped else "plain")
            folder.mkdir(parents=True, exist_ok=True)
            report(name, folder, wrapped)


if __name__ == "__main__":
    main_()
