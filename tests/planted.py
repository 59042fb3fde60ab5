"""A generated paper through the real CLI (fetch --file -> extract -> map -> emit -> audit), and its error and
warning findings beside the problems planted in it: what the planted-paper tests of the audit compare."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from conftest import Invoke

from pipeline.fixtures.render import render_paper
from pipeline.fixtures.spec import PaperSpec
from pipeline.store import Workspace, safe_id

Key = tuple[str, str | None, int | None]


def finding_row(locator: str) -> int:
    return int(locator.rsplit(":", 2)[1][1:])


def audit_planted(
    spec: PaperSpec, name: str, invoke: Invoke, workspace: Workspace, tmp_path: Path, checked: Callable[[str], bool]
) -> tuple[set[Key], list[dict]]:
    """The planted (check, table, row) keys, and the error and warning findings of the checks ``checked`` keeps."""
    pdf = tmp_path / f"{name}.pdf"
    render_paper(spec, pdf)
    source_id = f"local:{name}"
    assert invoke("fetch", "--file", str(pdf), "--id", source_id).exit_code == 0
    for stage in ("extract", "map", "emit", "audit"):
        result = invoke(stage, source_id, "--json")
        assert result.exit_code in (0, 1), f"{stage}: {result.output}"
    document = json.loads((workspace.root / "audits" / safe_id(source_id) / "findings.json").read_text())
    problems = [f for f in document["findings"] if checked(f["check"]) and f["severity"] in ("error", "warning")]
    return {(p.check, p.table, p.row) for p in spec.planted}, problems


def assert_found_exactly(planted: set[Key], problems: list[dict]) -> None:
    """Every planted problem found, at the planted row, and no other error or warning (no look-alike flagged)."""
    found = {(f["check"], f["table_label"], finding_row(f["locators"][0])) for f in problems}
    assert planted - found == set(), f"missed: {planted - found}"
    assert found - planted == set(), "false alarms: " + "; ".join(
        f["message"] for f in problems if (f["check"], f["table_label"], finding_row(f["locators"][0])) not in planted
    )
