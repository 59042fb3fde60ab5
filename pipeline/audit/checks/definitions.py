"""undefined-metric: a metric used in a table or caption that the text never defines and that is not a
standard metric of the catalogue ("Top-1": top-1 of what?).

Candidates are the catalogue's non-standard metrics named in headers, stubs or the caption, and Top-k
forms it does not know. A metric counts as defined when some sentence or caption defines it ("X is the
fraction ...", "X denotes ...", "expected calibration error (X)", "X, i.e. ...") or cites where it is
defined ("X [12]", "X (Smith et al., 2020)"). A Top-k printed with the measure it ranks ("top-1 error",
"Top-5 test accuracy", "top-1 and top-5 error rates") says what it is, and is not flagged; one followed by
any other word ranks items ("Top-10 most common words") and is no metric at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from pipeline.audit.checks.base import Issue
from pipeline.audit.context import AuditInput
from pipeline.audit.metrics import TOP_K, metrics_named, stub_names_metrics
from pipeline.audit.tableview import Pos, TableView
from pipeline.catalogue import Catalogue, MetricDef, compact_label

# A Top-k used as a metric stands alone, before a unit, an arrow or a measure, or before what it is measured
# on or whose it is; before any other word it ranks items ("Top-10 most common words", "Top 10 dmCpGs",
# "Top-1 Sel." as a method's name).
_TOP_K_METRIC = re.compile(
    rf"{TOP_K.pattern}(?=(?i:\s*(?:$|[,;:)(\]/|↑↓%]|\.\s*$|(?:and|or|vs\.?)\s+top|acc|err|score|rate"
    r"|(?:on|in|for|across|over|per)\s"  # what it is measured on: "Top-1 on the promoter datasets"
    r"|of\s+(?:\w+\s+){0,2}(?:models?|methods?|baselines?)\b)))",  # whose it is: "Top-1 of the five models"
)
_VERBS = (
    r"(?:is|are)\s+(?:defined|computed|calculated|measured|given|obtained|the|a|an)\b"
    r"|denotes|refers to|measures|means|represents|indicates|counts|corresponds to|quantifies|captures|reflects"
)
_MEASURES = r"(?:accuracy|acc\.?|error|err\.?|error rates?)(?!\w)"
_NOUNS = r"(?:fraction|proportion|percentage|share|rate|number|probability|ratio|mean|average|area)"


@lru_cache(maxsize=512)
def _definition_patterns(form: str) -> list[re.Pattern[str]]:
    f = re.escape(form)
    parts = [
        rf"(?<![\w-]){f}(?![\w-])\s*(?:\([^)]{{0,60}}\)\s*)?(?:{_VERBS})",
        rf"\bdefin\w*\s+(?:the\s+)?(?:metric\s+|score\s+)?{f}(?![\w-])",
        rf"(?<![\w-]){f}(?![\w-])\s*[,:]\s*(?:i\.e\.|that is|namely|which (?:is|measures|counts|denotes)|the {_NOUNS})",
        rf"(?<![\w-]){f}(?![\w-])\s*\((?:i\.e\.|the {_NOUNS}|(?!higher|lower|in\b|see\b|on\b|%)[a-z][\w -]{{5,}}\))",
        rf"\bwhere\s+{f}(?![\w-])\s+(?:is|denotes)",
        rf"\bby\s+{f}(?![\w-]),?\s+we\s+mean",
        rf"[a-z]{{3,}}[\w -]{{3,60}}\(\s*{f}\s*\)",
        rf"(?<![\w-]){f}(?![\w-])\s*(?:\[\d+(?:[,–-]\s*\d+)*\]|\([A-Z][\w-]+(?: et al\.)?,? \d{{4}}\w?\))",
    ]
    return [re.compile(p, re.IGNORECASE) for p in parts]


@dataclass
class _Term:
    printed: str
    metric: MetricDef | None
    cells: list[Pos] = field(default_factory=list)  # header or stub cells printing it
    scope: str = "table"


def check_undefined_metrics(inp: AuditInput) -> list[Issue]:
    if inp.text is None or inp.catalogue is None:
        return []
    headers = [c.text for t in inp.tables for c in t.cells if c.row < t.header_rows or c.col < t.stub_cols]
    corpus = [s.text for s in inp.text.sentences] + list(inp.text.captions.values()) + [t.caption for t in inp.tables]
    corpus += headers
    issues = []
    defined: dict[tuple[str, str], bool] = {}  # a term printed in many tables is looked up in the corpus once
    for view in inp.views:
        for term in _terms(inp, inp.catalogue, view).values():
            key = (term.printed, term.metric.id if term.metric is not None else "")
            if key not in defined:
                defined[key] = any(_defines(text, term) for text in corpus)
            if not defined[key]:
                issues.append(_issue(view, term))
    return issues


def _terms(inp: AuditInput, catalogue: Catalogue, view: TableView) -> dict[str, _Term]:
    table = view.table
    terms: dict[str, _Term] = {}

    def note(text: str, pos: Pos | None, scope: str) -> None:
        found = [(p, m) for p, m in metrics_named(catalogue, text) if not m.standard and _used_as_metric(text, p)]
        known = {compact_label(p) for p, _ in metrics_named(catalogue, text)}
        found += [(m.group(0), None) for m in _TOP_K_METRIC.finditer(text) if compact_label(m.group(0)) not in known]
        if scope == "rows":  # a row label is a metric only with context (genes, subsets spell like metrics)
            found = [(p, m) for p, m in found if stub_names_metrics(inp, view, p)]
        for printed, metric in found:
            key = metric.id if metric is not None else compact_label(printed)
            term = terms.setdefault(key, _Term(printed, metric))
            if pos is not None and pos not in term.cells:
                term.cells.append(pos)
                term.scope = scope if term.scope in ("table", scope) else "table"

    for cell in table.cells:
        if not cell.text.strip():
            continue
        above_values = any(c in view.value_cols for c in range(cell.col, cell.col + cell.col_span))
        if cell.row < table.header_rows and above_values:
            note(cell.text, (cell.row, cell.col), "columns")
        elif cell.row >= table.header_rows and cell.col < table.stub_cols:
            note(cell.text, (cell.row, cell.col), "rows")
    note(table.caption, None, "table")
    return terms


def _used_as_metric(text: str, printed: str) -> bool:
    """A Top-k form names a metric only where it stands as one (see _TOP_K_METRIC); other names always do."""
    if not TOP_K.fullmatch(printed.strip()):
        return True
    return any(m.group(0) == printed for m in _TOP_K_METRIC.finditer(text))


def _defines(text: str, term: _Term) -> bool:
    forms = {term.printed}
    if term.metric is not None:
        forms |= {a for a in term.metric.aliases if len(a) > 2 and a.lower() != term.metric.name.lower()}
    if _qualified(text, term.printed):
        return True
    return any(p.search(text) for form in forms for p in _definition_patterns(form))


def _qualified(text: str, printed: str) -> bool:
    """A Top-k followed by the measure it ranks: "top-1 err.", "Top-5 test accuracy", "top-1 and top-5 error rates"."""
    if not TOP_K.fullmatch(printed.strip()):
        return False
    topk = r"top[- ]?\d+"
    filler = r"(?:(?:test|val\.?|validation|classification|localization|retrieval)\s+)?"
    pattern = rf"(?<![\w-]){re.escape(printed)}(?:\s*(?:,|/|and|or)\s*{topk})*\s+{filler}{_MEASURES}"
    return re.search(pattern, text, re.IGNORECASE) is not None


def _issue(view: TableView, term: _Term) -> Issue:
    if term.scope == "columns":
        subjects = [p for p in view.numbers if any(_covers(view, c, p[1]) for c in term.cells)]
    elif term.scope == "rows":
        subjects = [p for p in view.numbers if any(c[0] == p[0] for c in term.cells)]
    else:
        subjects = list(view.numbers)
    where = "the caption" if not term.cells else ("its header" if term.scope == "columns" else "its row labels")
    return Issue(
        f"metric '{term.printed}' is used in {where} but the text never defines it, and the catalogue does not "
        f"count it as a standard metric",
        table=view.table,
        cells=term.cells,
        scope="cells",
        subjects=subjects,
        expected="a sentence defining the metric, or a citation where it is defined",
        found={"term": term.printed, "catalogue_metric": term.metric.id if term.metric else None},
        details={"standard": False},
    )


def _covers(view: TableView, header: Pos, col: int) -> bool:
    cell = view.table.cell_at(*header)
    return cell is not None and cell.col <= col < cell.col + cell.col_span
