"""The catalogue's Source record of one paper version (shared/catalogue/RECORD_FORMAT.md): ids, version, hash,
retrieval time, publication status, missing metadata, and the paper's limitations, one plain sentence per
distinct problem.

Limitations come from the records (aggregate rows, metrics printed under non-standard names, data published in
another benchmark, spreads the paper does not name) and, once the audit has run, from its findings (each kind
of problem said once, with the tables it concerns).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import Any

from pipeline.model import Finding, Record, Source

PREFIX = "lit-genomics"


def source_record(source: Source, records: list[Record], findings: Iterable[Finding] = ()) -> dict[str, Any]:
    """The Source record in the catalogue's field names (values None where the paper does not say)."""
    return {
        "stable_id": stable_id(source, records),
        "title": source.title,
        "url": source.url,
        "artifact_url": source.artifact_url,
        "version": source.version,
        "retrieved_at": source.retrieved_at,
        "artifact_sha256": source.sha256,
        "media_type": source.media_type,
        "publication_status": source.publication_status,
        "missing_metadata": {m.field: {"reason": m.reason, "note": m.note} for m in source.missing_metadata},
        "limitations": limitations(records, findings),
        "review": _review(source),
        "release": None,
    }


def stable_id(source: Source, records: list[Record]) -> str:
    """``lit-genomics-<YYYYMMDD>-<benchmark>-source-<firstauthor><year>``."""
    date = re.sub(r"\D", "", source.retrieved_at)[:8]
    benchmarks = Counter(r.benchmark for r in records if r.benchmark)
    benchmark = _slug(benchmarks.most_common(1)[0][0]) if benchmarks else "unlinked"
    author = _slug(source.authors[0].split()[-1]) if source.authors else "anonymous"
    year = (source.published or source.retrieved_at)[:4]
    return f"{PREFIX}-{date}-{benchmark}-source-{author}{year}"


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _review(source: Source) -> dict[str, Any]:
    done = [v for v in source.verifications if v.result == "match"]
    if not done:
        return {
            "method": None,
            "method_note": "Not reviewed yet.",
            "reviewer": None,
            "reviewer_note": None,
            "date": None,
        }
    last = done[-1]
    note = "Artifact re-retrieved or unpacked and SHA-256 matched."
    return {"method": last.method, "method_note": note, "reviewer": None, "reviewer_note": last.note, "date": last.date}


def _tables(labels: Iterable[str | None]) -> str:
    """'Table 2', 'Tables 2 and 5', 'Tables 2, 5 and 7' (document order)."""
    found = list(dict.fromkeys(label for label in labels if label))
    if len(found) <= 1:
        return found[0] if found else "An unlabelled table"
    numbers = [label.split(" ", 1)[-1] for label in found]
    return f"Tables {', '.join(numbers[:-1])} and {numbers[-1]}"


def limitations(records: list[Record], findings: Iterable[Finding] = ()) -> list[str]:
    """One sentence per distinct problem: from the findings when the audit has run, else from the records."""
    said: list[str] = []
    by_check: dict[str, list[Finding]] = defaultdict(list)
    for finding in findings:
        if finding.is_limitation:
            by_check[finding.check].append(finding)
    for check, found in by_check.items():
        said += _from_findings(check, found)
    said += _from_records(records, set(by_check))
    return list(dict.fromkeys(said))


def _from_findings(check: str, findings: list[Finding]) -> list[str]:
    texts = [str(f.details["limitation_text"]) for f in findings if f.details.get("limitation_text")]
    if texts:
        return texts
    if check == "undefined-metric":
        metrics = dict.fromkeys(m.group(1) for f in findings if (m := re.search(r"metric '([^']+)'", f.message)))
        return [
            f"{_tables(f.table_label for f in findings)} report '{metric}' scores; the paper does not define {metric}."
            for metric in metrics
        ]
    if check == "dataset-reused":
        return _reused(findings)
    if check == "caption-column-count":
        return [_sentence(f.message) for f in findings]
    return [f"{f.table_label or 'A table'}: {_sentence(f.message)}" for f in findings]


def _reused(findings: list[Finding]) -> list[str]:
    """One sentence per benchmark the data were published in before, naming the tasks."""
    tasks: dict[str, list[str]] = defaultdict(list)
    for finding in findings:
        origins = finding.details.get("origins") or [str(finding.found.get("dataset_benchmark", "another benchmark"))]
        tasks[origins[0]] += [str(t) for t in finding.details.get("tasks", [])]
    return [
        f"Datasets published before in {origin} ({', '.join(dict.fromkeys(names))}) are re-run under this paper's "
        f"own protocol; their values do not compare with {origin}{chr(39) if origin.endswith('s') else chr(39) + 's'}."
        for origin, names in tasks.items()
    ]


def _sentence(message: str) -> str:
    text = message.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _from_records(records: list[Record], checked: set[str]) -> list[str]:
    said = []
    aggregated: dict[str, list[str | None]] = defaultdict(list)
    for record in records:
        match = re.search(r"mean of the (.+?) dataset rows", record.aggregation)
        if match and record.aggregation.startswith("task-level"):
            aggregated[match.group(1)].append(record.table_label)
    if "cross-table-mean" not in checked:
        for parts_table, labels in aggregated.items():
            said.append(f"{_tables(labels)} rows for multi-dataset tasks are means of the {parts_table} dataset rows.")
    if "undefined-metric" not in checked:
        printed: dict[str, list[str | None]] = defaultdict(list)
        for record in records:
            form, standard = record.mapping.get("metric_printed"), record.mapping.get("metric_standard", True)
            if form and form != record.metric and not standard:
                printed[form].append(record.table_label)
        for form, labels in printed.items():
            said.append(f"{_tables(labels)} report '{form}' scores, a metric name that is not standard.")
    if "dataset-reused" not in checked:
        elsewhere = list(dict.fromkeys(s.split()[0] for r in records for s in r.also_published_in))
        if elsewhere:
            said.append(
                f"Datasets also published in {' and '.join(elsewhere)} are re-run under this paper's own protocol; "
                "their values do not compare with those benchmarks' results."
            )
    unnamed = [r.table_label for r in records if r.plus_minus is not None and "does not say" in r.uncertainty]
    if unnamed:
        said.append(f"{_tables(unnamed)} print '±' spreads without saying what they are.")
    return said
