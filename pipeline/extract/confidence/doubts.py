"""Evidence on the page that a grid was misread, each kind a general principle of how tables are printed; each
one found caps the table's confidence and writes why on the table (the audit reads the figure: under 0.5 a
finding is needs-check, under 0.8 an error becomes a warning). Nothing here looks at any gold."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise
from statistics import median

from pipeline.extract.confidence.score import doubt
from pipeline.extract.grid.columns import Placed
from pipeline.extract.grid.rows import value_shape
from pipeline.extract.grid.structure import Grid
from pipeline.extract.grid.style import is_bold, is_italic
from pipeline.extract.grid.wrapping import LINE_PITCH, TWO_PITCHES, fits_after, label_ends_open
from pipeline.extract.page.layout import PageLayout, is_prose
from pipeline.extract.page.words import Word, join_words
from pipeline.extract.regions.captions import Caption
from pipeline.extract.regions.grow import Region
from pipeline.model import Table
from pipeline.numbers import looks_numeric, parse_number

MORE_DOUBTS = 0.9  # each further kind of doubt beyond the strongest multiplies the confidence by this
LINE_TOLERANCE = 0.5  # words whose baselines differ by under this share of their size sit on one line
MANY_LINES = 3  # lines in a cell of several columns of one row for them to be rows
ITEM_SHARE = 0.5  # line ends made on purpose, among a cell's line ends, for its lines to be items (rows)
SPACE = 0.25  # a word space, as a share of the font size
FRAME_SIDES = 2  # column rules that run on past the region's edge for it to be inside the table's frame
TITLE_SIZE = 1.3  # a line in type this many times the body size, above all others on a first page, is its title
CAPTION_PIECES = 3  # pieces of a caption line, over as many columns, for it to be a row of column labels
WIDE_SPACE = 2.0  # a gap this many times a line's narrowest space parts two cells, not two words
REPEATED_ENDS = 3  # header cells ending on one same line for it to be a row of its own
GAP_UNDER = 0.5  # em: a line this close under the table's last line (top to bottom) is set at a cell's line pitch
EDGE_SHARE = 0.8  # the foot of the text area lies in the page's bottom fifth, its head in the top fifth
PLAIN_NUMBER = re.compile(r"^[-+\u2212]?\d[\d,]*(?:\.\d+)?%?$")
MEASURED = re.compile(r"\d\.\d|%|±")  # what a measured value prints and a column heading rarely does


@dataclass(frozen=True)
class Evidence:
    """What the page shows about one table: its grid, its region and the page it lies on (one frame)."""

    grid: Grid
    region: Region
    layout: PageLayout
    stubs: int


@dataclass(frozen=True)
class Doubt:
    ceiling: float  # the table's confidence is at most this
    reason: str


Signal = Callable[[Evidence], str | None]


def _lines(words: list[Word]) -> list[list[Word]]:
    """A cell's words grouped into printed lines, top to bottom."""
    lines: list[list[Word]] = []
    for word in sorted(words, key=lambda w: w.baseline):
        if lines and abs(word.baseline - lines[-1][0].baseline) <= LINE_TOLERANCE * word.size:
            lines[-1].append(word)
        else:
            lines.append([word])
    return [sorted(line, key=lambda w: w.x0) for line in lines]


def _text(line: list[Word]) -> str:
    return join_words(line)


def rows_of_lines(ev: Evidence) -> str | None:
    """A cell wraps a line only where its next word would not fit in the column; a line ended short of that (the
    next line's first word would have fitted after it) was ended on purpose, as an item of its own. When two or
    more columns of one row hold the same number of lines (three or more), most of them ended on purpose, line
    for line, they are rows that the row segmentation (rules, bands) joined into one; a column of wrapped
    paragraphs beside one list of items, or two blocks of code or verse of their own lengths, are one row."""
    grid = ev.grid
    widths = {c: x1 - x0 for c, (x0, x1) in _column_spans(grid).items()}
    for r in range(grid.header_rows, grid.n_rows):
        cells = [(_lines(p.words), widths[p.col]) for p in grid.placed if p.row == r and p.col >= 1 and p.col_span == 1]
        counts = sorted(len(lines) for lines, width in cells if _listed(lines, width))
        alike = [a for a, b in pairwise(counts) if a >= MANY_LINES and a == b]
        if alike:
            return (
                f"row {r + 1} holds {alike[0]} lines, each ended short, in each of several columns: rows of their own?"
            )
    return None


def _column_spans(grid: Grid) -> dict[int, tuple[float, float]]:
    """The x-range each column's one-column cells fill: the room a line of a cell has before it must wrap."""
    spans: dict[int, tuple[float, float]] = {}
    for p in grid.placed:
        if p.col_span == 1 and p.words:
            x0, x1 = min(w.x0 for w in p.words), max(w.x1 for w in p.words)
            old = spans.get(p.col, (x0, x1))
            spans[p.col] = (min(old[0], x0), max(old[1], x1))
    return spans


def _listed(lines: list[list[Word]], width: float) -> bool:
    """Most of a cell's line ends are on purpose: the next line's first word would have fitted after the line, or
    the line and the next print only numbers (values do not wrap like a sentence); a cell that breaks a word over
    two lines (a hyphen, then lower case) is wrapped text, not a list; a line ending open (on a joining word such
    as 'and', 'of') goes on into the next whatever its length."""
    pairs = list(pairwise(lines))
    if any(_text(line).endswith("-") and _text(nxt)[:1].islower() for line, nxt in pairs):
        return False
    ends = [
        not label_ends_open(_text(line))
        and (
            line[-1].x1 - line[0].x0 + SPACE * nxt[0].size + (nxt[0].x1 - nxt[0].x0) <= width
            or all(parse_number(w.text) is not None for w in [*line, nxt[0]])
        )
        for line, nxt in pairs
    ]
    return len(lines) >= MANY_LINES and sum(ends) >= ITEM_SHARE * len(ends)


def continuing_row(ev: Evidence) -> str | None:
    """A row filling fewer cells than the row above, none starting a new item (a capital), with text in lower case,
    each cell under a filled cell of the row above that does not end a sentence, continues that row: wrapped lines
    of one row (or of the header) were read as rows (a row of values fills as many cells as the one above). One
    lower-case word may be a value ("tata", "acc"); two such cells in the row, or a phrase, are wrapped text."""
    texts = ev.grid.text_grid()
    found = []
    for r in range(1, ev.grid.n_rows):
        filled = [c for c, text in enumerate(texts[r]) if text.strip()]
        lower = [c for c in filled if _lower(texts[r][c])]
        under = all(texts[r - 1][c].strip() and not texts[r - 1][c].rstrip().endswith((".", ";", ":")) for c in filled)
        fewer = len(filled) < sum(bool(t.strip()) for t in texts[r - 1])  # a wrapped line fills fewer cells
        if lower and under and fewer and not any(texts[r][c][:1].isupper() for c in filled):
            found.append((r, lower))
    telling = [(r, cells) for r, cells in found if len(cells) >= 2 or any(len(texts[r][c].split()) >= 2 for c in cells)]
    if telling:
        r, cells = telling[0]
        return f"row {r + 1} ('{texts[r][cells[0]][:30]}') goes on from the row above in lower case: a wrapped line?"
    return None


def _lower(text: str) -> bool:
    first = text.split()[0]
    return first[:1].islower() and sum(ch.isalpha() for ch in first) >= 3


def header_line_repeated(ev: Evidence) -> str | None:
    """Wrapped column labels end on lines of their own words; when three or more header cells end on the same
    line ("Sens (spec)" under each), that line is a header row of its own (units, sub-labels) joined to the
    labels above it."""
    ends: dict[str, int] = {}
    for p in ev.grid.placed:
        lines = _lines(p.words) if p.row < ev.grid.header_rows else []
        if len(lines) >= 2:
            ends[_text(lines[-1])] = ends.get(_text(lines[-1]), 0) + 1
    repeated = [line for line, n in ends.items() if n >= REPEATED_ENDS]
    return (
        f"{ends[repeated[0]]} header cells end on the line '{repeated[0][:20]}': a header row of its own?"
        if repeated
        else None
    )


def stub_new_line(ev: Evidence) -> str | None:
    """A row label wraps onto a line that continues it; when a later line starts anew (a capital) after a line that
    could end a label (no hyphen, open bracket or joining word at its end), and either it is the last line while the
    row's values sit on one line, or its first word would have fitted at the end of the line above (a cell wraps
    only where the next word does not fit; the first column is at least as wide as its widest line), the label may
    be two rows: a label row and the row it was joined to. Not where the values sit between two of its lines
    (centred on the label, they name all of it)."""
    body = [p for p in ev.grid.placed if p.row >= ev.grid.header_rows]
    reach = max((w.x1 for p in body if p.col == 0 and p.col_span == 1 for w in p.words), default=0.0)
    for p in body:
        if p.col >= max(ev.stubs, 1) or p.row_span > 1:
            continue
        lines = _lines(p.words)
        values = [q for q in ev.grid.placed if q.row == p.row and q.col >= max(ev.stubs, 1)]
        if values and _between_lines(values, lines):
            continue
        flat = bool(values) and all(len(_lines(q.words)) == 1 for q in values)
        for k, (upper, lower) in enumerate(pairwise(lines), start=1):
            if not _text(lower)[:1].isupper() or label_ends_open(_text(upper)):
                continue
            room = p.col == 0 and p.col_span == 1 and bool(values) and fits_after(upper[-1].x1, lower[0], reach)
            last_anew = flat and k == len(lines) - 1 and not _set_close(lines, p, ev.grid)
            if room or last_anew:
                first, last = _text(lines[0]), _text(lower)
                anew = "joins two lines, the second starting anew: it may be two rows"
                return f"row label '{first[:25]} / {last[:25]}' {anew}"
    return None


def _set_close(lines: list[list[Word]], label: Placed, grid: Grid) -> bool:
    """The label's last two lines are set a line of type apart, closer than its row is to the next (rows spaced
    apart further than a cell's lines): one cell's lines, not two rows (a label set half-way between two lines,
    beside the rows it names, steps less)."""
    below = [min(w.baseline for w in q.words) for q in grid.placed if q.row == label.row + label.row_span]
    if not below:
        return False
    step = lines[-1][0].baseline - lines[-2][0].baseline
    size = max(w.size for w in lines[-1])
    return LINE_PITCH * size <= step < TWO_PITCHES * (min(below) - lines[-1][0].baseline)


def _between_lines(values: list[Placed], lines: list[list[Word]]) -> bool:
    """Every value set between two of the label's lines, on none of them."""
    baselines = [median(w.baseline for w in line) for line in lines]
    for q in values:
        y = median(w.baseline for w in q.words)
        size = max(w.size for w in q.words)
        if not baselines[0] < y < baselines[-1] or any(abs(y - b) <= LINE_TOLERANCE * size for b in baselines):
            return False
    return True


def numbers_in_header(ev: Evidence) -> str | None:
    """Column headings are labels: a header row most of whose cells print measured values (decimals, percentages,
    ±) is a data row read as header."""
    texts = ev.grid.text_grid()
    for r in range(ev.grid.header_rows):
        filled = [t for t in texts[r] if t.strip()]
        measured = [t for t in filled if parse_number(t) is not None and MEASURED.search(t)]
        if len(filled) >= 2 and 2 * len(measured) >= len(filled):
            return f"header row {r + 1} prints measured values ({measured[0]}): data rows may be read as header"
    return None


def unmarked_header(ev: Evidence) -> str | None:
    """A header band ends where the page marks it: a rule under its last row (a rule under every row marks only a
    first row), a change of type (bold, italic, size) from the header to the first body row, or a change of kind
    (labels in words over values). Where nothing marks it, rows read as header may be data or header rows may be
    read as body; a header row that prints the body's kind of cell in every column is a data row; and a captioned
    table with no header row at all may have lost it (printed as a picture, or with the part before)."""
    grid = ev.grid
    h = grid.header_rows
    texts = grid.text_grid()
    if h == 0:
        lost = ev.region.caption is not None and grid.n_rows >= 2 and _shapes(texts[0]) == _shapes(texts[1])
        return "it starts with a data row: its header may be lost (a picture, or printed before)" if lost else None
    if h >= grid.n_rows:
        return None
    body = texts[h]
    shapes = _shapes(body)
    for r in range(1, h):
        if "text" not in shapes and _shapes(texts[r]) == shapes:
            return f"header row {r + 1} prints values like the body's first row: data rows may be read as header"
    last = [p for p in grid.placed if p.row < h and p.row + p.row_span == h]
    first = [p for p in grid.placed if p.row == h]
    second = [p for p in grid.placed if p.row == h + 1]
    if not last or not first:
        return None
    if _rule_between(ev, last, first) and (h == 1 or not (second and _rule_between(ev, first, second))):
        return None  # a rule under the header; under every row, it leaves the first row the header by convention
    if Counter(map(_style, last)).most_common(1)[0][0] != Counter(map(_style, first)).most_common(1)[0][0]:
        return None
    labels = grid.filled_grid()[h - 1]
    values = [c for c in range(grid.n_cols) if looks_numeric(body[c]) and labels[c].strip()]
    if values and 2 * sum(not looks_numeric(labels[c]) for c in values) > len(values):
        return None  # labels in words over most of the values
    return f"nothing marks where the header ends (no rule, type or kind of cell changes under row {h})"


def _shapes(row: list[str]) -> list[str]:
    """Each cell's kind ('text', or a number by its decimals), blank cells included."""
    return [value_shape(t) if t.strip() else "" for t in row]


def _rule_between(ev: Evidence, upper: list[Placed], lower: list[Placed]) -> bool:
    """A rule across at least half the table between the two rows of cells."""
    top = max(w.bottom for p in upper for w in p.words)
    bottom = min(w.top for p in lower for w in p.words)
    x0, x1 = ev.region.x0, ev.region.x1
    return any(
        top - 1 <= r.y <= bottom + 1 and min(r.x1, x1) - max(r.x0, x0) >= 0.5 * (x1 - x0) for r in ev.layout.hrules
    )


def _style(p: Placed) -> tuple[bool, bool, float]:
    return is_bold(p.words), is_italic(p.words), round(max(w.size for w in p.words))


NOTE_MARKS = re.compile(r"^(?:[*†‡§¶#]+|[a-z]|Note:?|Notes:?)$")  # what starts a table note


def note_as_row(ev: Evidence) -> str | None:
    """A table's notes follow its last row: a mark ('*', '†', 'a') or 'Note' and running text across the table.
    A last row whose first cell is such a mark (or starts with one) and whose text runs on as a sentence over most
    columns is a note read as a row: the grid has a row, and maybe a column, the table does not."""
    grid = ev.grid
    last = sorted((p for p in grid.placed if p.row == grid.n_rows - 1), key=lambda p: p.col)
    if not last or grid.n_rows - 1 < grid.header_rows + 1:
        return None
    words = " ".join(join_words(p.words) for p in last).split()
    wide = max(p.col_span for p in last) >= 0.6 * grid.n_cols
    if wide and NOTE_MARKS.match(words[0]) and len(words) >= 8:
        return f"the last row ('{' '.join(words[:4])} ...') reads as a note under the table: read as a row?"
    return None


def symbol_in_number(ev: Evidence) -> str | None:
    """A number is set in one font; a digit or letter inside it set in a font of its own, at the same size, between
    two digits (not a point: TeX sets a number's point in its math font), is a symbol (±, −, ×) from a symbol font
    whose codes the PDF leaves as plain characters: the cell reads a digit where the page shows a sign ('726688'
    for '726±88'), and its value is wrong."""
    for p in ev.grid.placed:
        for word in p.words:
            chars = word.chars
            for a, b, c in zip(chars, chars[1:], chars[2:], strict=False):
                odd = _face(b.font) != _face(a.font) == _face(c.font) and b.text.isascii() and b.text.isalnum()
                if odd and a.text.isdigit() and c.text.isdigit() and abs(b.size - a.size) <= 0.1 * a.size:
                    return f"'{word.text}' sets '{b.text}' in a font of its own inside a number: a symbol read as text?"
    return None


def _face(font: str) -> str:
    """A font's name without its subset tag ('ABCDEF+Times-Roman')."""
    return font.split("+", 1)[-1]


def two_numbers(ev: Evidence) -> str | None:
    """A cell holds one value: where several cells of a column print two plain numbers side by side, two columns
    were read as one."""
    texts = ev.grid.text_grid()
    for c in range(ev.stubs, ev.grid.n_cols):
        body = [row[c] for row in texts[ev.grid.header_rows :] if row[c].strip()]
        doubled = [t for t in body if len(t.split()) == 2 and all(PLAIN_NUMBER.match(x) for x in t.split())]
        if len(doubled) >= 2 and 3 * len(doubled) >= len(body):
            return f"{len(doubled)} cells of column {c + 1} print two numbers ('{doubled[0]}'): two columns in one?"
    return None


def _nothing_beyond(ev: Evidence, below: bool) -> bool:
    """Nothing printed in the region's column beyond it (under it, or over it), and the region lies in the page's
    last (first) fifth: it reaches the foot (head) of the text area."""
    region, layout = ev.region, ev.layout
    beyond = [
        ln
        for ln in layout.column_lines
        if layout.body_top <= ln.top
        and ln.bottom <= layout.body_bottom
        and ln.x0 < region.x1
        and region.x0 < ln.x1
        and (region.bottom + 1 < ln.top if below else ln.bottom < region.top - 1)
    ]
    edge = region.bottom / layout.content.height if below else 1 - region.top / layout.content.height
    return not beyond and edge >= EDGE_SHARE


def cut_at_foot(ev: Evidence) -> str | None:
    """A table that ends at the foot of the text area (the page bottom, or the bottom of a column: nothing printed
    under it in its column, low on the page) with no rule closing it may run on overleaf or in the next column."""
    region, layout = ev.region, ev.layout
    if not _nothing_beyond(ev, below=True):
        return None
    width = region.x1 - region.x0
    closing = [
        r
        for r in layout.hrules
        if region.bottom - 2 * layout.body_size <= r.y <= region.bottom + layout.body_size
        and min(r.x1, region.x1) - max(r.x0, region.x0) >= 0.5 * width
    ]
    return None if closing else "ends at the foot of the page or column with no closing rule: it may run on"


def no_caption_at_head(ev: Evidence) -> str | None:
    """A table without a caption that starts at the head of the text area (the top of a page or column: nothing
    printed over it in its column) may be the rest of a table cut at the foot of the column before it, its first
    row taken as header."""
    if ev.region.caption is not None or not _nothing_beyond(ev, below=False):
        return None
    return "no caption of its own, at the head of the page or column: it may continue a table cut before it"


def header_in_caption(ev: Evidence) -> str | None:
    """A caption is running text: the spaces of one of its lines are alike (justifying stretches them all). A
    caption line (after its first) whose words are parted by two or more gaps over twice its narrowest space,
    into three or more pieces each nearest a different column of the grid, is a row of column labels read as
    the caption's last line: the table lost its header, and its first rows may be misread too."""
    caption = ev.region.caption
    if caption is None:
        return None
    centres = [(x0 + x1) / 2 for x0, x1 in _column_spans(ev.grid).values()]
    for line in caption.lines[1:]:
        gaps = line.gaps()
        wide = [k for k, g in enumerate(gaps) if g >= WIDE_SPACE * min(gaps) and g >= 0.5 * line.size] if gaps else []
        cuts = [0, *(k + 1 for k in wide), len(line.words)]
        pieces = [line.words[a:b] for a, b in pairwise(cuts)]
        nearest = {min(centres, key=lambda c: abs(c - (piece[0].x0 + piece[-1].x1) / 2)) for piece in pieces if centres}
        if len(wide) >= CAPTION_PIECES - 1 and len(nearest) >= CAPTION_PIECES:
            return f"the caption's line '{line.text[:40]}' is set in pieces over the columns: a header read as caption?"
    return None


def front_matter(ev: Evidence) -> str | None:
    """On an article's first page, what lies under the title (the largest type) and above the first line of
    running text is front matter: authors, affiliations, addresses, set in columns as often as not, each column
    one author and each row one kind of line. A table without a caption there, with no column of numbers (a
    table's values run down its columns; an address block's numbers run across), is front matter, not a table."""
    region, layout, grid = ev.region, ev.layout, ev.grid
    if layout.number != 1 or region.caption is not None:
        return None
    big = [ln for ln in layout.column_lines if ln.size >= TITLE_SIZE * layout.body_size and ln.bottom <= region.top]
    if not big:
        return None
    title = max(big, key=lambda ln: ln.size)
    width = region.x1 - region.x0
    prose = [
        ln
        for ln in layout.column_lines
        if title.bottom < ln.top and ln.bottom < region.bottom and is_prose(ln, width, layout.body_size)
    ]
    if prose or _numeric_columns(grid):
        return None
    return f"under the title '{title.text[:30]}', above the running text, no column of numbers: front matter?"


def _numeric_columns(grid: Grid) -> list[int]:
    """Columns most of whose filled body cells are numbers."""
    body = grid.text_grid()[grid.header_rows :]
    columns = [[row[c] for row in body if row[c].strip()] for c in range(grid.n_cols)]
    return [c for c, cells in enumerate(columns) if 2 * sum(parse_number(t) is not None for t in cells) > len(cells)]


def text_left_in_frame(ev: Evidence) -> str | None:
    """A ruled table's column rules (between its columns, not the sides of a box that may frame its title and
    notes too) run from its first row to its last: where two or more of them run on past the top (or foot) of
    the region read as the table, over words that no cell holds, those words are a row of the table (often its
    header) left out of the grid."""
    region, layout, grid = ev.region, ev.layout, ev.grid
    placed = {id(w) for p in grid.placed for w in p.words}
    caption = {id(w) for line in (region.caption.lines if region.caption else []) for w in line.words}
    inside = (region.x0 + layout.body_size, region.x1 - layout.body_size)  # (a box's sides may frame notes too)
    upright = [r for r in layout.content.drawing.rules if not r.horizontal and inside[0] < r.x < inside[1]]
    for above in (True, False):
        edge = region.top if above else region.bottom
        sides = [r for r in upright if (r.top < edge - 2 <= r.bottom if above else r.top <= edge + 2 < r.bottom)]
        if len(sides) < FRAME_SIDES:
            continue
        reach = min(r.top for r in sides) if above else max(r.bottom for r in sides)
        band = (region.x0, reach, region.x1, edge) if above else (region.x0, edge, region.x1, reach)
        left = [w for w in layout.words_in(*band) if id(w) not in placed and id(w) not in caption]
        if left:
            words, where = join_words(left)[:30], "above" if above else "below"
            return f"its column rules run on {where} it over '{words}', in no cell: a row left out?"
    return None


def goes_on_below(ev: Evidence) -> str | None:
    """A line of words set right under the table's last line (a cell's line pitch away, no gap), within its width
    and starting in lower case, goes on from a cell of the last row: the region ends a line early and that cell
    is cut (a note under a table stands apart, or starts anew)."""
    region, layout = ev.region, ev.layout
    for line in layout.column_lines:
        if not (region.bottom < line.top <= region.bottom + GAP_UNDER * layout.body_size):
            continue
        if line.x0 < region.x0 - 1 or line.x1 > region.x1 + 1:
            continue
        first = line.words[0]
        if (
            first.chars[0].size >= 0.85 * first.size
            and first.text[:1].islower()
            and re.match(r"[^\W\d_]{2,}", first.text)
        ):
            return f"the line '{line.text[:30]}' goes on right under the last row: its cell may be cut"
    return None


_SYMBOL_FONT = re.compile(r"symbol|greek|mathpi|dingbat", re.IGNORECASE)


def symbol_font_letters(ev: Evidence) -> str | None:
    """A font of Greek letters or symbols that gives its glyphs no Unicode of their own yields the Latin letters and
    digits of their codes ('a' for α, '1' for +): the cell's text is not what the page prints."""
    for p in ev.grid.placed:
        for word in p.words:
            fonts = [
                c.font for c in word.chars if _SYMBOL_FONT.search(c.font) and c.text.isascii() and c.text.isalnum()
            ]
            if fonts:
                return (
                    f"'{word.text}' is set in {fonts[0]} but reads as Latin letters or digits: Greek or symbols lost?"
                )
    return None


SIGNALS: dict[str, tuple[float, Signal]] = {
    "rows of lines": (0.5, rows_of_lines),
    "continuing row": (0.7, continuing_row),
    "stub new line": (0.75, stub_new_line),
    "header line repeated": (0.75, header_line_repeated),
    "numbers in header": (0.6, numbers_in_header),
    "two numbers": (0.7, two_numbers),
    "unmarked header": (0.7, unmarked_header),
    "symbol in number": (0.7, symbol_in_number),
    "note as row": (0.75, note_as_row),
    "cut at foot": (0.75, cut_at_foot),
    "no caption at head": (0.7, no_caption_at_head),
    "symbol font letters": (0.75, symbol_font_letters),
    "goes on below": (0.75, goes_on_below),
    "header in caption": (0.6, header_in_caption),
    "front matter": (0.4, front_matter),
    "text left in frame": (0.75, text_left_in_frame),
}


def grid_doubts(ev: Evidence) -> list[Doubt]:
    """Every doubt the page gives about the table's grid, strongest first."""
    found = [(ceiling, signal(ev)) for ceiling, signal in SIGNALS.values()]
    return sorted((Doubt(c, r) for c, r in found if r is not None), key=lambda d: d.ceiling)


def apply_doubts(table: Table, doubts: list[Doubt]) -> Table:
    """The table's confidence capped by the strongest doubt and lowered by each further one, with every reason."""
    ceiling = round(doubts[0].ceiling * MORE_DOUBTS ** (len(doubts) - 1), 3) if doubts else 1.0
    for d in doubts:
        doubt(table, ceiling, f"doubt: {d.reason}")
    return table


def unplaced_labels(captions: list[Caption], placed: list[tuple[Table, Region]]) -> list[tuple[Table, Doubt]]:
    """A caption seen on the page whose label no table carries, level with a table's region (beside it, or in it):
    the table read there may hold the unplaced one too (side-by-side tables merged into one), or its neighbour's
    reading went wrong in a way that may have touched it."""
    labels = {t.label for t, _ in placed}
    doubts = []
    for caption in captions:
        if caption.label in labels or caption.continued:
            continue
        for table, region in placed:
            reach = 3 * caption.size  # a caption sits this close over (or under) its table
            if region.top - reach <= caption.bottom and caption.top <= region.bottom + reach:
                reason = f"the caption of {caption.label} lies beside or in it, but no table was read under it"
                doubts.append((table, Doubt(0.6, reason)))
    return doubts
