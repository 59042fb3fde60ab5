"""``litaudit fetch``: the listed or named sources, or one local PDF, one line per source."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import click

from pipeline.clikit import (
    emit_result,
    handle_errors,
    json_option,
    locked,
    log_error,
    settings_of,
    wait_option,
)
from pipeline.errors import BadInputError, LitauditError
from pipeline.fetch.http import PoliteClient
from pipeline.fetch.retrieve import MISMATCH, FetchOutcome, SourceMismatchError, fetch_entry, ingest_file
from pipeline.fetch.sources import SourceEntry, load_source_entries
from pipeline.progress import progress
from pipeline.store import Workspace

FAILED = "failed"


@dataclass
class FetchResult:
    """One source's line in the command's report."""

    id: str
    status: str
    sha256: str | None
    path: str | None
    message: str
    exit_code: int = 0

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        del data["exit_code"]
        return data


def attempt(source_id: str, action: Callable[[], FetchOutcome]) -> FetchResult:
    """Run one source's fetch; its failure becomes its result, so the other sources still run."""
    try:
        outcome = action()
    except SourceMismatchError as exc:
        bad = exc.outcome
        return FetchResult(source_id, MISMATCH, bad.sha256, str(bad.path), bad.message, exc.exit_code)
    except LitauditError as exc:
        return FetchResult(source_id, FAILED, None, None, str(exc), exc.exit_code)
    return FetchResult(source_id, outcome.status, outcome.sha256, str(outcome.path), outcome.message)


def wanted_entries(ws: Workspace, source_ids: tuple[str, ...]) -> list[SourceEntry]:
    """The named ids (with their sources.yaml entry when listed), or every listed entry."""
    listed = {entry.id: entry for entry in load_source_entries(ws)}
    if not source_ids:
        return list(listed.values())
    return [listed.get(sid, SourceEntry(sid)) for sid in dict.fromkeys(source_ids)]


def report(results: list[FetchResult], as_json: bool) -> int:
    """Print the results; the exit code is the worst one (2 bad input, then 1 problems, then 0)."""
    code = max((r.exit_code for r in results), default=0)
    for result in results:
        if result.exit_code:
            log_error(f"fetch {result.id}: {result.message}")
    human = "\n".join(f"{r.id:<28} {r.status:<15} {r.message}" for r in results)
    payload = {"ok": code == 0, "exit_code": code, "sources": [r.to_dict() for r in results]}
    emit_result(as_json, payload, human or "nothing to fetch: name source ids or list them in config/sources.yaml")
    return code


@click.command()
@click.argument("source_ids", nargs=-1)
@click.option("--refresh", is_flag=True, help="Download again and check the SHA-256 against the stored copy.")
@click.option(
    "--file",
    "pdf_file",
    type=click.Path(path_type=Path),
    help="Ingest this local file (with --id): .pdf, .tar.gz/.tgz/.tex (LaTeX), .html/.htm or .md.",
)
@click.option(
    "--source-file",
    "source_file",
    type=click.Path(path_type=Path),
    help="A second file of another kind for the same source (the LaTeX or HTML beside the PDF).",
)
@click.option("--id", "local_id", help="The local:NAME id of the file given with --file.")
@wait_option
@json_option
@click.pass_context
@handle_errors
@locked
def fetch(
    ctx: click.Context,
    source_ids: tuple[str, ...],
    refresh: bool,
    pdf_file: Path | None,
    source_file: Path | None,
    local_id: str | None,
    as_json: bool,
) -> None:
    """Download the sources in config/sources.yaml, or the SOURCE_IDS named, and record their provenance.

    Ids: arxiv:<id>[vN] (arxiv:2406.01627, arxiv:2406.01627v2, arxiv:q-bio/0601001) or local:<name>.
    A source already fetched is not downloaded again; --refresh downloads it again and checks that its
    SHA-256 is unchanged (exit 1 when it is not; the stored copy is kept). Requests to a host are spaced
    by LITAUDIT_MIN_REQUEST_INTERVAL seconds (default 3), as arXiv asks.
    """
    settings = settings_of(ctx)
    ws = Workspace(settings.root)
    if pdf_file is not None or local_id is not None or source_file is not None:
        if pdf_file is None or local_id is None or source_ids:
            raise BadInputError("--file PATH and --id local:NAME go together, without other source ids")
        result = attempt(local_id, lambda: ingest_file(ws, settings, pdf_file, local_id, refresh, source_file))
        raise SystemExit(report([result], as_json))
    entries = wanted_entries(ws, source_ids)
    client = PoliteClient(settings)
    try:
        results = [
            attempt(entry.id, functools.partial(fetch_entry, ws, settings, entry, refresh, client=client))
            for entry in progress(entries, len(entries), "fetch", not as_json)
        ]
    finally:
        client.close()
    raise SystemExit(report(results, as_json))
