"""Relations stated in the prose and the captions: every planted slip of the generated paper found through the
real CLI (fetch --file -> extract -> map -> emit -> audit), and none of its look-alikes raised."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import Invoke
from papers.relations_paper import relations_paper

from pipeline.audit.checks.derived.ratio import names_of, stated_ratios
from pipeline.audit.tableview import view_table
from pipeline.audit.text import header_unit, quantities, unit_key
from pipeline.fixtures.render import render_paper
from pipeline.model import Table
from pipeline.store import Workspace, safe_id

CHECKS = ("range-nesting", "text-unit-scale", "text-comparison-swapped", "identifier-truncated")


def test_every_planted_slip_is_found_and_no_look_alike_is_raised(
    invoke: Invoke, workspace: Workspace, tmp_path: Path
) -> None:
    spec = relations_paper()
    pdf = tmp_path / "relations.pdf"
    render_paper(spec, pdf)
    source_id = "local:relations"
    assert invoke("fetch", "--file", str(pdf), "--id", source_id).exit_code == 0
    for stage in ("extract", "map", "emit", "audit"):
        result = invoke(stage, source_id, "--json")
        assert result.exit_code in (0, 1), f"{stage}: {result.output}"
    document = json.loads((workspace.root / "audits" / safe_id(source_id) / "findings.json").read_text())
    problems = [f for f in document["findings"] if f["check"] in CHECKS and f["severity"] in ("error", "warning")]
    found = {(f["check"], f["table_label"]) for f in problems}
    planted = {(p.check, p.table) for p in spec.planted}
    assert found == planted, "\n".join(f["message"] for f in problems)
    # one finding per slip (the two text quotes of kcat make one: they share a sentence and a column)
    assert len(problems) == len(planted), "\n".join(f["message"] for f in problems)
    nesting = next(f for f in problems if f["check"] == "range-nesting")
    assert nesting["severity"] == "error" and "highest resolution shell" in nesting["message"]  # stated: a proof


def test_a_number_keeps_its_unit_and_a_header_its_power_of_ten() -> None:
    found = [(q.number, unit_key(q.unit)) for q in quantities("similar (89.2 s-1 versus 84.7 s−1) and 6.5 µM.")]
    assert found == [("89.2", "s-1"), ("84.7", "s-1"), ("6.5", "μm")]
    assert header_unit("kcat (10-3 s-1)") == (-3, "s-1")
    assert header_unit("Km (μM)") == (0, "μM")
    assert header_unit("Accuracy (%)") is None


def test_a_ratio_is_read_from_the_words_that_state_it() -> None:
    table = Table.from_grid(
        [["Trait", "Mean", "SDa", "CVb (%)"], ["Height", "1.92", "0.49", "27.37"], ["Yield", "3.41", "0.77", "22.6"]]
    )
    view = view_table(table)
    assert "sd" in names_of("SDa") and "standard deviation" in names_of("SD")
    caption = "bCV - (coefficient of variation), estimated as the ratio of the standard deviation to the mean."
    [statement] = stated_ratios(view, [caption])
    assert (statement.out, statement.a, statement.b, statement.percent) == ("CVb (%)", "SDa", "Mean", True)
    assert statement.sentence.startswith("coefficient of variation")
    assert stated_ratios(view, ["CV (%) is the mean of the per-plate coefficients of variation."]) == []
