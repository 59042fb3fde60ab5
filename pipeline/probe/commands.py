"""``litaudit probe run`` and ``litaudit probe reproduce``."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from pipeline.clikit import emit_result, handle_errors, json_option, log, settings_of
from pipeline.errors import BadInputError
from pipeline.probe.cache import EmbeddingCache, default_cache_dir
from pipeline.probe.embedders import Embedder, ModelOptions, model_help, parse_model
from pipeline.probe.evaluate import MetricValue, RunOptions, RunResult, run_protocol
from pipeline.probe.protocols import DatasetEntry, get_protocol, load_protocols
from pipeline.probe.reproduce import exit_code, find_record, plan_for, reproduction_entry, store_reproduction
from pipeline.settings import Settings
from pipeline.store import Workspace, write_json

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
    root = data_root if data_root is not None else settings.root / DEFAULT_DATA_ROOT
    return embedder, RunOptions(data_root=root, cache=cache, show_progress=not as_json)


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


@probe.command("reproduce")
@click.argument("record_id")
@click.option("--protocol", "protocol_name", default=None, help="When several protocols map the record's dataset.")
@shared_options
@click.pass_context
@handle_errors
def reproduce_command(
    ctx: click.Context, record_id: str, protocol_name: str | None, variant: str | None, as_json: bool, **model_args: Any
) -> None:
    """Run the protocol a record's dataset names and store printed vs reproduced in audits/<source>/.

    Exit 0 when the printed value lies within the 95% interval, 1 when it does not.
    """
    settings = settings_of(ctx)
    ws = Workspace(settings.root)
    record = find_record(ws, record_id)
    plan = plan_for(record, load_protocols(ws.config_dir), protocol_name)
    embedder, options = prepare(settings, as_json, **model_args)
    result = run_protocol(plan.protocol, plan.protocol.variant(variant), embedder, plan.datasets, options)
    entry = reproduction_entry(record, plan, result)
    path = store_reproduction(ws, entry)
    code = exit_code(entry)
    human = (
        f"{record.id} ({record.dataset}, {plan.metric}): printed {entry['printed']:.4g}, reproduced "
        f"{format_value(result.aggregate[plan.metric])}, delta {entry['delta']:+.4f}: {entry['verdict']}\n"
        f"stored in {path}"
    )
    summary = {k: v for k, v in entry.items() if k != "run"}
    emit_result(as_json, {"ok": code == 0, "exit_code": code, "path": str(path), **summary}, human)
    raise SystemExit(code)
