"""cross-table-mean: a task-level value proved per model to be (or not to be) the mean of its dataset rows in
another table, from the records that say which cell is which."""

from __future__ import annotations

from pathlib import Path

import pytest
from grids import table_from_grid

from pipeline.audit.checks import run_checks
from pipeline.audit.context import AuditInput
from pipeline.catalogue import Catalogue, load_catalogue
from pipeline.model import Finding, Record, Table

ROOT = Path(__file__).resolve().parents[1]
SHA = "ab" * 32
TASK = "GenBench Human Core Promoter Detection"
CONFIGS = ("NT (GenBench)", "Caduceus (GenBench)")


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return load_catalogue(ROOT / "config")


def _records(table: Table, datasets: dict[int, str], percent: bool = False) -> list[Record]:
    """One record per value cell: rows name datasets, columns 1.. the configurations."""
    key = str(table.label).replace(" ", "")
    out = []
    for cell in table.cells:
        if cell.row in datasets and cell.col >= 1:
            out.append(
                Record(
                    id=f"rec:{key}:{cell.row}:{cell.col}",
                    source_id="local:t",
                    source_sha256=SHA,
                    table_label=table.label,
                    page=table.page,
                    bbox=None,
                    locator=f"{SHA[:12]}:p{table.page}:{key}:r{cell.row}:c{cell.col}",
                    locator_readable="",
                    printed=cell.text,
                    value=float(cell.text),
                    plus_minus=None,
                    percent=percent,
                    metric="accuracy",
                    unit="fraction",
                    direction="higher",
                    configuration=CONFIGS[cell.col - 1],
                    model=None,
                    protocol=None,
                    dataset=datasets[cell.row],
                    benchmark="GenBench",
                    rescale="printed in percent" if percent else None,
                )
            )
    return out


def _findings(catalogue: Catalogue, task_values: tuple[str, str], percent: bool = False) -> list[Finding]:
    task = table_from_grid([["Task", "NT", "Caduceus"], ["Core Promoter Detection", *task_values]], label="Table 4")
    parts = [["notata", "0.702", "0.690"], ["tata", "0.781", "0.790"], ["all", "0.654", "0.700"]]
    if percent:
        parts = [[name, *(f"{100 * float(v):.1f}" for v in values)] for name, *values in parts]
    grid = [["Dataset", "NT", "Caduceus"], *parts]
    detail = table_from_grid(grid, label="Table 10", page=9, index=1)
    records = _records(task, {1: TASK}, False)
    records += _records(detail, {r: f"{TASK}, dataset {grid[r][0]}" for r in (1, 2, 3)}, percent)
    inp = AuditInput("local:t", SHA, [task, detail], catalogue=catalogue, records=records)
    return [f for f in run_checks(inp).findings if f.check == "cross-table-mean"]


@pytest.mark.parametrize("percent", [False, True])
def test_a_task_value_that_is_the_mean_is_noted_with_its_computation(catalogue: Catalogue, percent: bool) -> None:
    [note] = _findings(catalogue, ("0.712", "0.727"), percent)  # means 0.71233 and 0.72667
    assert note.severity == "info" and note.table_label == "Table 4"
    assert "is the mean of its dataset rows in Table 10 (notata, tata, all) for all 2 model(s)" in note.message
    assert "NT (GenBench): 0.712 vs mean(" in note.message
    assert (
        note.details["limitation_text"]
        == "Table 4 rows for multi-dataset tasks are means of the Table 10 dataset rows."
    )
    assert len(note.locators) == 2 + 6  # the task cells and, elsewhere, the dataset cells


def test_a_task_value_that_is_not_the_mean_is_a_warning(catalogue: Catalogue) -> None:
    [warning] = _findings(catalogue, ("0.730", "0.727"))
    assert warning.severity == "warning"
    assert "for 1 of 2 model(s) (NT (GenBench))" in warning.message and "does not hold" in warning.message
