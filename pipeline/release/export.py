"""``litaudit export``: a release's catalogue as tables to open in pandas or query across papers.

Tables: ``results`` (one row per record, with its locator), ``sources``, ``protocol_coverage``
(protocol and dataset -> results, sources, configurations) and ``evaluation_matrix`` (model x protocol
-> results, datasets, sources, configurations, metrics). The two summary tables count every record
except rejected ones, so each of their numbers is a count over ``results`` rows one can repeat.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import IO, Any

import pandas as pd

from pipeline.errors import BadInputError
from pipeline.extras import import_extra
from pipeline.release.contents import ReleaseContents
from pipeline.reviews import RECORD, STATUS_AFTER
from pipeline.store import atomic_writer

REJECTED = STATUS_AFTER[RECORD]["reject"]

STRING, FLOAT, INT, BOOL = "string", "float64", "Int64", "boolean"
RESULT_COLUMNS: dict[str, str] = {
    "release_id": STRING,
    "source_id": STRING,
    "record_id": STRING,
    "table_label": STRING,
    "page": INT,
    "locator": STRING,
    "locator_readable": STRING,
    "configuration": STRING,
    "model": STRING,
    "dataset": STRING,
    "protocol": STRING,
    "benchmark": STRING,
    "metric": STRING,
    "value": FLOAT,
    "printed": STRING,
    "plus_minus": FLOAT,
    "percent": BOOL,
    "unit": STRING,
    "direction": STRING,
    "catalogue_value": FLOAT,
    "corrected_value": FLOAT,
    "review_status": STRING,
    "reviewer": STRING,
    "review_date": STRING,
    "findings": INT,
    "limitations": STRING,
    "aggregation": STRING,
    "uncertainty": STRING,
    "evidence_origin": STRING,
}
SOURCE_COLUMNS: dict[str, str] = {
    "source_id": STRING,
    "sha256": STRING,
    "title": STRING,
    "authors": STRING,
    "url": STRING,
    "version": STRING,
    "published": STRING,
    "licence": STRING,
    "page_count": INT,
    "records": INT,
    "records_from": STRING,
    "audited": BOOL,
    "findings": INT,
    "reviews": INT,
    "pdf_included": BOOL,
}


def _frame(rows: list[dict[str, Any]], columns: dict[str, str]) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=list(columns))
    return frame.astype(columns)


def _result_row(release_id: str, record: dict[str, Any]) -> dict[str, Any]:
    review = record.get("review") or {}
    row = {name: record.get(name) for name in RESULT_COLUMNS}
    row.update(
        release_id=release_id,
        record_id=record.get("id"),
        reviewer=review.get("reviewer"),
        review_date=review.get("date"),
        findings=len(record.get("findings") or []),
        limitations="; ".join(record.get("limitations") or []),
    )
    return row


def _source_row(source: dict[str, Any]) -> dict[str, Any]:
    summary = source.get("release", {})
    row = {name: source.get(name) for name in SOURCE_COLUMNS}
    row.update(
        source_id=source.get("id"),
        authors="; ".join(source.get("authors") or []),
        records=summary.get("records"),
        records_from=summary.get("records_from"),
        audited=summary.get("audited"),
        findings=summary.get("findings"),
        reviews=summary.get("reviews"),
        pdf_included=summary.get("pdf"),
    )
    return row


def catalogue_tables(contents: ReleaseContents) -> dict[str, pd.DataFrame]:
    results = _frame([_result_row(contents.release_id, r) for r in contents.records], RESULT_COLUMNS)
    kept = results[results["review_status"].fillna("") != REJECTED]
    coverage = (
        kept.groupby(["benchmark", "protocol", "dataset"], dropna=False)
        .agg(
            results=("record_id", "size"), sources=("source_id", "nunique"), configurations=("configuration", "nunique")
        )
        .reset_index()
    )
    matrix = (
        kept.groupby(["model", "protocol"], dropna=False)
        .agg(
            results=("record_id", "size"),
            datasets=("dataset", "nunique"),
            sources=("source_id", "nunique"),
            configurations=("configuration", "nunique"),
            metrics=("metric", lambda s: "; ".join(sorted(s.dropna().unique()))),
        )
        .reset_index()
    )
    return {
        "results": results,
        "sources": _frame([_source_row(s) for s in contents.sources], SOURCE_COLUMNS),
        "protocol_coverage": coverage,
        "evaluation_matrix": matrix,
    }


def _require(module: str, fmt: str) -> ModuleType:
    return import_extra(module, "export", f"export --format {fmt}")


def _write_each(
    tables: dict[str, pd.DataFrame],
    folder: Path,
    suffix: str,
    mode: str,
    write: Callable[[pd.DataFrame, IO[Any]], None],
) -> list[Path]:
    """One file per table, each written whole or not at all."""
    written = []
    for name, frame in tables.items():
        path = folder / f"{name}.{suffix}"
        with atomic_writer(path, mode) as fh:
            write(frame, fh)
        written.append(path)
    return written


def write_csv(tables: dict[str, pd.DataFrame], folder: Path) -> list[Path]:
    return _write_each(tables, folder, "csv", "w", lambda frame, fh: frame.to_csv(fh, index=False))


def write_parquet(tables: dict[str, pd.DataFrame], folder: Path) -> list[Path]:
    _require("pyarrow", "parquet")
    return _write_each(
        tables, folder, "parquet", "wb", lambda frame, fh: frame.to_parquet(fh, index=False, engine="pyarrow")
    )


def write_duckdb(tables: dict[str, pd.DataFrame], path: Path) -> list[Path]:
    """One DuckDB file holding every table (built beside the target, then renamed into place)."""
    duckdb = _require("duckdb", "duckdb")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{path.name}.", dir=path.parent))
    try:
        con = duckdb.connect(str(tmp / path.name))
        try:
            for name, frame in tables.items():
                con.register("frame", frame)
                con.execute(f'CREATE TABLE "{name}" AS SELECT * FROM frame')
                con.unregister("frame")
        finally:
            con.close()
        os.replace(tmp / path.name, path)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return [path]


WRITERS: dict[str, Callable[[dict[str, pd.DataFrame], Path], list[Path]]] = {
    "csv": write_csv,
    "parquet": write_parquet,
    "duckdb": write_duckdb,
}
FORMATS = tuple(WRITERS)


def export_tables(tables: dict[str, pd.DataFrame], fmt: str, out: Path) -> list[Path]:
    """Write the tables: a folder of .csv or .parquet files, or one .duckdb file."""
    if fmt not in WRITERS:
        raise BadInputError(f"export format {fmt!r}: expected one of {', '.join(FORMATS)}")
    if fmt == "duckdb" and out.is_dir():
        raise BadInputError(f"{out}: is a folder; --format duckdb writes one file")
    if fmt != "duckdb" and out.exists() and not out.is_dir():
        raise BadInputError(f"{out}: not a folder; --format {fmt} writes one file per table into a folder")
    try:
        return WRITERS[fmt](tables, out)
    except OSError as exc:
        raise BadInputError(f"{out}: cannot write ({exc.strerror or exc})") from None


def default_output(release_path: Path, release_id: str, fmt: str) -> Path:
    """Beside the release, never inside it (an extra file there would fail verify)."""
    return release_path.parent / (f"{release_id}.duckdb" if fmt == "duckdb" else f"{release_id}-{fmt}")
