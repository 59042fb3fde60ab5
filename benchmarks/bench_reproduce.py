"""Reproduce benchmark: the probe-leaderboard test paper (tests/papers/reproduce_paper.py) through fetch, extract,
map and emit, then ``litaudit probe reproduce`` twice on the same workspace.

Prints the verdict counts, the time per reproduced cell (first run, then the re-run, which reads hf: embeddings
back from the cache; k-mer and null embeddings are cheaper to compute than to read, so they are never cached),
and whether the re-run wrote the same reproductions byte for byte (same subsets and seeds: identical values).
Honest 4-mer and null values on the real rows are those the n100 variant gives here (see the tests); the null
control on the mouse dataset is printed inflated, so it must come back ``differs``.

Then, with the real data, a Markdown leaderboard of GUE human TF 0 in MCC (tests/papers/probe_leaderboard.py)
through fetch -> run -> probe reproduce: the honest 4-mer and null rows (values from a probe run here), the
4-mer row inflated by 0.1 on a second copy, and a model without local weights. With torch and transformers
(the models extra) and LITAUDIT_HYENA_DIR naming the HyenaDNA-tiny checkpoint of the anticapt wheel
(tests/hyena.py), its row too, pinned by hash in the registry, in the protocol's 10-shot variant (the full
one embeds 33k sequences): its MCC with interval and sequences per second.

    python benchmarks/bench_reproduce.py [--data-root ../shared/dna] [--work .bench/reproduce] [--device cpu]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import testpapers  # noqa: F401  (puts tests/ on sys.path for ``papers``)
from papers.probe_leaderboard import ABSENT_ENTRY, ABSENT_MODEL, PROTOCOL_DATASET, leaderboard
from papers.reproduce_paper import MOTIF, REAL_DATASETS, reproduce_paper, write_board_workspace

from pipeline.fixtures.render import typeset
from pipeline.reproductions import VERDICTS

ROOT = Path(__file__).resolve().parents[1]
SID = "local:probe-board"


def litaudit(work: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "pipeline", "--root", str(work), *args]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def motif_accuracy(work: Path, model: str) -> str:
    out = litaudit(work, "probe", "run", "--protocol", "motif-probe", "--model", model, "--json")
    return f"{json.loads(out.stdout)['aggregate']['accuracy']['value'] * 100:.1f}"


def timed_reproduce(work: Path, args: list[str], sid: str = SID) -> tuple[float, dict]:
    started = time.perf_counter()
    result = litaudit(work, "probe", "reproduce", sid, *args, "--json")
    if result.returncode not in (0, 1):
        raise SystemExit(f"reproduce failed: {result.stderr.strip()}")
    return time.perf_counter() - started, json.loads(result.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-root", type=Path, default=ROOT.parent / "shared" / "dna")
    parser.add_argument("--work", type=Path, default=ROOT / ".bench" / "reproduce")
    parser.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    opts = parser.parse_args()
    shutil.rmtree(opts.work, ignore_errors=True)
    write_board_workspace(opts.work / "config", opts.work / "data" / "planted_motif.csv.gz")
    values = {MOTIF: [motif_accuracy(opts.work, "kmer:4"), motif_accuracy(opts.work, "null"), "99.0"]}
    if opts.data_root.is_dir():
        nontata, mouse = REAL_DATASETS
        values = {nontata: ["82.0", "54.0", "90.0"], mouse: ["67.0", "78.0", "88.0"], **values}
    else:
        print(f"{opts.data_root} is absent: the generated dataset only")
    pdf = opts.work / "board.pdf"
    pdf.write_bytes(typeset(reproduce_paper(values))[0])
    for args in (["fetch", "--file", str(pdf), "--id", SID], ["extract", SID], ["map", SID], ["emit", SID]):
        litaudit(opts.work, *args)
    args = ["--variant", "n100", "--data-root", str(opts.data_root), "--device", opts.device]
    args += ["--cache-dir", str(opts.work / "cache")]
    path = opts.work / "audits" / "local_probe-board" / "reproductions.jsonl"
    first_s, first = timed_reproduce(opts.work, args)
    first_bytes = path.read_bytes()
    second_s, second = timed_reproduce(opts.work, args)
    counts = first["counts"]
    cells = counts["reproduced"] + counts["differs"]
    print(f"command: litaudit probe reproduce {SID} {' '.join(args)}")
    print(f"cells: {sum(counts.values())} ({', '.join(f'{counts[v]} {v}' for v in VERDICTS)}); "
          f"{first['runs']} protocol runs")  # fmt: skip
    for entry in first["entries"]:
        low, high = entry["interval"] or (0, 0)
        shown = entry["reason"] or f"{entry['reproduced']:.3f} [{low:.3f}, {high:.3f}]"
        print(f"  {entry['locator_readable']}: printed {entry['printed_text']}: {entry['verdict']} ({shown})")
    for label, seconds, out in (("first run", first_s, first), ("re-run", second_s, second)):
        per_cell = seconds / cells if cells else float("nan")
        embedded = f"{out['sequences_embedded']} sequences embedded, {out['sequences_from_cache']} from the cache"
        print(f"{label}: {seconds:.1f} s wall, {per_cell:.1f} s per re-run cell; {embedded}")
    print(f"re-run agreement: {'identical' if path.read_bytes() == first_bytes else 'DIFFERENT'} reproductions.jsonl")
    for note in first["notes"]:
        print(f"note: {note}")
    if opts.data_root.is_dir():
        markdown_leaderboard(opts.data_root, opts.work / "markdown")
        hyena = os.environ.get("LITAUDIT_HYENA_DIR")
        if hyena and importlib.util.find_spec("torch") and importlib.util.find_spec("transformers"):
            real_model_row(opts.data_root, opts.work / "markdown", Path(hyena))
        else:
            print("HyenaDNA-tiny row skipped: needs the models extra and LITAUDIT_HYENA_DIR (tests/hyena.py)")


def real_model_row(data_root: Path, work: Path, folder: Path) -> None:
    """HyenaDNA-tiny's row: its honest 10-shot MCC printed, then reproduced through its pinned registry entry."""
    registry = work / "config" / "models.yaml"
    registry.write_text(registry.read_text() + f"- configuration: HyenaDNA-tiny\n  embedder: hf:{folder}\n")
    registry.write_text(registry.read_text() + "  trust_remote_code: true\n")
    listed = json.loads(litaudit(work, "probe", "models", "--json").stdout)["models"]
    digest = next(m["found_sha256"] for m in listed if m["configuration"] == "HyenaDNA-tiny")
    registry.write_text(registry.read_text() + f"  weights_sha256: {digest}\n")
    args = ["--variant", "10shot", "--data-root", str(data_root), "--cache-dir", str(work / "cache")]
    run = ["probe", "run", "--protocol", "geneb-probe", "--dataset", PROTOCOL_DATASET, "--model", f"hf:{folder}"]
    out = json.loads(litaudit(work, *run, "--trust-remote-code", *args, "--json").stdout)
    mcc, timing = out["aggregate"]["mcc"], out["timing"]
    low, high = mcc["interval"]
    print(f"HyenaDNA-tiny (anticapt, 448,920 parameters) on GUE human TF 0, geneb-probe 10-shot, CPU: MCC "
          f"{mcc['value']:.3f} [{low:.3f}, {high:.3f}], {timing['sequences_embedded']} sequences embedded at "
          f"{timing['embed_sequences_per_second']:.1f} sequences/s")  # fmt: skip
    readme = work / "hyena.md"
    readme.write_text(leaderboard({"HyenaDNA-tiny": f"{mcc['value']:.3f}"}))
    litaudit(work, "fetch", "--file", str(readme), "--id", "local:hyena")
    litaudit(work, "run", "local:hyena")
    seconds, reproduced = timed_reproduce(work, args, "local:hyena")
    for entry in reproduced["entries"]:
        low, high = entry["interval"] or (0, 0)
        shown = entry["reason"] or f"{entry['reproduced']:.3f} [{low:.3f}, {high:.3f}]"
        print(f"  local:hyena {entry['printed_text']}: {entry['verdict']} ({shown}), {seconds:.1f} s wall")


def markdown_leaderboard(data_root: Path, work: Path) -> None:
    """The README leaderboard of GUE human TF 0: verdicts for honest, inflated and weightless rows."""
    (work / "config").mkdir(parents=True)
    (work / "config" / "models.yaml").write_text((ROOT / "config" / "models.yaml").read_text() + ABSENT_ENTRY)
    mcc = {}
    for model in ("kmer:4", "null"):
        args = ["probe", "run", "--protocol", "geneb-probe", "--dataset", PROTOCOL_DATASET, "--model", model]
        out = litaudit(work, *args, "--data-root", str(data_root), "--json")
        mcc[model] = json.loads(out.stdout)["aggregate"]["mcc"]["value"]
    honest = {"4-mer spectrum": f"{mcc['kmer:4']:.3f}", "null embedding": f"{mcc['null']:.3f}", ABSENT_MODEL: "0.650"}
    inflated = {**honest, "4-mer spectrum": f"{mcc['kmer:4'] + 0.1:.3f}"}
    print("Markdown leaderboard of GUE human TF 0 (MCC): fetch -> run -> probe reproduce")
    for sid, rows in (("local:tf0", honest), ("local:tf0-inflated", inflated)):
        readme = work / f"{sid.partition(':')[2]}.md"
        readme.write_text(leaderboard(rows))
        litaudit(work, "fetch", "--file", str(readme), "--id", sid)
        litaudit(work, "run", sid)
        seconds, out = timed_reproduce(work, ["--data-root", str(data_root)], sid)
        print(f"  {sid}: {seconds:.1f} s wall")
        for entry in out["entries"]:
            low, high = entry["interval"] or (0, 0)
            shown = entry["reason"] or f"{entry['reproduced']:.3f} [{low:.3f}, {high:.3f}]"
            print(f"    {entry['locator_readable']}: printed {entry['printed_text']}: {entry['verdict']} ({shown})")


if __name__ == "__main__":
    main()
