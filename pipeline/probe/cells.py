"""Which records to reproduce: ``--select`` expressions such as ``dataset=*tata*,configuration=4-mer``.

An expression is ``field=pattern`` terms joined by commas, all of which must match; several ``--select``
options are alternatives. Patterns are shell globs compared without regard to case.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fnmatch import fnmatchcase

from pipeline.errors import BadInputError
from pipeline.model import Record
from pipeline.probe.models import normal_name, record_names


class SelectError(BadInputError):
    """A --select expression names an unknown field or has no '='."""


def _metric_names(record: Record) -> list[str | None]:
    return [record.metric, record.mapping.get("metric_printed") if isinstance(record.mapping, dict) else None]


FIELDS: dict[str, Callable[[Record], list[str | None]]] = {
    "dataset": lambda r: [r.dataset],
    "configuration": lambda r: list(record_names(r)),
    "metric": _metric_names,
    "table": lambda r: [r.table_label],
    "id": lambda r: [r.id],
}


@dataclass(frozen=True)
class Term:
    field: str
    pattern: str

    def matches(self, record: Record) -> bool:
        wanted = normal_name(self.pattern)
        return any(v is not None and fnmatchcase(normal_name(v), wanted) for v in FIELDS[self.field](record))


def parse_select(expression: str) -> list[Term]:
    terms = []
    for part in (p.strip() for p in expression.split(",")):
        name, eq, pattern = part.partition("=")
        if not eq or not pattern.strip():
            raise SelectError(f"--select {expression!r}: expected field=pattern terms joined by ',' (got {part!r})")
        if name.strip() not in FIELDS:
            raise SelectError(f"--select {expression!r}: unknown field {name.strip()!r} (expected {', '.join(FIELDS)})")
        terms.append(Term(name.strip(), pattern.strip()))
    return terms


def select_records(records: list[Record], expressions: tuple[str, ...]) -> list[Record]:
    """The records any expression matches (every record when there is none)."""
    alternatives = [parse_select(e) for e in expressions]
    if not alternatives:
        return list(records)
    return [r for r in records if any(all(t.matches(r) for t in terms) for terms in alternatives)]
