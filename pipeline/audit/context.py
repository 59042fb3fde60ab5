"""What the checks read: the tables, the paper's text, the catalogue and the records of one source."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pipeline.audit.settings import AuditSettings
from pipeline.audit.tableview import Pos, TableView, view_table
from pipeline.audit.text import PaperText, Sentence, cited_tables, split_sentences
from pipeline.audit.text import table_key as text_table_key
from pipeline.catalogue import Catalogue
from pipeline.errors import BadLocatorError
from pipeline.model import Locator, Record, Table, table_key

T = TypeVar("T")


def table_key_of(table: Table) -> str:
    """A table's id within its source, as its locators spell it: where it is printed and its key ("p3:Table3",
    "source.md:table-0"). A label printed again (a volume, a supplement that restarts its numbering) names
    another table: tables are told apart by their locator, never by label alone."""
    return f"{_where(table.page, table.artifact)}:{table_key(table.label, table.index, table.panel)}"


def table_parts(table: Table) -> list[str]:
    """The table part of its cells' locators: a continued table's cells carry the page they are printed on."""
    key = table_key(table.label, table.index, table.panel)
    pages = [table.page] if table.artifact else list(dict.fromkeys([table.page, *table.continued_pages]))
    return [f"{_where(page, table.artifact)}:{key}" for page in pages]


def _where(page: int, artifact: str) -> str:
    return artifact.replace(":", "_") if artifact else f"p{page}"


def locator_position(locator_id: str) -> tuple[str, int, int] | None:
    """(table part, row, col) of the cell a locator id points at, the part as :func:`table_parts` spells it;
    None for an id that does not read as one."""
    try:
        cell = Locator.parse(locator_id)
    except BadLocatorError:
        return None
    return (f"{cell.artifact or f'p{cell.page}'}:{cell.table}", cell.row, cell.col)


class TableIndex:
    """Which table a locator points at: each part of every table (its pages) to the table's key."""

    def __init__(self, tables: Iterable[Table]) -> None:
        self.keys = {part: table_key_of(t) for t in tables for part in table_parts(t)}

    def position(self, locator_id: str) -> tuple[str, int, int] | None:
        """(table key, row, col) of a locator id; a part of no known table keeps its own key."""
        found = locator_position(locator_id)
        return None if found is None else (self.keys.get(found[0], found[0]), found[1], found[2])


def nearest(items: Sequence[T], page: int, page_of: Callable[[T], int]) -> T | None:
    """The item printed nearest ``page`` (``items`` in page order); of two as near, the earlier. How a reference
    by label finds its table when the label is printed more than once."""
    at = bisect.bisect_left(items, page, key=page_of)
    around = [i for i in (at - 1, at) if 0 <= i < len(items)]
    best = min(around, key=lambda i: (abs(page_of(items[i]) - page), i), default=None)
    return None if best is None else items[best]


@dataclass
class AuditInput:
    """Everything one audit reads; ``text``, ``catalogue`` and ``records`` are None when absent."""

    source_id: str
    source_sha256: str
    tables: list[Table]
    text: PaperText | None = None
    catalogue: Catalogue | None = None
    records: list[Record] | None = None
    reproductions: list[dict[str, Any]] = field(default_factory=list)  # audits/<sid>/reproductions.jsonl
    settings: AuditSettings = field(default_factory=AuditSettings)
    views: list[TableView] = field(default_factory=list, init=False)
    cache: dict[Any, Any] = field(default_factory=dict, init=False, repr=False)  # derived facts, computed once
    index: TableIndex = field(init=False, repr=False)
    _by_cell: dict[tuple[str, int, int], Record] = field(default_factory=dict, init=False, repr=False)
    _by_table: dict[str, list[Record]] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        self.views = [view_table(t) for t in self.tables]
        self.index = TableIndex(self.tables)
        for record in self.records or []:
            position = self.index.position(record.locator or "")
            if position is not None:
                self._by_cell.setdefault(position, record)
                self._by_table.setdefault(position[0], []).append(record)

    def record_at(self, table: Table, pos: Pos) -> Record | None:
        return self._by_cell.get((table_key_of(table), *pos))

    def records_of(self, table: Table) -> list[Record]:
        return self._by_table.get(table_key_of(table), [])

    def view_of(self, table: Table) -> TableView:
        """The view made once for a table of this input (a table from elsewhere gets a new one)."""
        views = self.cache.setdefault("views by table", {id(v.table): v for v in self.views})
        return views.get(id(table)) or view_table(table)

    def cited(self, sentence: Sentence) -> dict[str, list[TableView]]:
        """The tables a sentence cites, by label key ("3", "S1"): each label read as the table printing it nearest
        the sentence (its parts on following pages included), so a label printed again in a volume or a
        supplement is not every copy at once."""
        return self._citations()[0].get(id(sentence), {})

    def citing(self, table: Table) -> list[Sentence]:
        """The sentences that cite this table, as :meth:`cited` resolves them."""
        return self._citations()[1].get(id(table), [])

    def statements_about(self, table: Table, *, pages: bool = False) -> list[str]:
        """What the paper says about a table, where a relation it states would be: the caption's sentences, the
        table's caption block in the text, the sentences citing it (:meth:`citing`) and (``pages``) every
        sentence of its pages, where journals print its footnotes."""
        found = split_sentences(table.caption or "")
        key = text_table_key(table.label)
        if self.text is not None and key:
            found += split_sentences(self.text.captions.get(key, ""))
            found += [s.text for s in self.citing(table)]
        for page in dict.fromkeys([table.page, *table.continued_pages]) if pages else []:
            found += [s.text for s in self.sentences_on(page)]
        return list(dict.fromkeys(found))

    def sentences_on(self, page: int) -> list[Sentence]:
        """The sentences printed on ``page``, found without reading every sentence of the paper."""
        pages = self.cache.get("sentences by page")
        if pages is None:
            pages = self.cache["sentences by page"] = {}
            for sentence in self.text.sentences if self.text is not None else []:
                pages.setdefault(sentence.page, []).append(sentence)
        return pages.get(page, [])  # type: ignore[no-any-return]

    def uncited_on(self, page: int) -> list[Sentence]:
        """The sentences printed on ``page`` that cite no table (a table's footnotes, printed as text)."""
        return self._citations()[2].get(page, [])

    def named(self, keys: set[str], page: int) -> dict[str, list[TableView]]:
        """The tables that label keys name in text printed on ``page``: each label read as the table printing it
        nearest (its parts on following pages included)."""
        runs = self._runs()
        return {k: run for k in sorted(keys) if (run := nearest(runs.get(k, []), page, _run_page))}

    def _runs(self) -> dict[str, list[list[TableView]]]:
        """Label key -> its tables, a run over following pages as one."""
        if "label runs" in self.cache:
            return self.cache["label runs"]  # type: ignore[no-any-return]
        runs: dict[str, list[list[TableView]]] = {}
        for view in sorted(self.views, key=lambda v: (v.table.page, v.table.index)):
            key = text_table_key(view.table.label)
            if key is None:
                continue
            found = runs.setdefault(key, [])
            last = found[-1][-1].table if found else None
            if last is not None and view.table.page - max([last.page, *last.continued_pages]) <= 1:
                found[-1].append(view)
            else:
                found.append([view])
        self.cache["label runs"] = runs
        return runs

    def _citations(
        self,
    ) -> tuple[dict[int, dict[str, list[TableView]]], dict[int, list[Sentence]], dict[int, list[Sentence]]]:
        if "citations" in self.cache:
            return self.cache["citations"]  # type: ignore[no-any-return]
        by_sentence: dict[int, dict[str, list[TableView]]] = {}
        by_table: dict[int, list[Sentence]] = {}
        uncited: dict[int, list[Sentence]] = {}
        for sentence in self.text.sentences if self.text is not None else []:
            keys = cited_tables(sentence.text)
            if not keys:
                uncited.setdefault(sentence.page, []).append(sentence)
            resolved = self.named(keys, sentence.page)
            by_sentence[id(sentence)] = resolved
            for run in resolved.values():
                for view in run:
                    by_table.setdefault(id(view.table), []).append(sentence)
        self.cache["citations"] = (by_sentence, by_table, uncited)
        return by_sentence, by_table, uncited

    def has(self, need: str) -> bool:
        return getattr(self, need) is not None


def _run_page(run: list[TableView]) -> int:
    return run[0].table.page
