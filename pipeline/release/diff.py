"""``litaudit diff``: records added, removed and changed between two releases.

A record is the same record in both releases when its source id and record id match (record ids are
derived from cell locators, so they are stable across re-runs). Changes are grouped by what moved:
the value, the mapping to the catalogue, or the review status. The mapping stage's scores
(``mapping``) are left out: they move with every tuning and say nothing about the result itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

FIELDS: dict[str, tuple[str, ...]] = {
    "value": ("printed", "value", "plus_minus", "percent", "unit", "catalogue_value", "rescale", "corrected_value"),
    "mapping": ("metric", "direction", "configuration", "model", "protocol", "dataset", "benchmark", "table_label"),
    "review": ("review_status",),
    "reproduction": ("reproduction.verdict", "reproduction.value"),
}

Key = tuple[str, str]


@dataclass(frozen=True)
class RecordChange:
    source_id: str
    record_id: str
    locator_readable: str
    changes: dict[str, dict[str, list[Any]]]  # group -> field -> [before, after]

    def to_dict(self) -> dict[str, Any]:
        return {
            "source_id": self.source_id,
            "record_id": self.record_id,
            "locator_readable": self.locator_readable,
            "changes": self.changes,
        }


@dataclass
class ReleaseDiff:
    a: str
    b: str
    added: list[dict[str, Any]] = field(default_factory=list)
    removed: list[dict[str, Any]] = field(default_factory=list)
    changed: list[RecordChange] = field(default_factory=list)

    @property
    def counts(self) -> dict[str, int]:
        return {"added": len(self.added), "removed": len(self.removed), "changed": len(self.changed)}

    def to_dict(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "counts": self.counts,
            "added": [brief(r) for r in self.added],
            "removed": [brief(r) for r in self.removed],
            "changed": [c.to_dict() for c in self.changed],
        }


def brief(record: dict[str, Any]) -> dict[str, Any]:
    """What identifies a record to a reader: where it is printed and what it says."""
    names = ("source_id", "id", "locator_readable", "dataset", "model", "configuration", "metric", "printed")
    return {name: record.get(name) for name in names} | {"review_status": record.get("review_status")}


def _by_key(records: list[dict[str, Any]]) -> dict[Key, dict[str, Any]]:
    return {(str(r.get("source_id")), str(r.get("id"))): r for r in records}


def field_value(record: dict[str, Any], name: str) -> Any:
    """A record's field; ``a.b`` reads b of the object in a (None when a is absent)."""
    head, _, rest = name.partition(".")
    value = record.get(head)
    return (value.get(rest) if isinstance(value, dict) else None) if rest else value


def record_changes(before: dict[str, Any], after: dict[str, Any]) -> dict[str, dict[str, list[Any]]]:
    changes: dict[str, dict[str, list[Any]]] = {}
    for group, names in FIELDS.items():
        moved = {
            n: [field_value(before, n), field_value(after, n)]
            for n in names
            if field_value(before, n) != field_value(after, n)
        }
        if moved:
            changes[group] = moved
    return changes


def diff_records(a_id: str, a: list[dict[str, Any]], b_id: str, b: list[dict[str, Any]]) -> ReleaseDiff:
    old, new = _by_key(a), _by_key(b)
    result = ReleaseDiff(a_id, b_id)
    result.added = [new[k] for k in sorted(new.keys() - old.keys())]
    result.removed = [old[k] for k in sorted(old.keys() - new.keys())]
    for key in sorted(old.keys() & new.keys()):
        changes = record_changes(old[key], new[key])
        if changes:
            result.changed.append(RecordChange(key[0], key[1], str(new[key].get("locator_readable", "")), changes))
    return result


def _line(mark: str, record: dict[str, Any]) -> str:
    what = " / ".join(str(record.get(n)) for n in ("dataset", "model", "metric") if record.get(n))
    where = f"{record.get('source_id')}  {record.get('id')}  {record.get('locator_readable')}"
    return f"{mark} {where}  {what} = {record.get('printed')}"


def format_diff(diff: ReleaseDiff) -> str:
    counts = diff.counts
    lines = [f"{diff.a} -> {diff.b}: {counts['added']} added, {counts['removed']} removed, {counts['changed']} changed"]
    lines += [_line("+", r) for r in diff.added]
    lines += [_line("-", r) for r in diff.removed]
    for change in diff.changed:
        moved = "; ".join(
            f"{name} {before!r} -> {after!r}"
            for group in change.changes.values()
            for name, (before, after) in group.items()
        )
        lines.append(f"~ {change.source_id}  {change.record_id}  {change.locator_readable}: {moved}")
    return "\n".join(lines)
