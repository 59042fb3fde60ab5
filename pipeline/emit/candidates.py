"""Candidate records: printed results the catalogue does not know yet (a model like "Evo 2 7B", a benchmark like
ClinVar), kept with their labels as printed, status ``unlinked`` and the catalogue's nearest entries, so that
`litaudit catalogue suggest` can propose aliases and new entries for a person to accept."""

from __future__ import annotations

from typing import Any

from pipeline.mapping.model import Link, MappingFile, UnmappedCell
from pipeline.model import TablesFile

UNLINKED = "unlinked"
KINDS = ("dataset", "configuration", "metric")


def build_candidates(tables: TablesFile, mapping: MappingFile) -> list[dict[str, Any]]:
    """One candidate per unmapped value cell that has at least a printed dataset or model label."""
    by_index = {t.index: t for t in tables.tables}
    out = []
    for tm in sorted(mapping.tables, key=lambda t: t.index):
        table = by_index.get(tm.index)
        if table is None:
            continue
        for cell in tm.unmapped:
            candidate = _candidate(cell, table.label, tables.source, _page(table, cell))
            if candidate is not None:
                out.append(candidate)
    return out


def _page(table: Any, unmapped: UnmappedCell) -> int:
    cell = table.cell_at(unmapped.row, unmapped.col)
    return cell.locator.page if cell is not None and cell.locator is not None else table.page


def _candidate(cell: UnmappedCell, label: str | None, source: dict[str, Any], page: int) -> dict[str, Any] | None:
    links = {link.kind: link for link in cell.links}
    printed = {kind: _printed(links.get(kind)) for kind in KINDS}
    if not (printed["dataset"] or printed["configuration"]):
        return None
    return {
        "id": f"cand:{cell.locator}",
        "status": UNLINKED,
        "source_id": source.get("id"),
        "source_sha256": source.get("sha256"),
        "table_label": label,
        "page": page,
        "locator": cell.locator,
        "locator_readable": cell.locator_readable,
        "printed": cell.text,
        "printed_labels": printed,
        "linked": {k: links[k].name for k in KINDS if k in links and links[k].id is not None},
        "suggestions": {
            k: [{"id": a.id, "name": a.name, "score": a.score} for a in links[k].alternatives[:3]]
            for k in KINDS
            if k in links and links[k].id is None
        },
        "reasons": list(cell.reasons),
    }


def _printed(link: Link | None) -> str | None:
    return link.label.strip() or None if link is not None else None
