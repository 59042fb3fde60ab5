"""Lines that are not rows of their own: wrapped header cells, wrapped body cells, row-group labels."""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise
from statistics import median

from pipeline.extract.grid.columns import HANGING_INDENT, Placed, indent_from_edge, left_edges
from pipeline.extract.grid.headers import BARE_SPREAD
from pipeline.extract.grid.rows import Row
from pipeline.extract.grid.spans import row_baselines
from pipeline.extract.grid.style import is_bold, is_italic
from pipeline.extract.page.words import Word, join_words
from pipeline.extract.reading.graphics import Rule
from pipeline.numbers import looks_numeric

_QUANTITY = re.compile(r"^[(\[]?\s*[~≈<>]?\s*[\d.,]+\s*[KMBTkmbt%]?\s*(?:params)?[)\]]?$")
_WORD_START = re.compile(r"[^\W\d_]{2}")
_SAMPLE_SIZE = re.compile(r"^[(\[]\s*[nN]\s*=\s*[\d,]+\s*[)\]]")  # '(n = 41)' under a group's name
WRAP_LEADING = 1.5  # baseline step of a wrapped label's lines, in ems (levels are set further apart)
LINE_PITCH = 0.8  # em: the least step between two lines of one cell (a line set between two others steps less)
PITCH_TOLERANCE = 0.5  # pt: steps this close are one pitch
TWO_PITCHES = 0.9  # a step under this share of the usual one between lines: rows set further apart than a cell's lines


def _row_cells(placed: list[Placed], r: int) -> dict[int, Placed]:
    return {p.col: p for p in placed if p.row == r}


def _drop_row(placed: list[Placed], r: int) -> None:
    """Line ``r`` is gone (its words joined to a row): rows under it move up, cells spanning it span one line less."""
    for p in placed:
        if p.row > r:
            p.row -= 1
        elif p.row + p.row_span > r and p.row_span > 1:
            p.row_span -= 1


def join_header_lines(placed: list[Placed], rows: list[Row], header_rows: int) -> tuple[int, list[Row]]:
    """Header lines that continue the line above cell for cell ('Ours-JFT' over '(ViT-H/14)') are one
    header row, with the labels set centred across both lines (a group label with nothing under it yet, its
    sub-labels on a later line, does not stop them); a line of quantities under names
    ('(252M)', '(n = 41)'), or of labels in another font (metrics under bold task names), stays a row of its own.

    Returns the new number of header rows and the remaining rows."""
    r = 0
    while r < header_rows - 1:
        upper, lower = _row_cells(placed, r), _row_cells(placed, r + 1)
        centred = [p for p in upper.values() if p.row_span == 2 and p.col_span == 1]  # set across both lines
        groups = [p for p in upper.values() if p.col_span > 1 and not _under(p, lower)]  # sub-labels come later
        cells = [p for p in [*upper.values(), *lower.values()] if p not in centred and p not in groups]
        simple = all(p.col_span == 1 and p.row_span == 1 for p in cells)
        quantities = all(
            _QUANTITY.match(t) or _SAMPLE_SIZE.match(t) or BARE_SPREAD.match(t) for t in map(_text, lower.values())
        )
        restyled = sum(_style(upper[c].words) != _style(p.words) for c, p in lower.items() if c in upper)
        if lower and simple and set(lower) <= set(upper) - {p.col for p in centred} and not quantities:
            if restyled * 2 >= len(lower):  # another font under each label: another level, not a wrapped line
                r += 1
                continue
            for col, p in lower.items():
                upper[col].words.extend(p.words)
                placed.remove(p)
            for p in centred:
                p.row_span = 1
            _drop_row(placed, r + 1)
            rows = rows[: r + 1] + rows[r + 2 :]
            header_rows -= 1
            continue
        r += 1
    return header_rows, rows


def _under(p: Placed, cells: dict[int, Placed]) -> bool:
    """Some cell of the row below stands in the columns the cell spans."""
    return any(q.col < p.col + p.col_span and p.col < q.col + q.col_span for q in cells.values())


def join_open_brackets(placed: list[Placed], rows: list[Row], header_rows: int) -> tuple[int, list[Row]]:
    """A header line whose every cell opens a bracket that the cell under it closes ('13C (δ,' over 'ppm)')
    is the first line of those cells, even where the other labels sit only on the lower line (headers set
    flush with the body).

    Returns the new number of header rows and the remaining rows."""
    r = 0
    while r < header_rows - 1:
        upper, lower = _row_cells(placed, r), _row_cells(placed, r + 1)
        opened = [
            c
            for c, p in upper.items()
            if c in lower and p.col_span == lower[c].col_span and _unclosed(join_words(p.words))
        ]
        if not opened or len(opened) < len(upper) or any(p.row_span > 1 for p in upper.values()):
            r += 1
            continue
        for col in opened:
            lower[col].words[:0] = upper[col].words
            placed.remove(upper[col])
        _drop_row(placed, r)
        rows = rows[:r] + rows[r + 1 :]
        header_rows -= 1
    return header_rows, rows


def close_open_labels(placed: list[Placed], header_rows: int) -> None:
    """A label leaving a bracket open ('Average length (number of') goes on in the cell under it that closes it
    ('residues/tokens)'), even where the other labels of that line are sub-labels of a group: the closing line
    is part of the label, which spans both rows."""
    for r in range(header_rows - 1):
        lower = _row_cells(placed, r + 1)
        upper: dict[int, list[Placed]] = {}
        for q in placed:
            if q.row == r and q.col_span == 1 and q.row_span == 1:
                upper.setdefault(q.col, []).append(q)  # lines of one label placed apart
        for col, cells in upper.items():
            p, below = cells[0], lower.get(col)
            words = sorted((w for q in cells for w in q.words), key=lambda w: (round(w.baseline), w.x0))
            text = _text(below) if below is not None else ""
            if (
                below is None
                or below.col_span != 1
                or not _unclosed(join_words(words))
                or text.count(")") <= text.count("(")
            ):
                continue
            p.words = words + below.words
            p.row_span = 2
            for q in [*cells[1:], below]:
                placed.remove(q)


def join_bottom_set_labels(
    placed: list[Placed], rows: list[Row], header_rows: int, hrules: list[Rule]
) -> tuple[int, list[Row]]:
    """Labels set flush with the body (bottom-aligned) all end on the header's last line; those that wrap start
    on the line above it, one column each, at the usual leading, most in the same type, with no rule between the
    lines (a rule, a label over several columns or another type makes the upper line a level of its own). Those
    first lines are part of the labels under them.

    Returns the new number of header rows and the remaining rows."""
    r = header_rows - 2
    if r < 0:
        return header_rows, rows
    upper, lower = _row_cells(placed, r), _row_cells(placed, r + 1)
    if not upper or not set(upper) <= set(lower) or len(lower) <= len(upper):
        return header_rows, rows
    if any(p.col_span != 1 or p.row_span != 1 or lower[c].col_span != 1 for c, p in upper.items()):
        return header_rows, rows
    if 2 * sum(_style(p.words) != _style(lower[c].words) for c, p in upper.items()) >= len(upper):
        return header_rows, rows  # another font over most labels: another level
    base = row_baselines(rows)
    if base[r + 1] - base[r] > WRAP_LEADING * rows[r + 1].size:
        return header_rows, rows
    x0, x1 = min(w.x0 for p in upper.values() for w in p.words), max(w.x1 for p in upper.values() for w in p.words)
    if any(rows[r].bottom - 1 <= h.y <= rows[r + 1].top + 1 and h.x0 < x1 and x0 < h.x1 for h in hrules):
        return header_rows, rows
    for col, p in upper.items():
        lower[col].words[:0] = p.words
        placed.remove(p)
    _drop_row(placed, r)
    return header_rows - 1, rows[:r] + rows[r + 1 :]


def _unclosed(text: str) -> bool:
    return text.count("(") > text.count(")") or text.count("[") > text.count("]")


def _text(p: Placed) -> str:
    return join_words(p.words)


def _style(words: list[Word]) -> tuple[bool, bool, float]:
    return is_bold(words), is_italic(words), round(max(w.size for w in words) / 0.5) * 0.5


def numeric_columns(placed: list[Placed], header_rows: int, n_cols: int) -> set[int]:
    """Columns whose body cells are mostly numbers."""
    found = set()
    for c in range(n_cols):
        texts = [join_words(p.words) for p in placed if p.col == c and p.row >= header_rows and p.col_span == 1]
        if texts and sum(looks_numeric(t) for t in texts) * 2 > len(texts):
            found.add(c)
    return found


def merge_body_lines(
    placed: list[Placed], rows: list[Row], header_rows: int, n_cols: int, hrules: Sequence[Rule]
) -> tuple[set[int], list[Row]]:
    """Fold wrapped continuation lines into the row above, and mark row-group labels (spanning the row).

    A line with words only in text columns is a group label when the rows under it are indented or set
    in another style, or when no row with numbers precedes it; otherwise, close under a row with numbers,
    it continues that row's cells, unless it cannot be the wrapped end of the label there (a rule parts them,
    or that label had room for its first word) and a row of values follows: then it names the rows under it.
    Where rows are set further apart than a cell's lines, a line set a row apart from the one above is no line
    of its row: the first line of a label whose next lines, set close, reach its values (centred on the label's
    lines), or a row of its own with empty cells.
    Returns the group-label rows and the remaining rows.
    """
    numeric = numeric_columns(placed, header_rows, n_cols)
    if not numeric:
        return set(), rows
    base = _stub_baselines(placed, rows)
    steps = [b - a for a, b in pairwise(base[header_rows:])]
    pitch = median(steps) if steps else 0.0
    valued = [bool(set(_row_cells(placed, r)) & numeric) for r in range(len(rows))]
    between_values = [
        b - a for i, (a, b) in enumerate(pairwise(base)) if i >= header_rows and valued[i] and valued[i + 1]
    ]
    close = close_step(steps, _body_size(placed, header_rows), between_values)  # two lines with values: two rows
    groups: set[int] = set()
    reach = _stub_reach(placed, header_rows, numeric)
    r = header_rows
    while r < len(rows):
        cells = _row_cells(placed, r)
        if not cells or (set(cells) & numeric and not _label_over_numeric_stub(cells)):
            r += 1
            continue
        prev = _row_cells(placed, r - 1) if r - 1 >= header_rows else {}
        nxt = _row_cells(placed, r + 1)
        if _is_group_label(cells, prev, nxt, numeric, r == header_rows) or _runs_over_values(cells, placed, numeric):
            _span_row(cells, placed, n_cols)
            groups.add(r)
            r += 1
            continue
        over_values = (
            r > 0
            and _label_over_centred_values(cells, nxt, numeric)
            and base[r + 1] - base[r] < 0.9 * (base[r] - base[r - 1])
        )
        if over_values or (
            close and base[r] - base[r - 1] >= close and _leads_to_values(placed, base, r, close, numeric)
        ):
            rows, base = _fold_down(placed, rows, base, r)  # a label's first line, closer to the row under it
            groups = {g - 1 if g > r else g for g in groups}
            continue
        step = base[r] - base[r - 1]
        if prev and set(prev) & numeric and step <= 1.15 * pitch and not (close and step >= close):
            apart = _ruled_apart(rows[r - 1], rows[r], hrules)
            if set(nxt) & numeric and _starts_anew(cells, prev.get(0), reach, apart):
                if _opens_label_below(cells, nxt):  # the first line of the label of the row under it
                    rows, base = _fold_down(placed, rows, base, r)
                    groups = {g - 1 if g > r else g for g in groups}
                    continue
                _span_row(cells, placed, n_cols)  # not the end of the label above: the name of the rows under it
                groups.add(r)
                r += 1
                continue
            rows, base = _fold_up(placed, rows, base, r)
            groups = {g - 1 if g > r else g for g in groups}
            continue
        r += 1
    return groups, rows


def _body_size(placed: list[Placed], header_rows: int) -> float:
    return median(w.size for p in placed if p.row >= header_rows for w in p.words)


def _stub_baselines(placed: list[Placed], rows: list[Row]) -> list[float]:
    """Each line's baseline, read on its stub's words where it has some (a value in another font, or centred
    between two lines, would move it)."""
    base = row_baselines(rows)
    for p in placed:
        if p.col == 0 and p.row_span == 1 and p.row < len(base):
            base[p.row] = median(w.baseline for w in p.words)
    return base


def _leads_to_values(placed: list[Placed], base: list[float], r: int, close: float, numeric: set[int]) -> bool:
    """Line ``r`` (words only) opens a chain of lines each set closer to the next than rows are, the chain reaching
    a line with values: the first line of a label wrapped over several lines, its values centred on them."""
    k = r
    while k + 1 < len(base) and base[k + 1] - base[k] < close:
        k += 1
        if set(_row_cells(placed, k)) & numeric:
            return True
    return False


def _label_over_centred_values(cells: dict[int, Placed], nxt: dict[int, Placed], numeric: set[int]) -> bool:
    """Words over a row that holds values and, besides them, words only in the same columns: the first line
    of a label wrapped over two or more lines whose values are set centred on its lines (Word, InDesign),
    when the line lies closer to that row than to the row above (a cell's lines are set closer than its
    rows). A row with words of its own elsewhere (another label, a group's name) is a row of its own."""
    words = set(nxt) - numeric
    return bool(set(nxt) & numeric) and words <= set(cells) and not set(cells) & numeric


def _runs_over_values(cells: dict[int, Placed], placed: list[Placed], numeric: set[int]) -> bool:
    """A line of words alone in the stub that runs on over the place of the values beside it (a note or a
    group's name set across the table): a row spanning the table, never the wrapped end of a stub cell."""
    label = cells.get(0)
    if label is None or len(cells) > 1:
        return False
    starts = [min(w.x0 for w in p.words) for p in placed if p.col in numeric and p.col_span == 1 and p.words]
    return bool(starts) and max(w.x1 for w in label.words) > min(starts)


def _label_over_numeric_stub(cells: dict[int, Placed]) -> bool:
    """A row of one label of words alone in the first column ('Total sample' over the Chr column): a label,
    though its column holds numbers."""
    label = cells.get(0)
    text = join_words(label.words) if label is not None and len(cells) == 1 else ""
    return len(re.findall(r"[^\W\d_]{2,}", text)) >= 2 and not looks_numeric(text)


def _stub_reach(placed: list[Placed], header_rows: int, numeric: set[int]) -> float | None:
    """How far right the stub's labels set beside values reach: its cells are at least this wide."""
    valued = {p.row for p in placed if p.col in numeric and p.row >= header_rows}
    ends = [w.x1 for p in placed if p.col == 0 and p.col_span == 1 and p.row in valued for w in p.words]
    return max(ends, default=None)


def _span_row(cells: dict[int, Placed], placed: list[Placed], n_cols: int) -> None:
    """The line's words as one cell spanning the row from its first column: a group's name."""
    label = cells[min(cells)]
    for p in cells.values():
        if p is not label:
            label.words.extend(p.words)
            placed.remove(p)
    label.col_span = n_cols - label.col


def _goes_on(label: Placed) -> bool:
    """The line starts with a word in lower case: it goes on from the line above (a symbol, 'γ', is no word)."""
    text = join_words(label.words)
    return text[:1].islower() and bool(_WORD_START.match(text))


def _starts_anew(cells: dict[int, Placed], above: Placed | None, reach: float | None, apart: bool) -> bool:
    """A label alone in the stub that cannot be the wrapped end of the label above it: a rule parts them, or
    that label had room for its first word."""
    label = cells.get(0)
    if label is None or len(cells) > 1 or _goes_on(label):
        return False
    return apart or _had_room(label, above, reach)


def _ruled_apart(upper: Row, lower: Row, hrules: Sequence[Rule]) -> bool:
    """A rule drawn between two lines across the lower one's words parts them into two rows (a table ruled,
    or shaded, row by row): a cell's wrapped lines are never ruled apart."""
    return any(
        upper.bottom - 1.5 <= r.y <= lower.top + 1.5 and r.x0 <= lower.x0 + 2 and r.x1 >= lower.x1 - 2 for r in hrules
    )


def _had_room(label: Placed, above: Placed | None, reach: float | None) -> bool:
    """The stub line above ends short enough that this line's first word would have fitted after it within
    the stub's width: a cell wraps only where the next word does not fit, so this line starts a row of its own
    (a group's name, a label without values) and is not that cell's wrapped end."""
    if above is None or reach is None or not above.words:
        return False
    last = max(w.top for w in above.words)
    end = max(w.x1 for w in above.words if w.top >= last - 0.5 * w.size)
    return fits_after(end, min(label.words, key=lambda w: (round(w.top), w.x0)), reach)


def fits_after(end: float, word: Word, reach: float) -> bool:
    """``word`` would have fitted after a line ending at ``end`` in a column at least ``reach`` wide (the space
    taken wide, 0.4 em, so that a word that only just did not fit still reads as wrapped)."""
    return end + 0.4 * word.size + (word.x1 - word.x0) <= reach


def _is_group_label(
    cells: dict[int, Placed], prev: dict[int, Placed], nxt: dict[int, Placed], numeric: set[int], first: bool
) -> bool:
    if min(cells) != 0:
        return False
    label = cells[0]
    if _goes_on(label):
        return False  # 'degree' under 'Under high school': the rest of a wrapped stub, not a group's name
    if first or not prev or not set(prev) & numeric:
        return True
    stub = nxt.get(0)
    if stub is None:
        return False
    indent = min(w.x0 for w in stub.words) - min(w.x0 for w in label.words)
    size = max(w.size for w in label.words)
    if indent > 0.4 * size:
        return True
    return (is_bold(label.words) and not is_bold(stub.words)) or (is_italic(label.words) and not is_italic(stub.words))


def fold_wrapped_lines(placed: list[Placed], rows: list[Row], header_rows: int) -> list[Row]:
    """Fold the wrapped lines of a table of words into the row above. A column set with hanging indents
    starts each cell's first line at its edge and every further line an indent to the right: a line whose
    cells start indented, with none at its column's edge outside the stub, continues the row above (the
    stub's own wrapped words, set flush, come with it). Where rows are set further apart than the lines of a
    cell, a line closer than that to the one above continues it. A line with words in the stub alone continues
    the stub above where that ends open (';', ',', '+', an unclosed bracket) or the line starts in lower case.

    Otherwise a line with a cell at its column's edge is a row, however far its stub is indented (a sub-row
    under a parent); so is a stub line alone under a stub that ends closed (a row whose other cells are empty).
    Returns the remaining rows."""
    edges = left_edges(placed, header_rows)
    base = row_baselines(rows)
    steps = [b - a for a, b in pairwise(base[header_rows:])]
    pitch = median(steps) if steps else 0.0
    close = close_step(steps, _body_size(placed, header_rows))
    r = header_rows + 1
    while r < len(rows):
        cells, above = _row_cells(placed, r), _row_cells(placed, r - 1)
        step = base[r] - base[r - 1]
        if not cells or not above or step > 1.15 * pitch or not _continues(cells, above, edges, step < close):
            r += 1
            continue
        rows, base = _fold_up(placed, rows, base, r)
    return rows


def _opens_label_below(cells: dict[int, Placed], below: dict[int, Placed]) -> bool:
    """A label line that cannot end a label ('Median time since') over a stub line going on in lower case
    ('discontinuation of ...'): one label, its values set on a later line (centred on the label's lines)."""
    label, nxt = cells.get(0), below.get(0)
    return label is not None and nxt is not None and label_ends_open(join_words(label.words)) and _goes_on(nxt)


def _fold_up(placed: list[Placed], rows: list[Row], base: list[float], r: int) -> tuple[list[Row], list[float]]:
    """Line ``r``'s words joined after the cells of the row above; that row now ends on the folded line."""
    _fold_into(placed, r, r - 1)
    return rows[:r] + rows[r + 1 :], [*base[: r - 1], base[r], *base[r + 1 :]]


def _fold_down(placed: list[Placed], rows: list[Row], base: list[float], r: int) -> tuple[list[Row], list[float]]:
    """Line ``r``'s words put before the cells of the row under it, which keeps its own baseline."""
    _fold_into(placed, r, r + 1)
    return rows[:r] + rows[r + 1 :], [*base[:r], *base[r + 1 :]]


def _fold_into(placed: list[Placed], r: int, host_row: int) -> None:
    """Line ``r``'s words joined to the cells of the neighbouring line ``host_row``, in reading order (a cell of
    its own where that line has none); line ``r`` is dropped."""
    hosts = _row_cells(placed, host_row)
    for col, p in _row_cells(placed, r).items():
        host = hosts.get(col)
        if host is None:
            p.row = host_row
        elif host_row < r:
            host.words.extend(p.words)
            placed.remove(p)
        else:
            host.words[:0] = p.words
            placed.remove(p)
    _drop_row(placed, r)


def close_step(steps: list[float], size: float, row_steps: list[float] | None = None) -> float:
    """The step between lines under which they are one cell's lines: half-way between a cell's line pitch (the
    tightest step that two or more lines share, a line of type or more apart: a label set half-way between two
    lines is no pitch) and the rows' pitch (the usual step, or the usual one of ``row_steps``, between lines sure
    to be rows) where rows are set further apart than a cell's lines; 0 where one pitch serves both."""
    pitches = sorted(s for s in steps if s >= LINE_PITCH * size)
    tight = next((s for s in pitches if sum(abs(t - s) <= PITCH_TOLERANCE for t in pitches) >= 2), None)
    if tight is None:
        return 0.0
    usual = median(row_steps or steps)
    return (usual + tight) / 2 if tight < TWO_PITCHES * usual else 0.0


def _continues(cells: dict[int, Placed], above: dict[int, Placed], edges: dict[int, float], close: bool) -> bool:
    if any(p.col_span > 1 for p in cells.values()):
        return False  # a line across columns: a group's name or a note
    if any(_style(p.words)[:2] != _style(above[c].words)[:2] for c, p in cells.items() if c in above):
        return False  # a cell's lines share their style: a bold group's name is no line of the row under it
    hanging = {c for c, p in cells.items() if _hanging(p, edges)}
    if hanging:
        return all(c in hanging or c == 0 for c in cells)
    if close:
        return True  # set closer than rows are: a line of the row above
    if set(cells) != {0} or 0 not in above:
        return False  # a stub indented alone may name a sub-row: only its words say it goes on
    return ends_open(_last_line(above[0])) or _text(cells[0])[:1].islower()


JOINING = {  # words that cannot end a label: the next line goes on with it
    "of",
    "and",
    "or",
    "the",
    "in",
    "for",
    "to",
    "with",
    "than",
    "by",
    "on",
    "at",
    "a",
    "from",
    "since",
    "between",
    "per",
    "versus",
    "vs",
    "into",
    "an",
}


def label_ends_open(line: str) -> bool:
    """A label's line that cannot end it: open punctuation or bracket, or a word that joins it to what follows."""
    words = line.split()
    return ends_open(line) or bool(words and words[-1].lower() in JOINING)


def ends_open(line: str) -> bool:
    """A line that cannot end a cell: it breaks a word or a range, ends a list's item (';', ',', '+', '&', '/':
    'Neurocan; α5β1;'), or leaves a bracket open; the next line goes on with it."""
    return line.rstrip().endswith(("-", "\u2013", ";", ",", "+", "&", "/")) or _unclosed(line)


def _hanging(p: Placed, edges: dict[int, float]) -> bool:
    """A cell outside the stub starting a hanging indent right of its column's edge."""
    indent = indent_from_edge(p, edges)
    return p.col > 0 and indent is not None and HANGING_INDENT[0] <= indent <= HANGING_INDENT[1]


def _last_line(p: Placed) -> str:
    last = max(w.baseline for w in p.words)
    return join_words([w for w in p.words if abs(w.baseline - last) < 0.5 * w.size])
