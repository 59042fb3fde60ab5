"""``litaudit tables PDF... --out DIR``: the extractor on bare PDF files, one JSON file per PDF (a continued
table as one table per page, as the gold tables record them)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from pipeline.clikit import emit_result, handle_errors, json_option, log
from pipeline.errors import EXIT_BAD_INPUT, EXIT_OK, LitauditError
from pipeline.executor import make_executor
from pipeline.extract.document.continued import page_parts
from pipeline.extract.document.tables import extract_tables
from pipeline.extract.settings import ExtractionSettings
from pipeline.progress import progress
from pipeline.store import write_json


@dataclass(frozen=True)
class FileJob:
    pdf: Path
    out: Path
    settings: ExtractionSettings


def extract_file(job: FileJob) -> dict[str, Any]:
    """Extract one PDF and write its JSON; failures come back in the result, never as an exception."""
    target = job.out / f"{job.pdf.stem}.json"
    try:
        if not job.pdf.is_file():
            raise LitauditError(f"{job.pdf}: file not found")
        result = extract_tables(job.pdf, job.settings)
        per_page = [part for table in result.tables for part in page_parts(table)]  # the gold files' convention
        write_json(target, dataclasses.replace(result, tables=per_page).to_dict())
    except LitauditError as exc:
        return {"pdf": str(job.pdf), "ok": False, "error": str(exc)}
    except Exception as exc:  # a PDF that breaks the parser must not stop the other files
        return {"pdf": str(job.pdf), "ok": False, "error": f"{job.pdf}: cannot extract ({type(exc).__name__}: {exc})"}
    return {
        "pdf": str(job.pdf),
        "ok": True,
        "out": str(target),
        "tables": len(result.tables),
        "labels": [t.label for t in result.tables],
        "pages": result.pages,
    }


@click.command()
@click.argument("pdfs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--out", "out_dir", required=True, type=click.Path(file_okay=False, path_type=Path), help="Folder for <stem>.json."
)
@click.option("--jobs", "-j", type=click.IntRange(1), default=1, show_default=True, help="PDFs processed in parallel.")
@json_option
@handle_errors
def tables(pdfs: tuple[Path, ...], out_dir: Path, jobs: int, as_json: bool) -> None:
    """Extract the tables of bare PDF files into OUT/<pdf file stem>.json (exit 2 if any file failed)."""
    settings = ExtractionSettings()
    stems = [p.stem for p in pdfs]
    if len(set(stems)) != len(stems):
        raise LitauditError("two PDFs share a file name: their outputs would overwrite each other")
    batch = [FileJob(p, out_dir, settings) for p in pdfs]
    executor = make_executor(jobs, len(batch))
    results = sorted(
        progress(executor.map_unordered(extract_file, batch), len(batch), "tables", not as_json), key=lambda r: r["pdf"]
    )
    failed = [r for r in results if not r["ok"]]
    for r in failed:
        log(f"litaudit: error: {r['error']}")
    code = EXIT_BAD_INPUT if failed else EXIT_OK
    human = "\n".join(
        f"{r['pdf']}: {r['tables']} table(s) -> {r['out']}" if r["ok"] else f"{r['pdf']}: FAILED" for r in results
    )
    emit_result(as_json, {"ok": not failed, "exit_code": code, "files": results}, human)
    raise SystemExit(code)
