"""``litaudit catalogue check``: validate the catalogue files before the mapper relies on them;
``litaudit catalogue suggest``: propose entries from the candidate records."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import yaml

from pipeline.catalogue.check import check_catalogue, check_probe_links
from pipeline.catalogue.load import BUNDLED_DIR, load_catalogue, read_catalogue_dir, resolve_catalogue_dir
from pipeline.catalogue.model import Catalogue
from pipeline.catalogue.suggest import propose
from pipeline.clikit import emit_result, handle_errors, json_option, settings_of
from pipeline.errors import EXIT_PROBLEMS, StageInputMissingError
from pipeline.mapping.links import Linker
from pipeline.selection import resolve_sources
from pipeline.store import Workspace, read_json


@click.group()
def catalogue() -> None:
    """The results catalogue (config/catalogue/*.yaml): benchmarks, datasets, metrics, configurations."""


@catalogue.command()
@click.option(
    "--dir",
    "folder",
    type=click.Path(file_okay=False, path_type=str),
    default=None,
    help="Catalogue folder to check (default: the workspace's config/catalogue, else the shipped one).",
)
@json_option
@click.pass_context
@handle_errors
def check(ctx: click.Context, folder: str | None, as_json: bool) -> None:
    """Unique ids and names, known units and directions, sound ranges, no dangling references.

    Exit 1 when problems are found, 2 when a file is unreadable or malformed.
    """
    config_dir = Workspace(settings_of(ctx).root).config_dir
    where = Path(folder) if folder else resolve_catalogue_dir(config_dir)
    loaded = read_catalogue_dir(where)
    problems = check_catalogue(loaded)
    notes = []
    if where.resolve() == BUNDLED_DIR.resolve() or (config_dir / "protocols").is_dir():  # protocols and catalogue
        try:  # of one origin
            from pipeline.probe.protocols import load_protocols
        except ImportError as exc:  # without the probe extra no protocol runs: their links wait for it
            notes.append(f"protocol links not checked: {exc.name} is not installed (pip install 'litaudit[probe]')")
        else:
            links = {name: list(p.catalogue) for name, p in load_protocols(config_dir).items()}
            problems += check_probe_links(loaded, links)
    counts = {
        "benchmarks": len(loaded.benchmarks),
        "protocols": len(loaded.protocols),
        "datasets": len(loaded.datasets),
        "metrics": len(loaded.metrics),
        "configurations": len(loaded.configurations),
        "quantities": len(loaded.quantities),
    }
    payload = {
        "ok": not problems,
        "dir": str(where),
        "files": [os.path.basename(f) for f in loaded.files],
        "counts": counts,
        "digest": loaded.digest,
        "problems": problems,
        "notes": notes,
    }
    summary = ", ".join(f"{n} {kind}" for kind, n in counts.items())
    verdict = f"{len(problems)} problem(s)" if problems else "ok"
    human = "\n".join([*problems, *notes, f"{where}: {len(loaded.files)} files, {summary}: {verdict}"])
    emit_result(as_json, payload, human)
    if problems:
        raise SystemExit(EXIT_PROBLEMS)


@catalogue.command()
@click.argument("source_ids", nargs=-1)
@click.option(
    "--entries",
    "entries_only",
    is_flag=True,
    help="Print only the complete new entries, as a catalogue file to review and save under config/catalogue/.",
)
@json_option
@click.pass_context
@handle_errors
def suggest(ctx: click.Context, source_ids: tuple[str, ...], entries_only: bool, as_json: bool) -> None:
    """Propose catalogue aliases and new entries from the candidate records of SOURCE_IDS (default: every fetched
    source), as YAML for a person to accept; nothing is written."""
    ws = Workspace(settings_of(ctx).root)
    candidates = []
    for source_id in resolve_sources(ws, source_ids).ids:
        path = ws.extracted_dir(source_id) / "candidates.json"
        if not path.is_file():
            raise StageInputMissingError(f"{path}: not found; run 'litaudit emit {source_id}' first")
        candidates += read_json(path)["candidates"]
    loaded = load_catalogue(ws.config_dir)
    linker = Linker(loaded)
    proposals = propose(candidates, lambda kind, label: _ranked(linker, kind, label), _benchmark_of(loaded))
    if entries_only:
        text = yaml.safe_dump(proposals.get("entries", {}), sort_keys=False, allow_unicode=True)
        header = "# new configurations from candidate records: read them, then save as config/catalogue/<name>.yaml\n"
        emit_result(as_json, proposals.get("entries", {}), header + text)
        return
    header = f"# {len(candidates)} candidate record(s); proposals only: copy what is right into config/catalogue\n"
    emit_result(as_json, proposals, header + yaml.safe_dump(proposals, sort_keys=False, allow_unicode=True))


def _benchmark_of(loaded: Catalogue) -> Callable[[str], tuple[str, str] | None]:
    def benchmark_of(dataset_name: str) -> tuple[str, str] | None:
        dataset = loaded.dataset_by_name(dataset_name)
        return (dataset.benchmark, loaded.benchmark(dataset.benchmark).name) if dataset else None

    return benchmark_of


def _ranked(linker: Linker, kind: str, label: str) -> list[dict[str, Any]] | None:
    """The catalogue's three nearest datasets or configurations for a printed label (None for metrics)."""
    names = tuple(part.strip() for part in label.split(" / ") if part.strip())
    if kind == "dataset":
        found = linker.rank_datasets(names)
    elif kind == "configuration":
        found = linker.rank_configurations(names)
    else:
        return None
    return [
        {"id": s.candidate.id, "name": s.candidate.name, "score": round(s.score, 1), "for": label} for s in found[:3]
    ]
