"""``litaudit export``, apart from the other release commands because it needs the ``export`` extra (pandas)."""

from __future__ import annotations

from pathlib import Path

import click

from pipeline.clikit import emit_result, handle_errors, json_option
from pipeline.release.commands import release_path
from pipeline.release.contents import opened_release, read_release
from pipeline.release.export import FORMATS, catalogue_tables, default_output, export_tables


@click.command()
@click.argument("release", type=release_path)
@click.option("--format", "fmt", type=click.Choice(FORMATS), required=True, help="Output format.")
@click.option(
    "--output",
    "-o",
    type=click.Path(path_type=Path),
    default=None,
    help="Folder (csv, parquet) or file (duckdb); default beside the release.",
)
@json_option
@handle_errors
def export(release: Path, fmt: str, output: Path | None, as_json: bool) -> None:
    """The catalogue tables of a release: results, sources, protocol_coverage, evaluation_matrix."""
    with opened_release(release) as bag_dir:
        contents = read_release(bag_dir)
    tables = catalogue_tables(contents)
    out = output or default_output(release, contents.release_id, fmt)
    written = export_tables(tables, fmt, out)
    rows = {name: len(frame) for name, frame in tables.items()}
    human = "\n".join([f"{contents.release_id}: {fmt} -> {out}", *(f"  {n}: {k} rows" for n, k in rows.items())])
    emit_result(
        as_json, {"ok": True, "id": contents.release_id, "files": [str(p) for p in written], "rows": rows}, human
    )
