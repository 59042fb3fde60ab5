"""Candidate records: printed results the catalogue does not know yet (a model like "Evo 2 7B", a benchmark like
ClinVar), kept with their labels as printed, status ``unlinked`` and the catalogue's nearest entries, so that
`litaudit catalogue suggest` can propose aliases and new entries for a person to accept."""

from __future__ import annotations

import re
from typing import Any

from pipeline.mapping.model import Link, MappingFile, UnmappedCell
from pipeline.mapping.paths import ValueCell, label_columns, value_cells
from pipeline.mapping.regime import regime_of
from pipeline.model import Table, TablesFile

UNLINKED = "unlinked"
KINDS = ("dataset", "configuration", "metric")


def build_candidates(tables: TablesFile, mapping: MappingFile) -> list[dict[str, Any]]:
    """One candidate per unmapped value cell that names a dataset or a model (differences between models and
    aggregate rows are not results of a configuration)."""
    by_index = {t.index: t for t in tables.tables}
    out = []
    for tm in sorted(mapping.tables, key=lambda t: t.index):
        table = by_index.get(tm.index)
        if table is None:
            continue
        cells = {(vc.cell.row, vc.cell.col): vc for vc in value_cells(table, str(tables.source.get("sha256", "")))}
        heads = _stub_heads(table)
        for unmapped in tm.unmapped:
            vc = cells.get((unmapped.row, unmapped.col))
            if vc is not None:
                candidate = _candidate(unmapped, table, vc, heads, tables.source)
                if candidate is not None:
                    out.append(candidate)
    return out


def _stub_heads(table: Table) -> list[str]:
    """The header over each label column of the rows (the stub, then words columns such as "Data")."""
    if not table.header_rows:
        return []
    return [_text(table, table.header_rows - 1, c) for c in (*range(table.stub_cols), *label_columns(table))]


def printed_labels(
    caption: str, vc: ValueCell, heads: list[str], links: dict[str, Link], context: str = ""
) -> dict[str, str | None]:
    """Dataset, configuration and metric as printed: the model is the row label headed "Model" (or "Method"),
    else the label the mapper read as the model; the metric is the row label headed "Metric", else the one the
    mapper linked, else the caption's opening phrase ("Attack success rate (%)"); the dataset is every other
    label of the cell; the regime ("full-shot") when a label, the caption or the section prints one."""
    rows, cols = list(vc.row_path), list(vc.col_path)
    metric_link = links.get("metric")
    metric = None
    if metric_link is not None and metric_link.id is not None:  # printed in a label, or named in running text
        metric = metric_link.label.strip() if metric_link.source in ("column", "row") else metric_link.name
    model = None
    if len(rows) == len(heads):
        k = next((k for k, head in enumerate(heads) if _METRIC_HEAD.match(head)), None)
        metric = rows[k] if k is not None else metric
        k = next((k for k, head in enumerate(heads) if _MODEL_HEAD.match(head)), None)
        model = rows.pop(k) if k is not None else None
    if model is None and "configuration" in links:
        guess = links["configuration"].label.strip()
        model = guess if guess and guess != metric else None
    if model is not None and metric is None and _MEASURE.search(model):  # "Sequence ID %" heads the values
        metric, model = model, _caption_model(caption)
    parts = [p for p in [*rows, *cols] if p and p != model and p != metric and not (metric and p in metric)]
    if model is not None:
        parts = [p for p in parts if p not in model]
    named = _caption_dataset(caption)
    if named and not any(named in p for p in parts) and named != model:
        parts.insert(0, named)  # "Comparing ... on zero-shot ClinVar classification": rows print only the subset
    printed: dict[str, str | None] = {
        "dataset": " / ".join(parts) or None,
        "configuration": model,
        "metric": metric or _caption_metric(caption),
    }
    regime = regime_of(vc.row_path, vc.col_path, caption, context)[0]
    return printed | {"regime": regime} if regime else printed


_MEASURE = re.compile(r"%|\b(?:ID|identity|rate|score|accuracy|error|loss|AUROC|AUPRC|F1|MCC)\b", re.IGNORECASE)
_CAPTION_MODEL = re.compile(
    r"\b(?:from|by|of|with) (?P<name>[A-Z][A-Za-z-]* ?\d+(?:\.\d+)?[BMK]?(?: \d+(?:\.\d+)?[BMK])?)\b"
)
_METRIC_HEAD = re.compile(r"^(?:metrics?|measures?)$", re.IGNORECASE)
_MODEL_HEAD = re.compile(r"^(?:models?|methods?|predictors?|tools?|systems?|baselines?)$", re.IGNORECASE)
_NOT_A_MODEL = re.compile(r"^(?:difference|diff\.?|delta|\u0394|improvement|gain|change)\b", re.IGNORECASE)
_CAPTION_HEAD = re.compile(r"^\W*(?P<phrase>[^.:;]{3,60}?)(?: of | on | for | across | in | by |[.:;]|$)")


_CAPTION_DATASET = (
    re.compile(r"\bon (?:(?:zero|few)-shot )?(?P<name>[A-Z][\w-]*[A-Z0-9][\w-]*)\b"),  # "on zero-shot ClinVar ..."
    re.compile(
        r"^(?P<name>[A-Z][\w-]*[A-Z0-9][\w-]*) (?:(?:zero|few)-shot|AUROC|AUPRC|accuracy)\b"
    ),  # "BRCA1 zero-shot"
)


def _caption_dataset(caption: str) -> str | None:
    """A dataset the caption names while the rows print only its subsets ("... on zero-shot ClinVar
    classification", "BRCA1 zero-shot comparison"): a capitalised name with a capital or digit inside."""
    text = re.sub(r"^(?:Supplementary |Extended Data )?Table \S+\s*[:.|]?\s*", "", caption.strip())
    for pattern in _CAPTION_DATASET:
        match = pattern.search(text)
        if match:
            return match.group("name")
    return None


def _caption_model(caption: str) -> str | None:
    """A model the caption names when no row or column does ("genes from Evo 2 generated mitochondria")."""
    match = _CAPTION_MODEL.search(caption)
    return match.group("name") if match else None


def _caption_metric(caption: str) -> str | None:
    """What the caption says the numbers are, when it opens with it: "Attack success rate (%) of ..."."""
    text = re.sub(r"^(?:Supplementary |Extended Data )?Table \S+\s*[:.|]?\s*", "", caption.strip())
    match = _CAPTION_HEAD.match(text)
    phrase = match.group("phrase").strip() if match else ""
    return phrase if phrase and len(phrase.split()) <= 6 and not phrase.lower().startswith(_VERBS) else None


_VERBS = ("compar", "summar", "result", "overview", "evaluat", "perform", "the ", "a ", "an ")


def _text(table: Table, row: int, col: int) -> str:
    found = table.cell_at(row, col)
    return found.text.strip() if found is not None else ""


def _candidate(
    unmapped: UnmappedCell, table: Table, vc: ValueCell, heads: list[str], source: dict[str, Any]
) -> dict[str, Any] | None:
    cell = vc.cell
    links = {link.kind: link for link in unmapped.links}
    printed = printed_labels(table.caption, vc, heads, links, table.context)
    model = printed["configuration"] or ""
    if not (printed["dataset"] or model) or _NOT_A_MODEL.match(model):
        return None
    return {
        "id": f"cand:{unmapped.locator}",
        "status": UNLINKED,
        "source_id": source.get("id"),
        "source_sha256": source.get("sha256"),
        "table_label": table.label,
        "page": cell.locator.page if cell.locator is not None else table.page,
        "locator": unmapped.locator,
        "locator_readable": unmapped.locator_readable,
        "printed": unmapped.text,
        "value": cell.value,
        "plus_minus": cell.plus_minus,
        "printed_labels": printed,
        "linked": {k: links[k].name for k in KINDS if k in links and links[k].id is not None},
        "suggestions": {
            k: [
                {"id": a.id, "name": a.name, "score": a.score, "for": links[k].label} for a in links[k].alternatives[:3]
            ]
            for k in KINDS
            if k in links and links[k].id is None
        },
        "reasons": list(unmapped.reasons),
    }
