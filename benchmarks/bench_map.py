"""How well the map stage links real and generated tables to the catalogue (prints figures; not a test).

    python benchmarks/bench_map.py [--shared ../shared]

1. GENERator v2 Table 2 (18 revised Nucleotide Transformer tasks x 10 models, MCC) from its hand-checked gold
   grid, and from `litaudit tables` on the real PDF: share of the 180 value cells that come out with the
   right task, model, metric and printed value; every miss listed.
2. The demo paper (generated, GenBench names) through extract and map: share of value cells mapped right.
3. False links: cells of the other gold tables (general ML papers, not in the catalogue) linked to anything.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from pipeline.audit.build import table_from_gold
from pipeline.catalogue import Catalogue, load_catalogue
from pipeline.catalogue.load import BUNDLED_DIR
from pipeline.mapping.document import map_tables
from pipeline.mapping.model import MappingFile
from pipeline.model import Table, TablesFile

GENERATOR = "biorxiv_2026.01.27.702015_generator_v2_functional_icl_genomic_lm"
GENERATOR_CAPTION = (
    "Table 2: Evaluation of the revised Nucleotide Transformer tasks. The reported values represent the Matthews "
    "correlation coefficient (MCC) averaged over 10-fold cross-validation, with the standard error in parentheses."
)
# The truth for the model columns of GENERator Table 2 (configuration names in config/catalogue/nt_revised.yaml).
GENERATOR_MODELS = {
    "Enformer": "Enformer",
    "DNABERT-2": "DNABERT-2",
    "HyenaDNA": "HyenaDNA",
    "NT": "NT-2.5B",
    "NT-v2": "NT-v2-500M",
    "Caduceus-Ph": "Caduceus-Ph",
    "Caduceus-PS": "Caduceus-PS",
    "GROVER": "GROVER",
    "GENERator-v1": "GENERator-v1",
    "GENERator-v2": "GENERator-v2",
}
Key = tuple[str, str, str, str]  # printed value, dataset name, configuration name, metric id


def generator_truth(gold: dict) -> Counter[Key]:
    header = gold["cells"][0]
    truth: Counter[Key] = Counter()
    for row in gold["cells"][gold["header_rows"] :]:
        for col in range(gold["stub_cols"], gold["n_cols"]):
            dataset = f"Nucleotide Transformer revised {row[0]}"
            truth[(row[col], dataset, f"{GENERATOR_MODELS[header[col]]} (NT revised)", "mcc")] += 1
    return truth


def mapped_keys(mapping: MappingFile, label: str) -> Counter[Key]:
    return Counter(
        (c.text, str(c.dataset.name), str(c.configuration.name), str(c.metric.id))
        for t in mapping.tables
        if t.label == label
        for c in t.cells
    )


def score(name: str, truth: Counter[Key], found: Counter[Key], seconds: float) -> None:
    right = sum((truth & found).values())
    total = sum(truth.values())
    print(f"{name}: {right}/{total} value cells right ({100 * right / total:.1f}%), map {seconds * 1000:.0f} ms")
    for key, n in sorted((truth - found).items()):
        print(f"    missed x{n}: printed {key[0]!r} -> {key[1]} / {key[2]} / {key[3]}")
    for key, n in sorted((found - truth).items()):
        print(f"    wrong  x{n}: printed {key[0]!r} -> {key[1]} / {key[2]} / {key[3]}")


def timed_map(tables: TablesFile, catalogue: Catalogue) -> tuple[MappingFile, float]:
    start = time.perf_counter()
    mapping = map_tables(tables, catalogue)
    return mapping, time.perf_counter() - start


def bench_generator(shared: Path, catalogue: Catalogue) -> None:
    gold = json.loads((shared / f"corpus/gold/{GENERATOR}__Table2.json").read_text(encoding="utf-8"))
    truth = generator_truth(gold)
    source = {"id": f"file:{GENERATOR}", "sha256": "0" * 64}
    for caption, name in ((GENERATOR_CAPTION, "full caption"), (None, "gold caption_start only")):
        table = table_from_gold(gold, caption=caption)
        mapping, seconds = timed_map(TablesFile(source, {}, [table]), catalogue)
        score(f"GENERator Table 2, gold grid, {name}", truth, mapped_keys(mapping, "Table 2"), seconds)
    pdf = shared / f"corpus/papers/{GENERATOR}.pdf"
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        run = subprocess.run(
            [sys.executable, "-m", "pipeline", "tables", str(pdf), "--out", out], capture_output=True, text=True
        )
        extracted = time.perf_counter() - start
        path = Path(out) / f"{GENERATOR}.json"
        if run.returncode != 0 or not path.is_file():
            print(f"GENERator Table 2 through `litaudit tables`: failed ({run.stderr.strip()[:200]})")
            return
        tables = TablesFile.from_dict(json.loads(path.read_text(encoding="utf-8")))
    mapping, seconds = timed_map(tables, catalogue)
    print(f"(`litaudit tables` on the 24-page PDF: {extracted:.1f} s wall, {len(tables.tables)} tables)")
    score(
        "GENERator Table 2, `litaudit tables` output on the real PDF", truth, mapped_keys(mapping, "Table 2"), seconds
    )
    others = {t.label: (len(t.cells), len(t.skipped)) for t in mapping.tables if t.label != "Table 2"}
    print(f"    other tables of the paper (mapped, skipped as settings): {others or 'none'}")


def bench_demo(catalogue: Catalogue) -> None:
    try:
        from pipeline.extract.document.tables import extract_tables
        from pipeline.fixtures import write_demo_paper
    except ImportError:
        print("demo paper: skipped (pipeline.fixtures or pipeline.extract not installed)")
        return
    with tempfile.TemporaryDirectory() as tmp:
        tables = extract_tables(write_demo_paper(Path(tmp) / "demo.pdf"))
    mapping, seconds = timed_map(tables, catalogue)
    summary = mapping.summary
    print(
        f"demo paper through extract + map: {summary['cells_mapped']} cells mapped, {summary['cells_unmapped']} "
        f"unmapped, map {seconds * 1000:.0f} ms (tests/test_emit_demo.py checks each link against the truth)"
    )


def bench_false_links(shared: Path, catalogue: Catalogue) -> None:
    linked, skipped, cells = 0, 0, 0
    for path in sorted((shared / "corpus/gold").glob("*.json")):
        if path.name.startswith(f"{GENERATOR}__Table2"):
            continue
        table: Table = table_from_gold(json.loads(path.read_text(encoding="utf-8")))
        mapping, _ = timed_map(TablesFile({"id": path.stem, "sha256": "0" * 64}, {}, [table]), catalogue)
        result = mapping.tables[0]
        values = len(result.cells) + len(result.unmapped) + len(result.skipped)
        cells += values
        skipped += len(result.skipped)
        linked += len(mapping.tables[0].cells)
        if mapping.tables[0].cells:
            print(f"    {path.stem}: {len(mapping.tables[0].cells)} of {values} cells linked")
    print(
        f"false links on the 14 other gold tables (not in the catalogue): {linked} of {cells} value cells linked "
        f"({skipped} skipped as settings or statistics, the rest listed as unmapped)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=Path(__file__).resolve().parents[2] / "shared")
    args = parser.parse_args()
    catalogue = load_catalogue(BUNDLED_DIR)
    if not args.shared.is_dir():
        print(f"{args.shared}: not found; only the demo paper is measured")
    else:
        bench_generator(args.shared, catalogue)
        bench_false_links(args.shared, catalogue)
    bench_demo(catalogue)
    return 0


if __name__ == "__main__":
    sys.exit(main())
