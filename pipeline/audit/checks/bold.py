"""bold-not-best: a bold value that is not the best in its line, or a best value left plain.

Bold marks the best model, so lines run across the models' axis when the records or the catalogue tell
where the models are; otherwise rows (split by column groups, or across them when each group is a model over
its metric columns) or columns (split by row groups), whichever explains the bold cells with fewer exceptions.
Lines mix no units, spreads or named metrics (a percent column is its own line), leave out emphasis (a column
or row printed bold throughout) and, when the caption restricts "best" to rows without a mark ("best among
models trained only on ..."), the marked rows.
The direction comes from the metric, else from the bold cells themselves when they agree; a quantity (Params,
Time, Size, #) has a direction only when its own header or the caption gives one.
Scope: rows are set apart in blocks (an empty row, a label row or a row group between them). Blocks without
any bold value are reference rows (baselines above a rule, "best-pruned results are bold") and are left out;
when every bolded column is bold once per block of some split of the rows, bold marks each block's best.
Settings rows ("Num. of samples") are no competitors, a row or column printed bold throughout is emphasis,
and when another reading of the layout explains every bold value the check says nothing.
What bold means is set by what the paper says of it: the caption, the sentences citing the table and the
sentences on its pages that speak of bold (journals print table footnotes as text); in a text source (a
README, with no pages) the caption and the rest of the table's section. Bold said to mark significance
("Bold signifies P < 0.05") is not compared with the best at all. A statement naming the line bold compares
("the best ... in a column", "per row") sets the axis, in a PDF as in a README.
"Not best" is proved with printed-precision intervals, so ties and near-ties never count. A violation is
likely, never proved: what the authors meant bold to compare is a reading of the layout.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import islice, product

from pipeline.audit.checks.base import Issue
from pipeline.audit.context import AuditInput
from pipeline.audit.labels import aggregate_kind, groups_name_models, model_axis
from pipeline.audit.metrics import DELTA, QUANTITY, cell_metric, text_direction
from pipeline.audit.tableview import Pos, TableView
from pipeline.audit.text import split_sentences
from pipeline.numbers import PrintedNumber

BOLD_MEANS_BEST = re.compile(
    r"\b(?:best|highest|lowest|top|winning)\b[^.;]{0,80}\b(?:bold|boldface|bolded)\b"
    r"|\b(?:bold|boldface|bolded)\b[^.;]{0,80}\b(?:best|highest|lowest|top)\b",
    re.IGNORECASE,
)
_BOLD_MEANS_OVERLAP = re.compile(
    r"significan|statistically|within (?:one|1|two|2) (?:std|standard)|overlapping (?:error|confidence|std|interval)"
    r"|(?<![\w-])(?:p|q|fdr|padj|p[- ]?values?)\s*(?:[<≤]|&lt;)|\b(?:fdr|false discovery|bonferroni|nominal\w*)\b",
    re.I,
)
_BOLD = re.compile(r"\bbold(?:face|ed)?\b", re.I)
_MARKS = "†‡*∗§¶"
_RESTRICTED = re.compile(r"\bbest\s+among\b|\bamong\s+(?:the\s+)?(?:models|methods|systems)\b|\bexcluding\b", re.I)
# "the best of these six models in a column", "best per row", "in each column": the line bold compares
_STATED_AXIS = re.compile(r"\b(?:in|within|per|across|for)\s+(?:a|an|each|every|the)?\s*(?P<axis>column|row)\b", re.I)
_COUNT_LABEL = re.compile(r"^\s*(?:#|no\.|num\.|number of|count|rank|n\b)", re.IGNORECASE)
_MAX_SPLITS = 64  # block splits tried when bold repeats once per block
_MOST = 0.75  # share of lines carrying a bold value above which a line without one is a best left plain


@dataclass
class _Line:
    cells: list[Pos]
    direction: str | None


@dataclass
class _Verdict:
    axis: str
    violations: list[tuple[Pos, list[Pos], str, bool]]  # bold cell, the better cells, direction, direction named
    confirmed: int
    plain: list[tuple[_Line, list[Pos]]]  # lines without bold, their best cells


def check_bold(inp: AuditInput) -> list[Issue]:
    issues: list[Issue] = []
    for view in inp.views:
        caption = view.table.caption
        if _BOLD_MEANS_OVERLAP.search(caption):
            continue
        statements = bold_statements(inp, view)
        says_best = any(BOLD_MEANS_BEST.search(s) for s in statements)
        if not says_best and any(_BOLD_MEANS_OVERLAP.search(s) for s in statements):
            continue  # a footnote or the text says bold marks significance ("Bold signifies P < 0.05"), not the best
        issues.extend(_check_table(inp, view, says_best, stated_axis(statements) if says_best else None))
    return issues


def stated_axis(statements: list[str]) -> str | None:
    """The line a statement about bold says it compares ("col" or "row"), when one says it and none says the
    other."""
    axes = {
        "col" if m.group("axis").lower() == "column" else "row"
        for s in statements
        if BOLD_MEANS_BEST.search(s)
        for m in _STATED_AXIS.finditer(s)
    }
    return axes.pop() if len(axes) == 1 else None


def bold_statements(inp: AuditInput, view: TableView) -> list[str]:
    """What the paper says about this table's bold: its caption, the sentences citing it, and the sentences on
    its pages that speak of bold without citing another table (its footnotes, which journals print as text)."""
    texts = [view.table.caption]
    if view.table.artifact:  # a text source: its section says what the caption leaves unsaid; it has no pages
        return [t for t in (*texts, *split_sentences(view.table.context)) if _BOLD.search(t)]
    texts += [s.text for s in inp.citing(view.table)]
    for page in dict.fromkeys([view.table.page, *view.table.continued_pages]):
        texts += [s.text for s in inp.uncited_on(page)]
    return [t for t in texts if _BOLD.search(t)]


def _check_table(inp: AuditInput, view: TableView, says_best: bool, stated: str | None = None) -> list[Issue]:
    bold = {p for p in view.bold if p in view.numbers}
    blocks = view.blocks
    comparable = {p for p in view.numbers if not _set_apart(view, p) and not _reference(blocks, bold, p)}
    emphasis_cols, emphasis_rows = _fully_bold(view, bold, axis=1), _fully_bold(view, bold, axis=0)
    eligible = {p for p in comparable if p[1] not in emphasis_cols and p[0] not in emphasis_rows}
    if not bold & eligible:
        return []
    models = model_axis(inp, view)  # bold marks the best model: compare across the models' axis
    axes = ("row",) if models == "col" else ("col",) if models == "row" else ("col", "row")
    axes = (stated,) if stated else axes
    verdicts = [_judge(inp, view, axis, bold & eligible, eligible) for axis in axes]
    if "col" in axes:
        splits = _splits(view, bold & eligible)
        verdicts += [_judge(inp, view, "col", bold & eligible, eligible, split) for split in splits]
    best = max(verdicts, key=lambda v: (v.confirmed - len(v.violations), -len(v.plain), len(v.violations)))
    if len(best.violations) > max(1, best.confirmed):
        return []  # no reading of the layout explains the bold cells: the lines are not what bold compares
    others = (
        [] if stated else [_judge(inp, view, a, bold & eligible, eligible) for a in ("col", "row") if a not in axes]
    )
    if best.violations and any(not v.violations and v.confirmed >= max(2, best.confirmed) for v in others):
        return []  # the other axis explains every bold value: bold compares along it, not the models' axis
    issues = [_violation_issue(view, best.axis, *v, says_best, inp.settings.proof_confidence) for v in best.violations]
    issues += [_excluded_issue(view, p) for p in sorted(bold - comparable) if _marked_out(view, p)]
    lines_with_bold = best.confirmed + len(best.violations)
    if says_best and best.plain and lines_with_bold >= _MOST * (lines_with_bold + len(best.plain)):
        issues.extend(_plain_issue(view, best.axis, line, cells) for line, cells in best.plain)
    return issues


def _reference(blocks: dict[int, int], bold: set[Pos], pos: Pos) -> bool:
    """The cell's block has no bold value while another block has: reference rows outside the comparison."""
    bolded = {blocks.get(r) for r, _ in bold}
    return len(set(blocks.values())) > 1 and bool(bolded) and blocks.get(pos[0]) not in bolded


def _splits(view: TableView, bold: set[Pos]) -> list[dict[int, int]]:
    """Splits of the rows into blocks holding one bold value per bolded column, when every bolded column is
    bold the same number of times (two or more): "best per block" readings of the bold cells."""
    by_col: dict[int, list[int]] = {}
    for row, col in bold:
        by_col.setdefault(col, []).append(row)
    counts = {len(rows) for rows in by_col.values()}
    if len(counts) != 1 or (k := counts.pop()) < 2:
        return []
    ordered = [sorted(rows) for rows in by_col.values()]
    gaps = []
    for i in range(k - 1):
        last, following = max(rows[i] for rows in ordered), min(rows[i + 1] for rows in ordered)
        if last >= following:
            return []
        gaps.append([r for r in view.body_rows if last < r <= following])
    splits = []
    for starts in islice(product(*gaps), _MAX_SPLITS):
        splits.append({r: sum(r >= s for s in starts) for r in view.body_rows})
    return splits


def _fully_bold(view: TableView, bold: set[Pos], axis: int) -> set[int]:
    """Columns (axis=1) or rows (axis=0) printed bold throughout: emphasis, not a verdict."""
    lines: dict[int, list[Pos]] = {}
    for pos in view.numbers:
        lines.setdefault(pos[axis], []).append(pos)
    return {k for k, cells in lines.items() if len(cells) >= 3 and all(p in bold for p in cells)}


def _marked_out(view: TableView, pos: Pos) -> bool:
    """The caption restricts "best" to some rows and this cell's row or column carries the mark it excludes."""
    labels = view.row_labels.get(pos[0], "") + view.col_label(pos[1])
    caption = view.table.caption
    return bool(_RESTRICTED.search(caption)) and any(m in labels and m in caption for m in _MARKS)


def _excluded_issue(view: TableView, pos: Pos) -> Issue:
    return Issue(
        f"bold {view.numbers[pos].text} in row '{view.row_labels.get(pos[0], pos[0])}', which carries a mark the "
        "caption excludes from the comparison of best values",
        table=view.table,
        cells=[pos],
        expected={"bold": "only among the rows the caption compares"},
        found={"bold": view.numbers[pos].text},
        details={"caption": view.table.caption},
    )


def _set_apart(view: TableView, pos: Pos) -> bool:
    """The cell's row or column carries a mark the caption explains (those are compared separately)."""
    row_label, col_label = view.row_labels.get(pos[0], ""), view.col_label(pos[1])
    if _COUNT_LABEL.match(row_label.split(" / ")[-1]) or _COUNT_LABEL.match(view.leaf(pos[1])):
        return True
    return any(mark in row_label + col_label and mark in view.table.caption for mark in _MARKS)


def _lines(
    inp: AuditInput, view: TableView, axis: str, eligible: set[Pos], split: dict[int, int] | None = None
) -> list[list[Pos]]:
    """Rows split by column group (by leaf column when the groups are the models), or columns split by row group
    (or by the blocks of ``split``); never mixing units, spreads, named metrics or quantities."""
    groups: dict[tuple[object, ...], list[Pos]] = {}
    across_groups = axis == "row" and groups_name_models(inp, view)
    for pos in sorted(eligible):
        row, col = pos
        if axis == "row":
            key: tuple[object, ...] = (row, view.leaf(col) if across_groups else view.col_groups.get(col))
        else:
            key = (col, split[row] if split is not None else view.row_groups.get(row))
        number = view.numbers[pos]
        kind = (number.percent, number.plus_minus is not None, _named_metric(inp, view, pos))
        groups.setdefault((*key, *kind), []).append(pos)
    return [cells for cells in groups.values() if len(cells) >= 2]


def _named_metric(inp: AuditInput, view: TableView, pos: Pos) -> str | None:
    """The catalogue metric of a cell, whatever told it (so a row with records and one without, both read under
    the caption's metric, share a line); else the name a header or stub prints."""
    metric = cell_metric(inp, view, pos)
    if metric is None:
        return None
    if metric.metric is not None:
        return metric.metric.id
    if metric.origin == "cue" and (QUANTITY.search(metric.name) or DELTA.search(metric.name)):
        return metric.name if metric.name != view.table.caption else None  # a size, a cost, a difference
    return metric.name if metric.origin in ("header", "row") else None


def _quantity(inp: AuditInput, view: TableView, cells: list[Pos]) -> bool:
    """A line of sizes, costs or counts: its direction is never guessed from the bold cells of other lines."""
    metric = cell_metric(inp, view, cells[0])
    return (
        metric is not None
        and metric.metric is None
        and metric.name != view.table.caption
        and bool(QUANTITY.search(metric.name))
    )


def _direction(inp: AuditInput, view: TableView, cells: list[Pos]) -> str | None:
    votes: dict[str, int] = {}
    for pos in cells:
        metric = cell_metric(inp, view, pos)
        if metric is not None and metric.direction:
            votes[metric.direction] = votes.get(metric.direction, 0) + 1
    if len(votes) == 1:
        return next(iter(votes))
    return None


def _best(numbers: dict[Pos, PrintedNumber], cells: list[Pos], direction: str) -> list[Pos]:
    """Cells that no other cell of the line provably beats."""
    sign = 1 if direction == "higher" else -1
    top = max(cells, key=lambda p: sign * numbers[p].value)
    return [p for p in cells if not _beaten(numbers[p], numbers[top], direction)]


def _beaten(value: PrintedNumber, other: PrintedNumber, direction: str) -> bool:
    if direction == "higher":
        return value.interval.below(other.interval)
    return other.interval.below(value.interval)


def _judge(
    inp: AuditInput, view: TableView, axis: str, bold: set[Pos], eligible: set[Pos], split: dict[int, int] | None = None
) -> _Verdict:
    lines = [_Line(cells, _direction(inp, view, cells)) for cells in _lines(inp, view, axis, eligible, split)]
    inferred = _inferred_direction(view, [line for line in lines if line.direction is None], bold)
    verdict = _Verdict(axis, [], 0, [])
    for line in lines:
        direction = line.direction or (None if _quantity(inp, view, line.cells) else inferred)
        if direction is None:
            continue
        named = line.direction is not None or direction == text_direction(inp, view)
        line.direction = direction
        marked = [p for p in line.cells if p in bold]
        if not marked:
            best = _best(view.numbers, line.cells, direction)
            if len(best) == 1 and not _aggregate_line(view, axis, line.cells[0]):
                verdict.plain.append((line, best))
            continue
        for pos in marked:
            better = [p for p in line.cells if _beaten(view.numbers[pos], view.numbers[p], direction)]
            if better:
                verdict.violations.append((pos, _best(view.numbers, line.cells, direction), direction, named))
            else:
                verdict.confirmed += 1
    return verdict


def _aggregate_line(view: TableView, axis: str, pos: Pos) -> bool:
    """A mean or total row (column): authors seldom mark its best value."""
    label = view.row_labels.get(pos[0], "").split(" / ")[-1] if axis == "row" else view.leaf(pos[1])
    return aggregate_kind(label) is not None


def _inferred_direction(view: TableView, lines: list[_Line], bold: set[Pos]) -> str | None:
    """When nothing names the metric: the direction under which the bold values are the best, if unanimous."""
    at_max = at_min = 0
    for line in lines:
        marked = [p for p in line.cells if p in bold]
        if not marked or len({view.numbers[p].value for p in line.cells}) < 2:
            continue
        values = [view.numbers[p].value for p in line.cells]
        at_max += all(view.numbers[p].value == max(values) for p in marked)
        at_min += all(view.numbers[p].value == min(values) for p in marked)
    if at_max >= 2 and at_min * 4 <= at_max:
        return "higher"
    if at_min >= 2 and at_max * 4 <= at_min:
        return "lower"
    return None


def _line_name(view: TableView, axis: str, pos: Pos) -> str:
    if axis == "row":
        return f"row '{view.row_labels.get(pos[0], pos[0])}'"
    return f"column '{view.col_label(pos[1]) or pos[1]}'"


def _violation_issue(
    view: TableView, axis: str, pos: Pos, best: list[Pos], direction: str, named: bool, says: bool, bar: float
) -> Issue:
    """A bold value beaten in its line; declined (info, with the reason) unless the metric's name or the caption
    gives the direction and the table was read with the confidence a finding about its layout needs."""
    printed = view.numbers[pos]
    confidence = view.table.confidence
    declined = (
        "the metric's direction is named by neither its labels, the caption nor the text citing the table (only the "
        "bold cells suggest it)"
        if not named
        else f"the table was read at confidence {confidence:.2f} (< {bar:g}): what bold compares may be misread"
        if not view.table.artifact and confidence < bar
        else ""
    )
    other = "row" if axis == "col" else "col"
    better = ", ".join(f"{view.numbers[p].text} ({_line_name(view, other, p)})" for p in best)
    rule = "the caption says best values are bold" if says else "bold marks the best value in the other lines"
    return Issue(
        f"bold {printed.text} in {_line_name(view, axis, pos)} is not the best ({direction} is better): "
        f"{better} is better",
        certainty="declined" if declined else "likely",
        reason=declined or "what bold compares (which rows and columns, which direction) is read from the layout",
        table=view.table,
        cells=[pos, *best],
        expected={"best": [view.numbers[p].text for p in best], "direction": direction},
        found={"bold": printed.text},
        tolerance="printed precision: a value counts as worse only if its interval lies wholly below (or above)",
        details={"axis": axis, "rule": rule},
    )


def _plain_issue(view: TableView, axis: str, line: _Line, best: list[Pos]) -> Issue:
    shown = ", ".join(view.numbers[p].text for p in best)
    return Issue(
        f"best value {shown} in {_line_name(view, axis, best[0])} is printed plain, while the caption says best "
        f"values are bold ({line.direction} is better)",
        certainty="likely",
        reason="which cells the caption's 'best' compares is read from the layout",
        table=view.table,
        cells=best,
        expected={"bold": [view.numbers[p].text for p in best], "direction": line.direction},
        found={"bold": []},
        details={"axis": axis},
    )
