"""Probe benchmark: the genomic-benchmarks-probe protocol on the 13 GUE tasks and the two Genomic Benchmarks
test sets, with the k-mer reference, the null control and (when it can be had) HyenaDNA-tiny through ``hf:``.

Genomic Benchmarks ships only test files here, so the protocol's documented holdout applies: half of each
test set (stratified by label, ranked by a hash of seed 20261006 and item id) is the train pool, the other
half is scored. Checks printed at the end: the null control sits at chance, k-mer sits well above it.

    python benchmarks/bench_probe.py [--models kmer:4,kmer:6,null] [--hf DIR | --no-hf] [--variant default]
        [--data-root ../shared/dna] [--out .bench/probe/results.json]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import time
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from pipeline.probe.cache import EmbeddingCache
from pipeline.probe.commands import describe_run, format_value
from pipeline.probe.embedders import ModelOptions, parse_model
from pipeline.probe.evaluate import DatasetResult, RunOptions, RunResult, run_protocol
from pipeline.probe.protocols import get_protocol
from pipeline.store import write_json

ROOT = Path(__file__).resolve().parents[1]
CHECKPOINT = "anticapt/models/dataset1/finetuned_hyenadna"


def hyena_checkpoint(folder: Path) -> Path | None:
    """The HyenaDNA-tiny checkpoint of the anticapt wheel, downloaded once into ``folder``."""
    target = folder / CHECKPOINT
    if (target / "config.json").is_file():
        return target
    command = [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "anticapt==1.0", "-d", str(folder)]
    try:
        subprocess.run(command, check=True, capture_output=True, timeout=600)
        wheel = next(folder.glob("anticapt-1.0-*.whl"))
    except (subprocess.SubprocessError, OSError, StopIteration) as exc:
        print(f"hf: anticapt==1.0 not downloadable ({exc}); skipping HyenaDNA", file=sys.stderr)
        return None
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(folder, [n for n in archive.namelist() if n.startswith(CHECKPOINT + "/")])
    return target


def majority_share(dataset: DatasetResult) -> float:
    """The accuracy of a label-blind classifier that always says the commonest test label."""
    return float(np.bincount(dataset.group.y_true).max() / len(dataset.group.y_true))


def comparison_table(results: dict[str, RunResult], metric: str) -> str:
    """One row per dataset, one column per model: the metric with its 95% interval, and chance beside it."""
    names = list(results)
    first = next(iter(results.values()))
    lines = [f"{'dataset':<28} {'n_test':>6} {'majority':>8}  " + "  ".join(f"{n[:22]:<22}" for n in names)]
    for i, dataset in enumerate(first.datasets):
        cells = [format_value(r.datasets[i].metrics[metric]) for r in results.values()]
        n_test = len(dataset.test_subset.indices)
        lines.append(
            f"{dataset.name:<28} {n_test:>6} {majority_share(dataset):>8.3f}  " + "  ".join(f"{c:<22}" for c in cells)
        )
    cells = [format_value(r.aggregate[metric]) for r in results.values()]
    chance = float(np.mean([majority_share(d) for d in first.datasets]))
    lines.append(f"{'mean (equal weights)':<28} {'':>6} {chance:>8.3f}  " + "  ".join(f"{c:<22}" for c in cells))
    return "\n".join(line.rstrip() for line in lines)


def checks(results: dict[str, RunResult]) -> list[str]:
    """Null at chance (accuracy between random guessing, 0.5, and the majority share), k-mer well above it."""
    null = results.get("null")
    if null is None:
        return ["(no null control run)"]
    value, (low, high) = null.aggregate["accuracy"].value, null.aggregate["accuracy"].interval
    majority = float(np.mean([majority_share(d) for d in null.datasets]))
    consistent = sum(
        d.metrics["accuracy"].interval[0] <= majority_share(d) and d.metrics["accuracy"].interval[1] >= 0.5
        for d in null.datasets
    )
    lines = [
        f"{'PASS' if low <= majority and high >= 0.5 else 'FAIL'} null: mean accuracy {value:.3f} [{low:.3f}, "
        f"{high:.3f}] is at chance (0.5 guessing, {majority:.3f} majority); {consistent}/{len(null.datasets)} "
        "dataset intervals at chance (about 95% expected)"
    ]
    for spec, result in results.items():
        if spec == "null":
            continue
        k_value, k_low = result.aggregate["accuracy"].value, result.aggregate["accuracy"].interval[0]
        above = sum(
            d.metrics["accuracy"].interval[0] > n.metrics["accuracy"].interval[1]
            for d, n in zip(result.datasets, null.datasets, strict=True)
        )
        lines.append(
            f"{'PASS' if k_low > max(high, majority) else 'FAIL'} {spec}: mean accuracy {k_value:.3f}, lower bound "
            f"{k_low:.3f} above the null's upper bound {high:.3f} by {k_low - high:+.3f}; intervals disjoint "
            f"from the null's on {above}/{len(result.datasets)} datasets"
        )
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--protocol", default="genomic-benchmarks-probe")
    parser.add_argument("--variant", default=None)
    parser.add_argument("--models", default="kmer:4,kmer:6,null")
    parser.add_argument("--dataset", action="append", default=[], help="Only these datasets (repeatable).")
    parser.add_argument("--hf", type=Path, default=os.environ.get("LITAUDIT_HYENA_DIR"), help="A checkpoint folder.")
    parser.add_argument("--no-hf", action="store_true", help="Skip the HyenaDNA run.")
    parser.add_argument("--data-root", type=Path, default=ROOT.parent / "shared" / "dna")
    parser.add_argument("--workdir", type=Path, default=ROOT / ".bench" / "probe")
    parser.add_argument("--out", type=Path, default=None, help="All results as JSON [default: WORKDIR/results.json].")
    args = parser.parse_args()

    protocol = get_protocol(ROOT / "config", args.protocol)
    variant = protocol.variant(args.variant)
    entries = [protocol.datasets[n] for n in args.dataset or protocol.datasets]
    specs = [s for s in args.models.split(",") if s]
    options = ModelOptions(trust_remote_code=True, batch_size=64)
    have_models_extra = all(importlib.util.find_spec(m) for m in ("torch", "transformers"))
    if not args.no_hf and have_models_extra:
        folder = args.hf or hyena_checkpoint(args.workdir / "anticapt")
        if folder is not None:
            specs.append(f"hf:{folder}")
    elif not args.no_hf:
        print("hf: torch/transformers (the 'models' extra) not installed; skipping HyenaDNA", file=sys.stderr)

    print(f"{len(entries)} datasets, protocol {protocol.name} ({variant.name}), {os.cpu_count()} cores\n")
    results: dict[str, RunResult] = {}
    payload: dict[str, Any] = {}
    for spec in specs:
        embedder = parse_model(spec, options)
        cache = EmbeddingCache(args.workdir / "cache") if not embedder.cheap else None
        started = time.perf_counter()
        result = run_protocol(protocol, variant, embedder, entries, RunOptions(args.data_root, cache))
        wall = time.perf_counter() - started
        name = "null" if spec.startswith("null") else spec if not spec.startswith("hf:") else "hf:hyenadna-tiny"
        results[name] = result
        payload[name] = {**result.to_dict(), "wall_seconds": round(wall, 1)}
        print(describe_run(result))
        print(f"wall time {wall:.1f} s\n")

    print(
        f"{'model':<18} {'mean accuracy [95% CI]':<26} {'mean macro-F1 [95% CI]':<26} {'wall s':>7} "
        f"{'embed seq/s':>12} {'protocol seq/s':>15}"
    )
    for name, result in results.items():
        cells = [
            f"{result.aggregate[m].value:.3f} [{result.aggregate[m].interval[0]:.3f}, "
            f"{result.aggregate[m].interval[1]:.3f}]"
            for m in ("accuracy", "macro_f1")
        ]
        t = result.timing
        print(
            f"{name:<18} {cells[0]:<26} {cells[1]:<26} {payload[name]['wall_seconds']:>7} "
            f"{t['embed_sequences_per_second']!s:>12} {t['protocol_sequences_per_second']!s:>15}"
        )
    print()
    for metric in protocol.metrics:
        print(f"{metric} per dataset (95% bootstrap interval over test items)")
        print(comparison_table(results, metric) + "\n")
    verdicts = checks(results)
    print("\n".join(verdicts))
    out = args.out or args.workdir / "results.json"
    write_json(out, payload)
    print(f"\nresults: {out}")
    return 0 if all(line.startswith("PASS") for line in verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
