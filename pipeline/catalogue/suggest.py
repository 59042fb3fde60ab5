"""Catalogue proposals from candidate records: a printed label close to a catalogue entry becomes a proposed
alias, one close to nothing a proposed new entry. Nothing is applied: a person reads the YAML and copies what
is right into config/catalogue."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from pipeline.catalogue.model import slug

Ranker = Callable[[str, str], list[dict[str, Any]]]  # (kind, printed label) -> [{"id", "name", "score"}], best first
BenchmarkOf = Callable[[str], "tuple[str, str] | None"]  # catalogue dataset name -> (benchmark id, benchmark name)

ALIAS_SCORE = 85.0  # a suggestion this close names the same thing printed another way
KINDS = ("dataset", "configuration", "metric")


def propose(
    candidates: Iterable[dict[str, Any]], rank: Ranker | None = None, benchmark_of: BenchmarkOf | None = None
) -> dict[str, Any]:
    """{"aliases": [...], "new": {"dataset": [...], "configuration": [...], "metric": [...]}, "entries": {...}}
    from candidates; ``rank`` scores each printed label against the catalogue (else the mapper's suggestions are
    used); ``benchmark_of`` names the benchmark of a linked dataset, so that a new model whose values all sit
    on one benchmark's datasets becomes a complete configuration entry (``entries``, a catalogue file)."""
    candidates = list(candidates)
    seen: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for candidate in candidates:
        for kind in KINDS:
            label = (candidate.get("printed_labels") or {}).get(kind)
            if label and kind in (candidate.get("suggestions") or {}):
                seen[kind, label].append(candidate)
    aliases, new = [], {kind: [] for kind in KINDS}
    for (kind, label), found in sorted(seen.items()):
        ranked = rank(kind, label) if rank is not None else None
        suggestions = ranked if ranked is not None else found[0]["suggestions"][kind]
        where = sorted({f"{c['source_id']} {c['table_label'] or 'unlabelled table'}" for c in found})
        best = suggestions[0] if suggestions else None
        same_label = best is not None and best.get("for", label) == label  # scored on the label as printed
        if best is not None and same_label and best["score"] >= ALIAS_SCORE:
            aliases.append(
                {
                    kind: best["id"],
                    "name": best["name"],
                    "add_alias": label,
                    "score": best["score"],
                    "values": len(found),
                }
            )
        else:
            nearest = [f"{s['name']} ({s['score']:g})" for s in suggestions]
            new[kind].append({"name": label, "values": len(found), "seen_in": where, "nearest": nearest})
    proposals: dict[str, Any] = {"aliases": aliases, "new": {kind: items for kind, items in new.items() if items}}
    entries = _configuration_entries(candidates, new["configuration"], benchmark_of) if benchmark_of else []
    if entries:
        proposals["entries"] = {"configurations": entries}
    return proposals


def _configuration_entries(
    candidates: list[dict[str, Any]], new: list[dict[str, Any]], benchmark_of: BenchmarkOf
) -> list[dict[str, Any]]:
    """A configuration entry per new model whose values are linked to datasets of one benchmark: the printed
    name as model and alias, the benchmark in the name as the catalogue's other configurations have it."""
    entries = []
    for item in new:
        label = item["name"]
        benchmarks = {
            benchmark_of(str(c["linked"]["dataset"]))
            for c in candidates
            if (c.get("printed_labels") or {}).get("configuration") == label and "dataset" in (c.get("linked") or {})
        }
        if len(benchmarks) != 1 or None in benchmarks:
            continue
        benchmark_id, benchmark_name = next(iter(benchmarks))  # type: ignore[misc]
        entries.append(
            {
                "id": f"{slug(label)}-{benchmark_id}",
                "name": f"{label} ({benchmark_name})",
                "model": label,
                "benchmark": benchmark_id,
                "aliases": [label],
            }
        )
    return entries
