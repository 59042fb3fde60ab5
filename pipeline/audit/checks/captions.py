"""caption-column-count: a caption that counts (or lists) N models while the table shows M; in a text source
(a README), a sentence that counts the models while no table shows that many.

The models' axis comes from the records (which configuration each cell belongs to) or from the
catalogue's model names in the labels; without either, a count is accepted when it matches any way of
counting the table's rows or columns, so only a count that fits nothing is flagged. A count of baselines
leaves out the paper's own model ("Ours", "proposed"). Models counted as the members of one line ("an
ensemble of five models", "five models trained with different seeds") are replicates behind a row, not rows.
"""

from __future__ import annotations

import re

from pipeline.audit.checks.base import Issue
from pipeline.audit.context import AuditInput
from pipeline.audit.labels import aggregate_kind, model_axis, model_names
from pipeline.audit.tableview import TableView
from pipeline.catalogue import Catalogue, compact_label

_NUMBERS = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "twenty": 20,
}  # fmt: skip
_NOUNS = r"(?:models|methods|baselines|approaches|architectures|systems|LMs|predictors|tools|agents|encoders)"
_STARTERS = {"of", "the", "all", "across", "for", "with", "among", "between", "we", "our", "these", "on", "and"}
_BASELINES = re.compile(r"\b(?:baselines|competitors|competing)\b", re.IGNORECASE)
_OURS = re.compile(r"\bours\b|\bproposed\b|\bour (?:model|method|approach)\b", re.IGNORECASE)
# Words saying the counted models are members or replicates of each line, not lines of the table
_MEMBERS = re.compile(
    r"\b(?:ensembles?|members?|replicates?|replications?|seeds?|runs|folds?|bootstraps?|repeats?|repetitions?|"
    r"independently|trained (?:with|on|from) different|averaged (?:over|across)|majority vot\w*)\b",
    re.IGNORECASE,
)
_CLAUSE_ENDS = (". ", ";", ",", "(", ")")
COUNT_CLAIM = re.compile(
    rf"(?<!top )(?<!top-)(?<!first )(?<!last )\b(?P<n>\d{{1,2}}|{'|'.join(_NUMBERS)})(?!\s+of\b)"
    rf"\s+(?:[\w-]+\s+){{0,3}}?{_NOUNS}\b",
    re.IGNORECASE,
)


def check_caption_counts(inp: AuditInput) -> list[Issue]:
    return _panel_captions(inp) + _one_per_count(_caption_counts(inp), _prose_counts(inp))


def _one_per_count(captions: list[Issue], prose: list[Issue]) -> list[Issue]:
    """One finding per contradiction: a README's sentences repeating a wrong count of models join the caption
    that says it (or the first sentence that does), named beside it; each caption stays its own finding."""
    kept = list(captions)
    for issue in prose:
        claimed = issue.expected["models"]
        first = next((k for k in kept if k.expected["models"] == claimed), None)
        if first is None:
            kept.append(issue)
            continue
        said = issue.details.get("sentence", "")
        if said and said != first.details.get("caption"):
            first.details.setdefault("also_said", []).append(said)
    return kept


def _caption_counts(inp: AuditInput) -> list[Issue]:
    issues = []
    for view in inp.views:
        match = next((m for m in COUNT_CLAIM.finditer(view.table.caption) if _counts_models(m)), None)
        if not match:
            continue
        claimed = _claimed(match)
        if _one_line_of(view, claimed):
            continue
        axis, counts = _model_counts(inp, view)
        own = _own_lines(view) if _BASELINES.search(match.group(0)) else 0  # baselines leave out "Ours"
        if claimed + own in counts.values():
            continue
        shown = counts.get(axis) if axis else None
        found = {"models": shown, "axis": axis} if axis else {"counts": counts}
        what = f"{shown} model {'columns' if axis == 'col' else 'rows'}" if axis else _describe(counts)
        what += f", {own} of them the paper's own" if own else ""
        issues.append(
            Issue(
                f"the caption says '{match.group(0)}' ({claimed}) but the table shows {what}",
                table=view.table,
                cells=_axis_cells(view, axis),
                scope="table",
                expected={"models": claimed, "caption": match.group(0)},
                found=found,
                tolerance="exact count",
                details={"caption": view.table.caption},
            )
        )
    return issues


def _claimed(match: re.Match[str]) -> int:
    word = match.group("n").lower()
    return int(word) if word.isdigit() else _NUMBERS[word]


def _prose_counts(inp: AuditInput) -> list[Issue]:
    """A text source (a README) counts its models in prose ("covers 6 models"), not in a caption: the count
    must fit some way of counting one of its tables."""
    views = [v for v in inp.views if v.table.artifact and v.value_cols]
    if inp.text is None or not views:
        return []
    issues = []
    for sentence in inp.text.sentences:
        for match in (m for m in COUNT_CLAIM.finditer(sentence.text) if _counts_models(m)):
            claimed = _claimed(match)
            if any(claimed in _model_counts(inp, v)[1].values() or _one_line_of(v, claimed) for v in views):
                continue
            view = max(views, key=lambda v: len(_cols(v)) * len(_rows(v)))  # the largest table: the main results
            axis, counts = _model_counts(inp, view)
            shown = f"{counts[axis]} model {'columns' if axis == 'col' else 'rows'}" if axis else _describe(counts)
            issues.append(
                Issue(
                    f"the text says '{match.group(0)}' ({claimed}) but no table shows that many; the largest "
                    f"shows {shown}",
                    table=view.table,
                    cells=_axis_cells(view, axis),
                    scope="table",
                    expected={"models": claimed, "sentence": sentence.text[:300]},
                    found={"models": counts.get(axis), "axis": axis} if axis else {"counts": counts},
                    tolerance="exact count",
                    details={"sentence": sentence.text[:300]},
                )
            )
    return issues


def _one_line_of(view: TableView, claimed: int) -> bool:
    """A row or column made of that many models ("10xEnsemble", "Ensemble of 10"): the count is its members."""
    members = re.compile(rf"(?<!\d){claimed}\s*[x×]\s*\w|\bensemble\s+of\s+{claimed}\b", re.IGNORECASE)
    labels = [view.row_labels.get(r, "") for r in view.body_rows] + [view.col_label(c) for c in view.value_cols]
    return any(members.search(label) for label in labels)


def _own_lines(view: TableView) -> int:
    """Rows or columns naming the paper's own model ("Ours", "X (ours)", "proposed")."""
    labels = [view.row_labels.get(r, "") for r in view.body_rows] + [view.col_label(c) for c in view.value_cols]
    return sum(bool(_OURS.search(label)) for label in labels)


def _counts_models(match: re.Match[str]) -> bool:
    """ "five models" counts the table's models; "Evo 2 models" names a model, and models that are the members
    of one ("an ensemble of five models", "five models trained with different seeds", "averaged over five
    models") are replicates behind each line, not lines of the table."""
    before = match.string[: match.start("n")].split()
    if before and before[-1][:1].isupper() and before[-1].lower() not in _STARTERS:
        return False
    return not _MEMBERS.search(_clause_around(match))


def _clause_around(match: re.Match[str]) -> str:
    """The words between the punctuation before and after the count (commas, parentheses, sentence ends)."""
    text = match.string
    start = max(text.rfind(p, 0, match.start()) for p in _CLAUSE_ENDS) + 1
    ends = [i for p in _CLAUSE_ENDS if (i := text.find(p, match.end())) >= 0]
    return text[start : min(ends, default=len(text))]


def _describe(counts: dict[str, int]) -> str:
    columns = sorted({n for name, n in counts.items() if name.startswith("columns")})
    return (
        f"{' or '.join(str(n) for n in columns)} value columns, {counts['rows']} rows "
        f"and {counts['row_groups']} row group(s)"
    )


def _axis_cells(view: TableView, axis: str | None) -> list[tuple[int, int]]:
    if axis == "row":
        return [(r, 0) for r in _rows(view)]
    return [(view.table.header_rows - 1, c) for c in _cols(view)] if view.table.header_rows else []


def _rows(view: TableView) -> list[int]:
    return [r for r in view.body_rows if not aggregate_kind(view.row_labels.get(r, "").split(" / ")[-1])]


def _cols(view: TableView) -> list[int]:
    return [c for c in view.value_cols if not aggregate_kind(view.leaf(c))]


def _model_counts(inp: AuditInput, view: TableView) -> tuple[str | None, dict[str, int]]:
    """The axis holding models (if known) and the counts the claim may be compared with."""
    cols, rows = _cols(view), _rows(view)
    col_counts = {
        len({view.col_paths[c][0] if view.col_paths.get(c) else "" for c in cols}),
        len({view.col_label(c) for c in cols}),
    }
    row_count = len({view.row_labels.get(r, "") for r in rows})
    axis = model_axis(inp, view)
    if axis == "col":
        return "col", {"col": _record_models(inp, view, "col", cols) or _column_models(inp.catalogue, view, cols)}
    if axis == "row":
        return "row", {"row": _record_models(inp, view, "row", rows) or row_count}
    counts = {f"columns_{i}": n for i, n in enumerate(sorted(col_counts))}
    counts["rows"] = row_count
    counts["row_groups"] = len({view.row_groups.get(r) for r in rows})
    return None, counts


def _column_models(catalogue: Catalogue | None, view: TableView, cols: list[int]) -> int:
    """Distinct models over columns: the header level naming a known model, else the whole label."""
    names = model_names(catalogue)
    keys = set()
    for col in cols:
        path = view.col_paths.get(col, [])
        keys.add(next((compact_label(p) for p in path if compact_label(p) in names), view.col_label(col)))
    return len(keys)


def _record_models(inp: AuditInput, view: TableView, axis: str, lines: list[int]) -> int | None:
    """Distinct models the records name, when they name one on every model line (a table mapped only in part
    does not say how many models it shows); None otherwise."""
    names: dict[int, set[str]] = {}
    for row, col in view.numbers:
        record = inp.record_at(view.table, (row, col))
        name = record.configuration or record.model if record is not None else None
        if name:
            names.setdefault(row if axis == "row" else col, set()).add(name)
    if not lines or any(line not in names for line in lines):
        return None
    return len(set().union(*(names[line] for line in lines)))


def _panel_captions(inp: AuditInput) -> list[Issue]:
    """A multi-panel table whose caption names N models while its panels show M: the panels of one float share
    the caption, so the models are counted over all of them."""
    floats: dict[str, list[TableView]] = {}
    for view in inp.views:
        if view.table.panel and view.table.label:
            floats.setdefault(view.table.label, []).append(view)
    issues = []
    for label, views in floats.items():
        named = _named_models(inp.catalogue, views[0].table.caption)
        shown = _panel_models(inp, views)
        if len(named) < 2 or not shown or len(named) == len(shown):
            continue
        issues.append(
            Issue(
                f"the caption names {len(named)} models ({', '.join(named.values())}) while its "
                f"{len(views)} panels show {len(shown)} ({', '.join(sorted(shown))})",
                table=views[0].table,
                cells=_axis_cells(views[0], model_axis(inp, views[0]) or "col"),
                scope="table",
                expected={"models": len(named), "caption": views[0].table.caption},
                found={"models": len(shown), "panels": len(views)},
                tolerance="exact count",
                details={
                    "caption": views[0].table.caption,
                    "limitation_text": f"The {label} caption names {len(named)} models while the table has "
                    f"{len(shown)} columns of models.",
                },
            )
        )
    return issues


def _named_models(catalogue: Catalogue | None, caption: str) -> dict[str, str]:
    """Model id -> the name the caption prints, for each catalogue model the caption names."""
    found: dict[str, tuple[int, str]] = {}
    for config in catalogue.configurations if catalogue else []:
        for name in (*config.names, config.model):
            match = re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", caption)
            if match and len(name) >= 2 and (config.model not in found or match.start() < found[config.model][0]):
                found[config.model] = (match.start(), match.group(0))
    return {model: text for model, (_, text) in sorted(found.items(), key=lambda kv: kv[1][0])}


def _panel_models(inp: AuditInput, views: list[TableView]) -> set[str]:
    """Models the panels' records name (configurations), else the column labels naming catalogue models."""
    found = {r.model or str(r.configuration) for v in views for pos in v.numbers if (r := inp.record_at(v.table, pos))}
    if found:
        return found
    names = model_names(inp.catalogue)
    return {p for v in views for c in v.value_cols for p in v.col_paths.get(c, []) if compact_label(p) in names}
