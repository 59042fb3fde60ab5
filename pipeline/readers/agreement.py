"""Two readings of one table: the PDF's cells checked against the authors' source, cell by cell.

Tables are matched by label and panel (else by caption, else by shared cell texts); cells by grid position
when both grids have the same shape, else by their row and column labels. A cell agrees when both readings
print the same value (number, spread and percent sign) or, for words, the same text up to spacing and case.
Texts and labels are compared without the markup one reading keeps and the other renders: citations
("<cit.>" from a citation command, "[12]", "(Smith et al., 2020)"), math marks ("β_1" for a printed "β1", "$", "^",
braces) and leftover macro names; so a label with a citation still pairs its cells, and every value cell
the two readings pair is compared. Each table's note says how many body cells were paired.
"""

from __future__ import annotations

import re
from collections import Counter

from rapidfuzz import fuzz

from pipeline.model import Cell, SecondReading, Table, table_key

CAPTION_MATCH = 85  # rapidfuzz ratio above which two unlabelled tables' captions name the same table
SHARED_TEXT = 0.6  # share of cell texts two tables without label or caption must share to be one table
READ_TWICE = "read twice"  # how a table's note on its two readings starts


def readings_note(table: Table) -> str:
    """The table's note on how many of its cells the second reading confirms ("" when read once)."""
    return next((note for note in table.notes if note.startswith(READ_TWICE)), "")


_CITATION = re.compile(
    r"<cit\.>|\\cite[a-z]*\*?(?:\[[^\]]*\])*\{[^}]*\}|\[\d+(?:\s*[,\u2013-]\s*\d+)*\]"
    r"|\([^()]*(?:et al\.?|\d{4}[a-z]?)[^()]*\)"
)
_MARKUP = re.compile(r"\\[a-zA-Z]+|[$_^{}~]")


def _norm(text: str) -> str:
    """The text as both readings print it: no citation, math mark or macro name, no spacing, lower case."""
    text = _MARKUP.sub("", _CITATION.sub("", text.replace("\u2212", "-")))
    return re.sub(r"\s+", "", text).lower()


def same_printed(first: Cell, second: Cell) -> bool:
    if first.value is not None or second.value is not None:
        return (first.value, first.plus_minus, first.percent) == (second.value, second.plus_minus, second.percent)
    return _norm(first.text) == _norm(second.text)


def _key(table: Table) -> str | None:
    return table_key(table.label, 0, table.panel) if table.label else None


def _shared_text(first: Table, second: Table) -> float:
    """Share of the first table's distinct cell texts that the second prints too."""
    mine = {_norm(c.text) for c in first.cells if c.text}
    return len(mine & {_norm(c.text) for c in second.cells if c.text}) / max(len(mine), 1)


def match_tables(first: list[Table], second: list[Table]) -> list[tuple[Table, Table]]:
    """Pairs of the same table in both readings (each table used once): by label, else by caption, else (for
    tables without either, as in a README) by the cell texts they share."""
    by_key = {_key(t): t for t in second if _key(t)}
    pairs, used = [], set()
    for table in first:
        other = by_key.get(_key(table)) if _key(table) else None
        if other is None:
            scored = [(fuzz.ratio(table.caption, t.caption), t) for t in second if id(t) not in used and t.caption]
            best = max(scored, key=lambda s: s[0], default=(0, None))
            other = best[1] if best[0] >= CAPTION_MATCH else None
        if other is None:
            shared = [(_shared_text(table, t), t) for t in second if id(t) not in used and not _key(t)]
            best = max(shared, key=lambda s: s[0], default=(0.0, None))
            other = best[1] if best[0] >= SHARED_TEXT else None
        if other is not None and id(other) not in used:
            used.add(id(other))
            pairs.append((table, other))
    return pairs


def _paths(cell: Cell) -> tuple[str, str]:
    return (_norm(" ".join(cell.row_path)), _norm(" ".join(cell.col_path)))


def match_cells(first: Table, second: Table) -> list[tuple[Cell, Cell | None]]:
    """Each cell of ``first`` with its counterpart in ``second`` (None when there is none). Grids of one shape
    match by position; otherwise a body cell matches only the one cell whose row and column labels are its own,
    and labels that name several cells on either side match nothing (no guess becomes a disagreement)."""
    if (first.n_rows, first.n_cols) == (second.n_rows, second.n_cols):
        at = {(c.row, c.col): c for c in second.cells}
        return [(c, at.get((c.row, c.col))) for c in first.cells]
    mine = Counter(_paths(c) for c in first.cells if c.kind == "body")
    theirs = Counter(_paths(c) for c in second.cells if c.kind == "body")
    by_paths = {_paths(c): c for c in second.cells if c.kind == "body" and theirs[_paths(c)] == 1}
    return [(c, by_paths.get(_paths(c)) if c.kind == "body" and mine[_paths(c)] == 1 else None) for c in first.cells]


def compare_readings(first: list[Table], second: list[Table]) -> list[str]:
    """Each matched cell of ``first`` gets its second reading; one note per table says how many agree."""
    notes = []
    for table, other in match_tables(first, second):
        matched = match_cells(table, other)
        pairs = [(c, o) for c, o in matched if o is not None and (c.text or o.text)]
        alone = sum(1 for c, o in matched if o is None and c.kind == "body" and c.text)
        for cell, theirs in pairs:
            where = theirs.locator.place if theirs.locator else other.place
            cell.second_reading = SecondReading(theirs.text, where, same_printed(cell, theirs))
        agree = sum(1 for c, _ in pairs if c.second_reading and c.second_reading.agrees)
        body = sum(1 for c, _ in matched if c.kind == "body" and c.text)
        note = f"{READ_TWICE} ({other.artifact}): {agree} of {len(pairs)} cells agree"
        note += f"; {body - alone} of {body} body cells paired" if body else ""
        note += f", {alone} with no counterpart there" if alone else ""
        table.notes.append(note)
        notes.append(f"{table.label or table.index}: {note}")
    return notes
