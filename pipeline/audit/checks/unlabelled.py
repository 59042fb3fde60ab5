"""aggregate-row, unlabelled: a row (or column) that is the mean of the other lines of its block in every
position, while its label names something else ("dataset 4", a model): an aggregate reported as a result,
often a mean row pasted under the wrong label.

Only the first or last line of a block (a row group, a column group, or the whole table) can be such a
mean, of the block's other lines (two or more). It must hold, within rounding, in at least three positions,
all printed alike with two significant digits or more, and agreement that close must be unlikely by chance
(at most 1 in 1000, from the width of agreement against the spread of the parts in each position). A row naming
a task whose dataset rows are its parts is the task-level case of the labelled check and is left to it.
"""

from __future__ import annotations

from fractions import Fraction

from pipeline.audit.checks.base import Issue
from pipeline.audit.checks.verdicts import Verdict, aggregate_verdict, homogeneous
from pipeline.audit.context import AuditInput
from pipeline.audit.labels import announces_aggregate, row_dataset
from pipeline.audit.tableview import Pos, TableView

MIN_POSITIONS = 3
MAX_CHANCE = Fraction(1, 1000)


def unlabelled_means(inp: AuditInput) -> list[Issue]:
    issues: list[Issue] = []
    for view in inp.views:
        for axis in ("row", "col"):
            for block in _blocks(view, axis):
                for candidate in dict.fromkeys((block[0], block[-1])):
                    verdicts = _verdicts(view, axis, candidate, [i for i in block if i != candidate])
                    if _is_mean(view, verdicts) and not _task_level(inp, view, axis, candidate):
                        issues.append(_issue(view, axis, candidate, verdicts))
    return issues


def _label(view: TableView, axis: str, index: int) -> str:
    return view.row_labels.get(index, "").split(" / ")[-1] if axis == "row" else view.leaf(index)


def _blocks(view: TableView, axis: str) -> list[list[int]]:
    """Lines that may average one another: the rows of a row group, the columns of a column group."""
    lines = view.body_rows if axis == "row" else view.value_cols
    blocks: dict[object, list[int]] = {}
    for index in lines:
        if announces_aggregate(_label(view, axis, index)):
            continue  # a labelled aggregate: the labelled check judges it, and it averages nothing here
        key = view.row_groups.get(index) if axis == "row" else view.col_groups.get(index)
        blocks.setdefault(key, []).append(index)
    return [b for b in blocks.values() if len(b) >= 3]


def _verdicts(view: TableView, axis: str, candidate: int, parts: list[int]) -> list[Verdict]:
    verdicts = []
    for other in view.value_cols if axis == "row" else view.body_rows:
        pos = (candidate, other) if axis == "row" else (other, candidate)
        part_pos = [(p, other) if axis == "row" else (other, p) for p in parts]
        printed = view.numbers.get(pos)
        values = [view.numbers.get(p) for p in part_pos]
        if printed is None or any(v is None or v.form != printed.form for v in values):
            continue
        verdicts.append(aggregate_verdict(pos, printed, part_pos, [v for v in values if v is not None], "mean"))
    return verdicts


def _is_mean(view: TableView, verdicts: list[Verdict]) -> bool:
    """Every position agrees with the mean, in enough positions that vary and carry information, and the
    agreement is unlikely by chance."""
    varied = [v for v in verdicts if len({view.numbers[p].value for p in v.parts}) > 1]
    return (
        len(varied) >= MIN_POSITIONS
        and all(v.consistent and homogeneous(view, v) for v in verdicts)
        and all(view.numbers[p].informative for v in verdicts for p in (v.pos, *v.parts))
        and chance_agreement(view, varied) <= MAX_CHANCE
    )


def chance_agreement(view: TableView, verdicts: list[Verdict]) -> Fraction:
    """How likely a line of values spread like the parts would agree with their mean everywhere by chance: per
    position, the width of agreement (printed and computed intervals) over the range the parts span."""
    chance = Fraction(1)
    for verdict in verdicts:
        parts = [view.numbers[p].interval for p in verdict.parts]
        spread = max(i.hi for i in parts) - min(i.lo for i in parts)
        printed, computed = verdict.printed.interval, verdict.computed
        window = (printed.hi - printed.lo) + (computed.hi - computed.lo)
        chance *= min(Fraction(1), window / spread)
    return chance


def _task_level(inp: AuditInput, view: TableView, axis: str, row: int) -> bool:
    """A row naming a task whose parts are other rows of the table: the labelled check's task-level case."""
    if axis != "row":
        return False
    dataset = row_dataset(inp, view, row)
    if dataset is None or dataset.part:
        return False
    parts = (row_dataset(inp, view, r) for r in view.body_rows if r != row)
    return any(d is not None and d.task == dataset.task and d.part for d in parts)


def _issue(view: TableView, axis: str, candidate: int, verdicts: list[Verdict]) -> Issue:
    noun = "row" if axis == "row" else "column"
    parts = [p[0] if axis == "row" else p[1] for p in verdicts[0].parts]
    label = _label(view, axis, candidate) or str(candidate)
    names = ", ".join(f"'{_label(view, axis, p) or p}'" for p in parts)
    cells: list[Pos] = [v.pos for v in verdicts]
    return Issue(
        f"{noun} '{label}' is the mean of the {noun}s {names} in all {len(verdicts)} positions, within rounding, "
        f"but its label does not say so: an aggregate reported as a result of its own",
        table=view.table,
        cells=[*cells, *(p for v in verdicts for p in v.parts)],
        subjects=cells,
        expected={"kind": f"a {noun} of results, not the mean of other {noun}s"},
        found={"positions_equal_to_the_mean": len(verdicts)},
        tolerance="printed precision: each printed value stands for half a unit of its last digit either side; "
        "the mean of the parts' intervals meets the printed interval in every position",
        severity="warning",
        details={
            "verdict": "unlabelled mean",
            "axis": axis,
            "parts": parts,
            "chance_agreement": f"{float(chance_agreement(view, verdicts)):.1e} (at most {float(MAX_CHANCE):.0e})",
            "computations": [{"cell": list(v.pos), "computation": v.computation} for v in verdicts],
        },
    )
