"""Synthetic papers for release tests and the release benchmark: a real PDF (reportlab) with one results
table, its source record, the records drawn from the table (locators, sha256) and a finding.

Deterministic for a given seed: reportlab runs in invariant mode and values come from a seeded RNG.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from pipeline.model import Finding, Locator, Record, Source
from pipeline.store import Workspace, sha256_file, write_json, write_jsonl, write_text

MODELS = ("Caduceus", "HyenaDNA", "DNABERT-2", "Nucleotide Transformer", "GENERator")
DATASETS = (
    ("Human Enhancers Cohn", "genomic-benchmarks", "gb-classification"),
    ("Human Nontata Promoters", "genomic-benchmarks", "gb-classification"),
    ("Demo Coding vs Intergenomic", "genomic-benchmarks", "gb-classification"),
    ("Promoter Detection (all)", "gue", "gue-finetune"),
    ("Splice Site Prediction", "gue", "gue-finetune"),
    ("Core Promoter Detection notata", "genbench", "genbench-probe"),
)
CATALOGUE_YAML = "datasets:\n" + "".join(f"  - name: {name}\n    benchmark: {b}\n" for name, b, _ in DATASETS)


def dataset(row: int) -> tuple[str, str, str]:
    """The row's (dataset, benchmark, protocol): the named ones first, then numbered GenBench-like ones."""
    if row < len(DATASETS):
        return DATASETS[row]
    return (f"Synthetic Dataset {row + 1}", "genbench", "genbench-probe")


@dataclass(frozen=True)
class SamplePaper:
    """What to generate for one synthetic paper."""

    source_id: str
    seed: int = 0
    n_datasets: int = 4  # rows of the table; beyond len(DATASETS) they are numbered synthetic datasets
    n_models: int = 3
    noise_kb: int = 0  # an incompressible image of this size, to make the PDF as heavy as a real paper
    audited: bool = True


def _values(paper: SamplePaper) -> list[list[str]]:
    rng = random.Random(paper.seed)
    return [[f"{rng.uniform(0.5, 0.95):.3f}" for _ in range(paper.n_models)] for _ in range(paper.n_datasets)]


def _row_y(paper: SamplePaper, row: int) -> float:
    """Baseline of a table row, in PDF points from the bottom of the page."""
    return 712 - min(16.0, 640.0 / max(1, paper.n_datasets)) * row


def write_pdf(path: Path, paper: SamplePaper, values: list[list[str]]) -> None:
    """A paper: title, a captioned results table, and optionally a page with a noise image."""
    path.parent.mkdir(parents=True, exist_ok=True)
    canvas = Canvas(str(path), pagesize=A4, invariant=1)
    canvas.setFont("Helvetica-Bold", 14)
    canvas.drawString(72, 780, f"Synthetic results paper {paper.source_id}")
    canvas.setFont("Helvetica", 9)
    canvas.drawString(72, 750, "Table 1: MCC of each model on each dataset.")
    models = MODELS[: paper.n_models]
    for col, model in enumerate(models):
        canvas.drawString(230 + 80 * col, 730, model)
    for row in range(paper.n_datasets):
        y = _row_y(paper, row)
        canvas.drawString(72, y, dataset(row)[0])
        for col, text in enumerate(values[row]):
            canvas.drawString(230 + 80 * col, y, text)
    canvas.showPage()
    if paper.noise_kb:
        from PIL import Image

        side = max(1, int((paper.noise_kb * 1024) ** 0.5))
        noise = random.Random(paper.seed).randbytes(side * side)
        canvas.drawImage(ImageReader(Image.frombytes("L", (side, side), noise)), 72, 300, width=400, height=400)
        canvas.showPage()
    canvas.save()


def make_records(paper: SamplePaper, sha256: str, values: list[list[str]]) -> list[Record]:
    records = []
    for row in range(paper.n_datasets):
        name, benchmark, protocol = dataset(row)
        for col, model in enumerate(MODELS[: paper.n_models]):
            loc = Locator(sha256, 1, "Table 1", 0, row + 1, col + 1, row_label=name, col_label=model)
            text = values[row][col]
            top = A4[1] - _row_y(paper, row) - 9  # top-left origin, as pdfplumber
            records.append(
                Record(
                    id=loc.id,
                    source_id=paper.source_id,
                    source_sha256=sha256,
                    table_label="Table 1",
                    page=1,
                    bbox=(230.0 + 80 * col, top, 260.0 + 80 * col, top + 11),
                    locator=loc.id,
                    locator_readable=loc.readable,
                    printed=text,
                    value=float(text),
                    plus_minus=None,
                    percent=False,
                    metric="mcc",
                    unit="fraction",
                    direction="higher",
                    configuration=f"{model} ({benchmark})",
                    model=model,
                    protocol=protocol,
                    dataset=name,
                    benchmark=benchmark,
                    catalogue_value=float(text),
                )
            )
    return records


def add_paper(ws: Workspace, paper: SamplePaper) -> list[Record]:
    """Write the paper's PDF, source record and records (audited: with a finding attached) into ``ws``."""
    values = _values(paper)
    pdf = ws.pdf_path(paper.source_id)
    write_pdf(pdf, paper, values)
    sha = sha256_file(pdf)
    source = Source(
        id=paper.source_id,
        sha256=sha,
        size=pdf.stat().st_size,
        pdf_path=str(pdf.relative_to(ws.root)),
        retrieved_at="2025-01-01T00:00:00Z",
        page_count=2 if paper.noise_kb else 1,
        title=f"Synthetic results paper {paper.source_id}",
        authors=["A. Author", "B. Author"],
        url=f"https://example.org/{paper.source_id}",
    )
    write_json(ws.source_record_path(paper.source_id), source.to_dict())
    records = make_records(paper, sha, values)
    write_jsonl(ws.extracted_dir(paper.source_id) / "records.jsonl", [r.to_dict() for r in records])
    if paper.audited:
        first = records[0]
        finding = Finding(
            id=f"{paper.source_id}:bold-not-best:1",
            check="bold-not-best",
            severity="warning",
            message="A bold value is not the best in its column.",
            source_id=paper.source_id,
            table_label="Table 1",
            locators=[first.locator],
            locators_readable=[first.locator_readable],
            record_ids=[first.id],
        )
        first.findings = [finding.id]
        first.limitations = [finding.message]
        write_json(ws.audits_dir(paper.source_id) / "findings.json", [finding.to_dict()])
        write_jsonl(ws.audits_dir(paper.source_id) / "records.jsonl", [r.to_dict() for r in records])
    return records


def write_catalogue(ws: Workspace) -> Path:
    path = ws.config_dir / "catalogue" / "datasets.yaml"
    write_text(path, CATALOGUE_YAML)
    return path
