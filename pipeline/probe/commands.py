"""``litaudit probe run``, ``probe reproduce``, ``probe models`` and ``probe data``."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from pipeline.clikit import emit_result, handle_errors, json_option, locked, log, settings_of, wait_option
from pipeline.errors import EXIT_OK, EXIT_PROBLEMS, BadInputError
from pipeline.model import Record
from pipeline.probe.batch import Batch, BatchOptions, reproduce_records
from pipeline.probe.cache import EmbeddingCache, default_cache_dir
from pipeline.probe.cells import select_records
from pipeline.probe.embedders import Embedder, ModelOptions, model_help, parse_model
from pipeline.probe.evaluate import MetricValue, RunOptions, RunResult, run_protocol
from pipeline.probe.models import check_weights, load_models
from pipeline.probe.protocols import DatasetEntry, get_protocol, load_protocols
from pipeline.release.records import read_source_records
from pipeline.reproductions import DIFFERS, reproductions_path, store_reproductions, verdict_counts
from pipeline.settings import Settings
from pipeline.store import Workspace, sha256_file, write_json

DEFAULT_DATA_ROOT = "../shared/dna"  # relative to the workspace root


def shared_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The options every probe command shares: the model, where data and cache live, the variant."""
    options = [
        click.option("--model", "model_spec", required=True, help=model_help()),
        click.option("--variant", default=None, help="The protocol's variant (default: the protocol's default)."),
        click.option(
            "--data-root",
            type=click.Path(file_okay=False, path_type=Path),
            envvar="LITAUDIT_DATA_ROOT",
            default=None,
            help=f"Folder the protocols' data paths are relative to [default: {DEFAULT_DATA_ROOT} from --root].",
        ),
        click.option(
            "--cache-dir",
            type=click.Path(file_okay=False, path_type=Path),
            envvar="LITAUDIT_PROBE_CACHE",
            default=None,
            help="Embedding cache folder [default: ~/.cache/litaudit/embeddings].",
        ),
        click.option(
            "--cache",
            "cache_mode",
            type=click.Choice(["auto", "on", "off"]),
            default="auto",
            show_default=True,
            help="auto: cache only models slower than reading the cache (hf:).",
        ),
        click.option("--trust-remote-code", is_flag=True, help="hf: run the model folder's own Python code."),
        click.option("--batch-size", type=click.IntRange(1), default=32, show_default=True, help="hf: batch size."),
        click.option("--device", default=None, help="hf: torch device [default: cuda when present, else cpu]."),
        click.option(
            "--max-length",
            type=click.IntRange(1),
            default=None,
            help="hf: truncate to this many tokens [default: the tokenizer's limit].",
        ),
        json_option,
    ]
    return functools.reduce(lambda f, option: option(f), reversed(options), fn)


def prepare(
    settings: Settings,
    as_json: bool,
    model_spec: str,
    data_root: Path | None,
    cache_dir: Path | None,
    cache_mode: str,
    trust_remote_code: bool,
    batch_size: int,
    device: str | None,
    max_length: int | None,
) -> tuple[Embedder, RunOptions]:
    """The model and the run options that the shared options describe."""
    model_options = ModelOptions(
        trust_remote_code=trust_remote_code, batch_size=batch_size, device=device, max_length=max_length
    )
    embedder = parse_model(model_spec, model_options)
    use_cache = cache_mode == "on" or (cache_mode == "auto" and not embedder.cheap)
    cache = EmbeddingCache(cache_dir or default_cache_dir()) if use_cache else None
    return embedder, RunOptions(data_root=data_root_of(settings, data_root), cache=cache, show_progress=not as_json)


def data_root_of(settings: Settings, data_root: Path | None) -> Path:
    return data_root if data_root is not None else settings.root / DEFAULT_DATA_ROOT


def _ad_hoc_entries(paths: tuple[Path, ...]) -> list[DatasetEntry]:
    entries: list[DatasetEntry] = []
    for path in paths:
        name = path.name
        for suffix in (".gz", ".csv", ".tsv", ".txt", ".test"):
            name = name.removesuffix(suffix)
        taken = {e.name for e in entries}
        unique = name if name not in taken else f"{name}-{len(entries) + 1}"
        entries.append(DatasetEntry(unique, str(path.resolve())))
    return entries


def format_value(metric: MetricValue) -> str:
    return f"{metric.value:.3f} [{metric.interval[0]:.3f}, {metric.interval[1]:.3f}]"


def describe_run(result: RunResult) -> str:
    """The human summary: one row per dataset, the mean, and what the run cost."""
    metrics = result.protocol.metrics
    model = result.model
    lines = [
        f"protocol {result.protocol.name} ({result.variant.name}), model {model['spec']} "
        f"(revision {model['revision'][:12]})",
        f"{'dataset':<58} {'n_test':>6}  " + "  ".join(f"{m:<22}" for m in metrics),
    ]
    for d in result.datasets:
        cells = "  ".join(f"{format_value(d.metrics[m]):<22}" for m in metrics)
        lines.append(f"{d.name:<58} {len(d.test_subset.indices):>6}  {cells}")
    cells = "  ".join(f"{format_value(result.aggregate[m]):<22}" for m in metrics)
    lines.append(f"{f'mean of {len(result.datasets)} datasets':<58} {'':>6}  {cells}")
    t = result.timing
    lines.append(
        f"embedding: {t['sequences_embedded']} sequences in {t['embed_seconds']} s "
        f"({t['embed_sequences_per_second']}/s; {t['sequences_from_cache']} from cache); "
        f"protocol: {t['sequences_used']} sequences in {t['total_seconds']} s ({t['protocol_sequences_per_second']}/s)"
    )
    return "\n".join(line.rstrip() for line in lines)


@click.group()
def probe() -> None:
    """Re-compute printed cells: frozen-model embeddings plus a logistic-regression probe.

    Protocols live in config/protocols/*.yaml; data paths are relative to --data-root.
    """


@probe.command("run")
@click.option("--protocol", "protocol_name", required=True, help="A protocol under config/protocols/.")
@click.option(
    "--data",
    "data_paths",
    multiple=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Probe these files (text,label,split CSV or seq<TAB>label TSV, gzip or not) instead of the protocol's.",
)
@click.option("--dataset", "dataset_names", multiple=True, help="Only these datasets of the protocol.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="Also write the full result here (JSON).")
@shared_options
@click.pass_context
@handle_errors
def run_command(
    ctx: click.Context,
    protocol_name: str,
    data_paths: tuple[Path, ...],
    dataset_names: tuple[str, ...],
    out: Path | None,
    variant: str | None,
    as_json: bool,
    **model_args: Any,
) -> None:
    """Run a protocol with a model and print each dataset's scores with 95% intervals."""
    settings = settings_of(ctx)
    protocol = get_protocol(Workspace(settings.root).config_dir, protocol_name)
    chosen_variant = protocol.variant(variant)
    unknown = [n for n in dataset_names if n not in protocol.datasets]
    if unknown:
        raise BadInputError(f"protocol {protocol.name}: no dataset {', '.join(unknown)} (see its YAML file)")
    if data_paths and dataset_names:
        raise BadInputError("give --data or --dataset, not both")
    entries = _ad_hoc_entries(data_paths) or [protocol.datasets[n] for n in dataset_names or protocol.datasets]
    embedder, options = prepare(settings, as_json, **model_args)
    result = run_protocol(protocol, chosen_variant, embedder, entries, options)
    payload = result.to_dict()
    if out is not None:
        try:
            write_json(out, payload)
        except OSError as exc:
            raise BadInputError(f"{out}: cannot write the result ({exc.strerror or exc})") from None
        log(f"result: {out}")
    emit_result(as_json, {"ok": True, **payload}, describe_run(result))


_DATA_ROOT = click.option(
    "--data-root",
    type=click.Path(file_okay=False, path_type=Path),
    envvar="LITAUDIT_DATA_ROOT",
    default=None,
    help=f"Folder the protocols' data paths are relative to [default: {DEFAULT_DATA_ROOT} from --root].",
)


@probe.command("reproduce")
@click.argument("source")
@click.option(
    "--select",
    "selects",
    multiple=True,
    help="field=glob terms joined by ',' (fields: dataset, configuration, metric, table, id); repeat for 'or'.",
)
@click.option("--device", type=click.Choice(["cpu", "cuda"]), default="cpu", show_default=True)
@click.option("--variant", default=None, help="The protocols' variant when they have it (default: each one's default).")
@click.option("--protocol", "protocol_name", default=None, help="Only this protocol (when several map a dataset).")
@_DATA_ROOT
@click.option(
    "--cache-dir",
    type=click.Path(file_okay=False, path_type=Path),
    envvar="LITAUDIT_PROBE_CACHE",
    default=None,
    help="Embedding cache for hf: models [default: ~/.cache/litaudit/embeddings].",
)
@click.option("--batch-size", type=click.IntRange(1), default=32, show_default=True, help="hf: batch size.")
@wait_option
@json_option
@click.pass_context
@handle_errors
@locked
def reproduce_command(
    ctx: click.Context,
    source: str,
    selects: tuple[str, ...],
    device: str,
    variant: str | None,
    protocol_name: str | None,
    data_root: Path | None,
    cache_dir: Path | None,
    batch_size: int,
    as_json: bool,
) -> None:
    """Re-run a source's selected cells with the model config/models.yaml names for their configuration.

    Writes one entry per selected record to audits/<source>/reproductions.jsonl: reproduced, differs
    (with the gap in interval widths) or not-reproducible (with the reason). Exit 1 when any differs.
    """
    settings = settings_of(ctx)
    ws = Workspace(settings.root)
    rows = read_source_records(ws, source).rows
    records = select_records([Record.from_dict(r) for r in rows], selects)
    if not records:
        raise BadInputError(f"source {source!r}: no record matches {' or '.join(selects) or 'anything'}")
    protocols = load_protocols(ws.config_dir)
    if protocol_name is not None:
        protocols = {protocol_name: get_protocol(ws.config_dir, protocol_name)}
    run = RunOptions(data_root_of(settings, data_root), EmbeddingCache(cache_dir or default_cache_dir()), False)
    options = BatchOptions(settings.root, run, device, variant, batch_size)
    batch = reproduce_records(records, protocols, load_models(ws.config_dir), options)
    path = reproductions_path(ws, records[0].source_id)
    store_reproductions(path, batch.entries)
    counts = verdict_counts(batch.entries)
    code = EXIT_PROBLEMS if counts[DIFFERS] else EXIT_OK
    result = {
        "ok": code == EXIT_OK,
        "path": str(path),
        "counts": counts,
        "runs": batch.runs,
        "seconds": round(batch.seconds, 3),
        "sequences_embedded": batch.sequences_embedded,
        "sequences_from_cache": batch.sequences_from_cache,
        "notes": batch.notes,
        "entries": batch.entries,
    }
    emit_result(as_json, result, describe_batch(batch, path))
    raise SystemExit(code)


def describe_batch(batch: Batch, path: Path) -> str:
    lines = []
    for e in batch.entries:
        where = f"{e['record_id']} ({e['dataset']}, {e['configuration']})"
        if e["reproduced"] is None:
            lines.append(f"{where}: not-reproducible: {e['reason']}")
            continue
        low, high = e["interval"]
        gap = f", {e['distance_widths']} interval widths away" if e["verdict"] == DIFFERS else ""
        lines.append(
            f"{where}: printed {e['printed']:.4g}, reproduced {e['reproduced']:.3f} [{low:.3f}, {high:.3f}] "
            f"({e['metric']}, {e['protocol']['name']}/{e['protocol']['variant']}): {e['verdict']}{gap}"
        )
    counts = verdict_counts(batch.entries)
    lines += [f"note: {n}" for n in batch.notes]
    lines.append(
        ", ".join(f"{n} {v}" for v, n in counts.items())
        + f"; {batch.runs} protocol runs in {batch.seconds:.1f} s; stored in {path}"
    )
    return "\n".join(lines)


@probe.command("models")
@json_option
@click.pass_context
@handle_errors
def models_command(ctx: click.Context, as_json: bool) -> None:
    """The model registry (config/models.yaml): each entry, its embedder and whether its weights are here."""
    settings = settings_of(ctx)
    registry = load_models(Workspace(settings.root).config_dir)
    rows = []
    for entry in registry.entries:
        weights = check_weights(entry, settings.root)
        rows.append(
            {**entry.to_dict(), "present": weights.present, "found_sha256": weights.sha256, "problem": weights.problem}
        )
    lines = [f"model registry: {registry.file}"]
    for row in rows:
        state = "ready" if row["present"] else row["problem"]
        also = f" (also {', '.join(row['aliases'])})" if row["aliases"] else ""
        lines.append(f"{row['configuration']}{also}: {row['embedder']}: {state}")
        if row["found_sha256"]:
            lines.append(f"    weights_sha256 {row['found_sha256']}")
    emit_result(as_json, {"ok": True, "file": registry.file, "models": rows}, "\n".join(lines))


@probe.command("data")
@_DATA_ROOT
@json_option
@click.pass_context
@handle_errors
def data_command(ctx: click.Context, data_root: Path | None, as_json: bool) -> None:
    """The data registry: each catalogue dataset a protocol maps, its data files, whether present, their sha256."""
    settings = settings_of(ctx)
    root = data_root_of(settings, data_root)
    rows = []
    hashes: dict[Path, str | None] = {}
    for protocol in load_protocols(Workspace(settings.root).config_dir).values():
        for name, dataset_names in protocol.catalogue.items():
            files = []
            for entry in (protocol.datasets[d] for d in dataset_names):
                path = Path(entry.path) if Path(entry.path).is_absolute() else root / entry.path
                if path not in hashes:
                    hashes[path] = sha256_file(path) if path.is_file() else None
                files.append({"dataset": entry.name, "path": str(path), "sha256": hashes[path]})
            rows.append({"catalogue": name, "protocol": protocol.name, "files": files})
    lines = [f"data root: {root}"]
    for row in rows:
        present = sum(f["sha256"] is not None for f in row["files"])
        lines.append(f"{row['catalogue']} -> {row['protocol']}: {present}/{len(row['files'])} files present")
    emit_result(as_json, {"ok": True, "data_root": str(root), "datasets": rows}, "\n".join(lines))
