"""The click commands ``review``, ``freeze``, ``verify``, ``diff`` and ``export``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from pipeline.clikit import emit_result, handle_errors, json_option, locked, settings_of, wait_option
from pipeline.errors import EXIT_PROBLEMS, BadInputError
from pipeline.release.contents import opened_release, read_release
from pipeline.release.diff import diff_records, format_diff
from pipeline.release.freeze import FreezeOptions, today_utc
from pipeline.release.freeze import freeze as freeze_release
from pipeline.release.records import read_source_records, records_path
from pipeline.release.verify import verify_bag
from pipeline.reviews import (
    CATALOGUED,
    FINDING,
    RECORD,
    BadDecisionError,
    ReviewLog,
    parse_value,
    read_reviews,
    record_decision,
    reviews_path,
    undecided,
)
from pipeline.selection import resolve_sources
from pipeline.store import Workspace, read_findings

release_path = click.Path(exists=False, path_type=Path)


class CorrectedValue(click.ParamType):
    """--correct VALUE, read by the one reader of corrected values (the workbench uses it too)."""

    name = "VALUE"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        if isinstance(value, float):
            return value
        try:
            return parse_value(str(value))
        except BadDecisionError as exc:
            self.fail(str(exc), param, ctx)


def _decision(accept: bool, reject: bool, dismiss: bool, correct: float | None) -> tuple[str, float | None]:
    given = (("accept", accept), ("reject", reject), ("dismiss", dismiss), ("correct", correct is not None))
    chosen = [name for name, flag in given if flag]
    if len(chosen) != 1:
        raise BadInputError("review SOURCE ID needs exactly one of --accept, --reject, --dismiss or --correct VALUE")
    return chosen[0], correct


def _finding_ids(ws: Workspace, source_id: str) -> list[str]:
    return [f["id"] for f in read_findings(ws.audits_dir(source_id) / "findings.json")]


def _pending(ws: Workspace, source_ids: list[str], as_json: bool) -> None:
    rows: list[dict[str, Any]] = []
    counts: dict[str, dict[str, int]] = {}
    for sid in source_ids:
        records = read_source_records(ws, sid)
        entries = read_reviews(reviews_path(ws, sid))
        waiting_ids = set(undecided([r["id"] for r in records.rows], entries))
        waiting = [r for r in records.rows if r["id"] in waiting_ids]
        findings = _finding_ids(ws, sid)
        open_findings = undecided(findings, entries, FINDING)
        counts[sid] = {
            "records": len(records.rows),
            "pending": len(waiting),
            "findings": len(findings),
            "findings_pending": len(open_findings),
        }
        rows += [{"source_id": sid, "finding_id": fid} for fid in open_findings]
        rows += [
            {
                "source_id": sid,
                "record_id": r["id"],
                "locator_readable": r.get("locator_readable"),
                "printed": r.get("printed"),
                "findings": len(r.get("findings") or []),
            }
            for r in waiting
        ]
    lines = [
        f"{sid}: {c['pending']} of {c['records']} records need a decision"
        + (f"; {c['findings_pending']} of {c['findings']} findings" if c["findings"] else "")
        for sid, c in counts.items()
    ]
    lines += [
        f"  {r['source_id']}  {r['finding_id']}  (finding)"
        if "finding_id" in r
        else f"  {r['source_id']}  {r['record_id']}  {r['locator_readable']}  printed {r['printed']}"
        + (f"  [{r['findings']} finding(s)]" if r["findings"] else "")
        for r in rows
    ]
    emit_result(as_json, {"ok": True, "counts": counts, "pending": rows}, "\n".join(lines) or "no records to review")


@click.command()
@click.argument("source_id", required=False)
@click.argument("record_id", metavar="[ID]", required=False)
@click.option("--accept", is_flag=True, help="The record matches the source (or the finding is genuine).")
@click.option("--reject", is_flag=True, help="The record is wrong and should not be used: status 'rejected'.")
@click.option("--dismiss", is_flag=True, help="The finding is not a problem; its reason is kept.")
@click.option(
    "--correct", type=CorrectedValue(), metavar="VALUE", help="Record the right value beside the printed one."
)
@click.option("--note", default="", help="Why (kept in the log).")
@click.option("--reviewer", envvar="LITAUDIT_REVIEWER", default="", help="Who decides [env LITAUDIT_REVIEWER].")
@click.option("--pending", is_flag=True, help="List the records and findings still undecided (of SOURCE, or all).")
@json_option
@click.pass_context
@handle_errors
def review(
    ctx: click.Context,
    source_id: str | None,
    record_id: str | None,
    accept: bool,
    reject: bool,
    dismiss: bool,
    correct: float | None,
    note: str,
    reviewer: str,
    pending: bool,
    as_json: bool,
) -> None:
    """Record a reviewer's decision on one record or finding (ID), appended to audits/<source>/reviews.jsonl.

    Each entry carries the SHA-256 of the previous one; an edited history is refused (exit 1).
    """
    ws = Workspace(settings_of(ctx).root)
    if pending:
        if record_id or accept or reject or dismiss or correct is not None:
            raise BadInputError("review --pending takes at most a SOURCE, no record or decision")
        ids = [source_id] if source_id else [sid for sid in ws.scan_sources().ids if records_path(ws, sid)]
        _pending(ws, ids, as_json)
        return
    if not source_id or not record_id:
        raise BadInputError("review needs SOURCE ID and a decision (or --pending)")
    decision, value = _decision(accept, reject, dismiss, correct)
    records = read_source_records(ws, source_id)
    findings = _finding_ids(ws, source_id)
    kind = FINDING if record_id in findings else RECORD
    known = findings if kind == FINDING else [r["id"] for r in records.rows]
    log = ReviewLog(reviews_path(ws, source_id))
    before = undecided(known, log.entries(), kind)
    entry, added = record_decision(
        ws,
        source_id,
        record_id,
        decision,
        known=set(known),
        kind=kind,
        reviewer=reviewer,
        note=note,
        value=value,
        log=log,
    )
    payload = {"ok": True, "recorded": added, "review_status": entry.status, "entry": entry.to_dict()}
    verb = "recorded" if added else "already recorded"
    human = f"{source_id} {record_id}: {decision} {verb}; review status now '{entry.status}'"
    if added and record_id in before:
        human += f" (first decision on it; {len(before) - 1} {kind}(s) of {source_id} left to review)"
    emit_result(as_json, payload, human)


@click.command()
@click.option("--id", "source_ids", multiple=True, metavar="ID", help="Release only this source (repeatable).")
@click.option("--with-pdfs", is_flag=True, help="Include each source's PDF.")
@click.option(
    "--date",
    "day",
    envvar="LITAUDIT_RELEASE_DATE",
    default=None,
    metavar="YYYY-MM-DD",
    help="Release date (default: today, UTC) [env LITAUDIT_RELEASE_DATE].",
)
@wait_option
@json_option
@click.pass_context
@handle_errors
@locked
def freeze(ctx: click.Context, source_ids: tuple[str, ...], with_pdfs: bool, day: str | None, as_json: bool) -> None:
    """Freeze records, findings, reviews, catalogue and settings into releases/<date>-<hash>/ (BagIt) + .tar.gz.

    Refuses (exit 1) sources with a stage that is stale, failed or modified, or without records, naming each
    file and the command that fixes it.
    """
    settings = settings_of(ctx)
    ws = Workspace(settings.root)
    options = FreezeOptions(date=day or today_utc(), with_pdfs=with_pdfs)
    result = freeze_release(ws, settings, resolve_sources(ws, source_ids), options)
    c = result.counts
    state = "already frozen" if result.already_frozen else "frozen"
    lines = [
        f"{result.release_id}: {state} (sources {c['sources']}, records {c['records']}, findings {c['findings']}, "
        f"review decisions {c['reviews']}, PDFs {c['pdfs']})",
        f"undecided: {c['review_status'].get(CATALOGUED, 0)} records, {c['findings_undecided']} findings",
        f"folder:  {result.path}",
        f"archive: {result.archive}",
        *(f"note: {n}" for n in result.notes),
    ]
    emit_result(as_json, {"ok": True, **result.to_dict()}, "\n".join(lines))


@click.command()
@click.argument("release", type=release_path)
@click.option("--fast", is_flag=True, help="Only check the Payload-Oxum (file count and bytes); no re-hashing.")
@json_option
@handle_errors
def verify(release: Path, fast: bool, as_json: bool) -> None:
    """Re-hash a release (folder or .tar.gz) and name each missing, changed or extra file (exit 1)."""
    with opened_release(release) as bag_dir:
        report = verify_bag(bag_dir, fast=fast, shown_as=str(release))
    what = "Payload-Oxum only, contents not re-hashed" if fast else "every file re-hashed"
    tags = "" if fast else f" + {report.tag_files} tag files"
    summary = f"{report.files} payload files, {report.bytes} bytes{tags}; {what}"
    if report.ok:
        human = f"{release}: OK ({summary})"
    else:
        human = "\n".join([f"{release}: {len(report.problems)} problem(s) ({summary})", *map(str, report.problems)])
    emit_result(as_json, report.to_dict(), human)
    if not report.ok:
        raise SystemExit(EXIT_PROBLEMS)


@click.command()
@click.argument("a", type=release_path)
@click.argument("b", type=release_path)
@json_option
@handle_errors
def diff(a: Path, b: Path, as_json: bool) -> None:
    """Records added, removed and changed (value, mapping, review status) from release A to release B."""
    with opened_release(a) as dir_a, opened_release(b) as dir_b:
        old, new = read_release(dir_a), read_release(dir_b)
    result = diff_records(old.release_id, old.records, new.release_id, new.records)
    emit_result(as_json, {"ok": True, **result.to_dict()}, format_diff(result))
