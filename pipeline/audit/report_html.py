"""audits/<source>/report.html: one self-contained page (inline CSS, images as data URIs, no network).

It opens with the problems: the counts (each a link), then the error, warning and needs-check findings, each
linking to its table and crop, then the index of tables with the severities each holds; the checks that ran
come after. Per table: the cropped page image with flagged cells outlined, the extracted grid beside it, the
findings with their locators and computations, the records with reviewers' latest decisions.
"""

from __future__ import annotations

import base64
from html import escape
from importlib import resources

from pipeline.audit.checks.base import SEVERITIES
from pipeline.audit.render import no_image_reason
from pipeline.audit.report_data import (
    GridCell,
    Numbered,
    RecordRow,
    Report,
    TableReport,
    certainty,
    plain,
    reproduction_text,
    review_of,
)
from pipeline.model import where_printed
from pipeline.readers.agreement import readings_note

LEAD_SEVERITIES = ("error", "warning", "needs-check")  # listed first, before any table: what a reader must see


def render_html(report: Report) -> str:
    css = resources.files("pipeline.audit").joinpath("report.css").read_text(encoding="utf-8")
    body = [_header(report), "<main>"]
    if report.paper_findings:
        body.append(
            f'<section class="paper" id="{PAPER_ANCHOR}"><h2>Whole paper</h2>'
            + _findings(report.paper_findings)
            + "</section>"
        )
    body += [_table(section) for section in report.tables]
    if report.other_records:
        body.append('<section class="paper"><h2>Records outside the tables above</h2>')
        body.append(_records(report.other_records) + "</section>")
    if report.reproduced_records:
        body.append(_reproductions(report))
    body.append("</main>")
    title = escape(f"Audit of {report.source_id}")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{title}</title><style>{css}</style></head>\n<body>\n" + "\n".join(body) + "\n</body></html>\n"
    )


def _header(report: Report) -> str:
    where = _places(report)
    first = {}
    for item in report.all_findings:
        first.setdefault(item.finding.severity, item.number)
    counts = "".join(_count(s, n, first.get(s)) for s, n in report.counts.items())
    records = sum(len(t.records) for t in report.tables) + len(report.other_records)
    counts += f'<a class="count" href="#tables"><b>{len(report.tables)}</b>tables</a>'
    counts += f'<div class="count"><b>{records}</b>records</div>'
    rows = "".join(
        f"<tr><td><code>{escape(c.id)}</code></td><td>{_badge(c.severity)}</td><td>{escape(c.summary)}</td>"
        f"<td>{'ran' if c.status == 'ran' else 'skipped: ' + escape(c.reason)}</td><td>{_raised(c.raised)}</td></tr>"
        for c in report.checks
    )
    notes = "".join(f"<li>{escape(n)}</li>" for n in report.notes)
    return (
        f"<header><h1>Audit of {escape(report.source_id)}</h1>"
        f'<div class="meta">source SHA-256 <code>{escape(report.source_sha256)}</code></div>'
        f'<div class="summary">{counts}</div>'
        + _problems(report, where)
        + _index(report)
        + '<h2 id="checks">Checks</h2>'
        + '<table class="checks"><tr><th>check</th><th>default severity</th><th>what it looks for</th><th>status</th>'
        f"<th>findings raised</th></tr>{rows}</table>" + (f"<ul>{notes}</ul>" if notes else "") + "</header>"
    )


PAPER_ANCHOR = "paper"


def _count(severity: str, n: int, first: int | None) -> str:
    """A count box; a link to where its findings are listed (the problems, or the first info finding)."""
    text = f"<b>{n}</b>{escape(severity)}{'s' if n != 1 else ''}"
    if not n:
        return f'<div class="count {escape(severity)}">{text}</div>'
    target = f"problems-{severity}" if severity in LEAD_SEVERITIES else f"finding-{first}"
    return f'<a class="count {escape(severity)}" href="#{escape(target)}">{text}</a>'


def _places(report: Report) -> dict[int, TableReport]:
    """Each finding's number -> the table section that holds it (absent: the whole paper)."""
    return {item.number: section for section in report.tables for item in section.findings}


def _problems(report: Report, where: dict[int, TableReport]) -> str:
    """The error, warning and needs-check findings, worst first, each with links to its table and its crop."""
    groups = []
    for severity in LEAD_SEVERITIES:
        items = [n for n in report.all_findings if n.finding.severity == severity]
        if not items:
            continue
        lines = "".join(_problem(item, where.get(item.number)) for item in items)
        title = f"{len(items)} {severity}{'s' if len(items) != 1 else ''}"
        groups.append(f'<h3 id="problems-{escape(severity)}">{escape(title)}</h3><ol class="problems">{lines}</ol>')
    if not groups:
        return (
            '<section class="problems" id="problems"><p class="none">No errors, warnings or needs-checks.</p></section>'
        )
    return '<section class="problems" id="problems"><h2>To review first</h2>' + "".join(groups) + "</section>"


def _problem(item: Numbered, section: TableReport | None) -> str:
    f = item.finding
    links = [f'<a href="#finding-{item.number}">finding {item.number}</a>']
    if section is None:
        links.append(f'<a href="#{PAPER_ANCHOR}">whole paper</a>')
    else:
        links.append(f'<a href="#{section.anchor}">{escape(section.title)}</a>')
        if section.image is not None:
            links.append(f'<a href="#{section.anchor}-crop">crop</a>')
    review = f' <span class="meta">({escape(review_of(f))})</span>' if review_of(f) else ""
    return (
        f'<li value="{item.number}">{_badge(f.severity)} <code>{escape(f.check)}</code> {escape(f.message)}'
        f'{review} <span class="links">{" · ".join(links)}</span></li>'
    )


def _index(report: Report) -> str:
    """The tables in order, each with the severities of its findings (worst first) and its records."""
    entries = []
    for t in report.tables:
        held = {}
        for item in t.findings:
            held[item.finding.severity] = held.get(item.finding.severity, 0) + 1
        ranked = sorted(held.items(), key=lambda kv: SEVERITIES.index(kv[0]) if kv[0] in SEVERITIES else 9)
        severities = " ".join(f"{n} {_badge(s)}" for s, n in ranked) or '<span class="none">no findings</span>'
        entries.append(
            f'<li><a href="#{t.anchor}">{escape(t.title)}</a> {severities} · {len(t.records)} record(s)</li>'
        )
    if not entries:
        return ""
    return f'<nav id="tables"><h2>Tables</h2><ul>{"".join(entries)}</ul></nav>'


def _badge(severity: str) -> str:
    return f'<span class="sev {escape(severity)}">{escape(severity)}</span>'


def _raised(raised: dict[str, int]) -> str:
    """What the check's findings actually are: "1 <warning badge>", not the check's default severity."""
    return " ".join(f"{n} {_badge(severity)}" for severity, n in raised.items()) or "0"


def _table(section: TableReport) -> str:
    table = section.table
    if section.image is not None:
        data = base64.b64encode(section.image).decode("ascii")
        figure = (
            f'<figure id="{section.anchor}-crop"><img alt="{escape(section.title)} as printed on page {table.page}" '
            'src="data:image/png;base64,'
            f'{data}"><figcaption>As printed (page {table.page}); flagged cells outlined, numbered as the findings'
            "</figcaption></figure>"
        )
    else:
        figure = f'<figure><p class="none">{escape(no_image_reason(table))}</p></figure>'
    readings = f"; {escape(note)}" if (note := readings_note(table)) else ""
    grid = (
        f'<div class="extracted"><p>As extracted ({table.n_rows} × {table.n_cols}; '
        f"{table.header_rows} header row(s), {table.stub_cols} stub column(s){readings})</p>"
        f"{_grid(section.grid)}</div>"
    )
    findings = _findings(section.findings) if section.findings else '<p class="none">No findings.</p>'
    records = _records(section.records) if section.records else '<p class="none">No records.</p>'
    return (
        f'<section class="table" id="{section.anchor}"><h2>{escape(section.title)} '
        f'<span class="meta">{escape(where_printed(table.page, table.place or table.artifact))}</span></h2>'
        f'<p class="caption">{escape(table.caption) or "<i>no caption</i>"}</p>'
        f'<div class="side">{figure}{grid}</div>'
        f"<h3>Findings</h3>{findings}<h3>Records</h3>{records}</section>"
    )


def _grid(grid: list[list[GridCell]]) -> str:
    rows = []
    for row in grid:
        cells = []
        for cell in row:
            if cell.text is None:
                continue
            classes = [cell.kind, "bold" if cell.bold else "", cell.severity or ""]
            span = (f' rowspan="{cell.row_span}"' if cell.row_span > 1 else "") + (
                f' colspan="{cell.col_span}"' if cell.col_span > 1 else ""
            )
            refs = f'<sup class="refs">{",".join(str(n) for n in cell.numbers)}</sup>' if cell.numbers else ""
            cells.append(f'<td class="{" ".join(c for c in classes if c)}"{span}>{escape(cell.text)}{refs}</td>')
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return '<table class="grid">' + "".join(rows) + "</table>"


def _findings(items: list[Numbered]) -> str:
    out = []
    for item in items:
        f = item.finding
        evidence = [
            f"<li>at {escape(readable)} <code>{escape(locator)}</code></li>"
            for readable, locator in zip(f.locators_readable, f.locators, strict=False)
        ]
        for name, value in (("expected", f.expected), ("found", f.found), ("tolerance", f.tolerance)):
            if plain(value):
                evidence.append(f"<li>{name}: {escape(plain(value))}</li>")
        if certainty(f):
            evidence.insert(0, f"<li>certainty: {escape(certainty(f))}</li>")
        if review_of(f):
            evidence.insert(0, f"<li>review: {escape(review_of(f))}</li>")
        evidence += [
            f"<li>r{c['cell'][0]}c{c['cell'][1]}: {escape(c['computation'])}</li>"
            for c in f.details.get("computations", [])
        ]
        if f.record_ids:
            ids = escape(", ".join(f.record_ids))
            summary = f"<summary>concerns {len(f.record_ids)} record(s)</summary>"
            evidence.append(f"<li><details>{summary}<code>{ids}</code></details></li>")
        out.append(
            f'<li value="{item.number}" id="finding-{item.number}">{_badge(f.severity)} <code>{escape(f.check)}</code> '
            f'{escape(f.message)} <span class="meta mono">{escape(f.id)}</span>'
            f'<ul class="evidence">{"".join(evidence)}</ul></li>'
        )
    return '<ol class="findings">' + "".join(out) + "</ol>"


def _records(rows: list[RecordRow]) -> str:
    head = (
        "<tr><th>record</th><th>at (locator)</th><th>printed</th><th>metric</th><th>dataset</th>"
        "<th>configuration</th><th>findings (limitations)</th><th>review</th></tr>"
    )
    body = []
    for row in rows:
        r = row.record
        review = '<span class="none">none</span>'
        if row.decision is not None:
            d = row.decision
            value = f" → {escape(str(d.value))}" if d.decision == "correct" else ""
            note = f"<br>{escape(d.note)}" if d.note else ""
            review = (
                f'<span class="decision {escape(d.decision)}">{escape(d.decision)}{value}</span> '
                f"{escape(d.reviewer)} {escape(d.date)}{note}"
            )
        limits = (
            " ".join(
                f'<a href="#finding-{n.number}">{_badge(n.finding.severity)} {n.number} {escape(n.finding.check)}</a>'
                for n in row.findings
            )
            or '<span class="none">none</span>'
        )
        body.append(
            f"<tr><td><code>{escape(r.id)}</code></td><td>{escape(r.locator_readable)}<br>"
            f"<code>{escape(r.locator)}</code></td><td>{escape(r.printed)}</td><td>{escape(r.metric or '')}</td>"
            f"<td>{escape(r.dataset or '')}</td><td>{escape(r.configuration or r.model or '')}</td>"
            f"<td>{limits}</td><td>{review}</td></tr>"
        )
    return '<table class="records">' + head + "".join(body) + "</table>"


def _reproductions(report: Report) -> str:
    """Printed cells re-run by litaudit probe reproduce, with the verdict."""
    rows = "".join(
        f"<tr><td><code>{escape(r.id)}</code></td><td>{escape(r.locator_readable)}</td><td>{escape(r.printed)}</td>"
        f"<td>{escape(reproduction_text(r.reproduction or {}))}</td></tr>"
        for r in report.reproduced_records
    )
    head = "<tr><th>record</th><th>at (locator)</th><th>printed</th><th>reproduction</th></tr>"
    return f'<section class="paper"><h2>Reproductions</h2><table class="records">{head}{rows}</table></section>'
