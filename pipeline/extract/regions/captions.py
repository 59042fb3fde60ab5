"""Table captions: "Table 3:", "Table S1.", "Supplementary Table 2", "TABLE IV", "Table 1 |"."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from pipeline.extract.page.words import Line, split_line
from pipeline.extract.reading.graphics import Rule

_LABEL = (
    r"^(?P<label>(?:(?:Supplementary|Supplemental|Extended\s+Data|Appendix)\s+)?(?:Table|TABLE|Tab\.|Exhibit|EXHIBIT)\s*"
    r"(?P<num>(?:[A-Z]{1,2}[.-]?)?\d+(?:[.-]\d+)?[a-z]?|[IVXLC]+\b))"
)
_CAPTION = re.compile(_LABEL + r"(?P<rest>\s*(?:[:.|\u2014\u2013(]|-\s|$).*)$")
_BARE_CAPTION = re.compile(_LABEL + r"\s+[A-Z][\w(]")  # "Table 1 Performance of ...": the title at once, capitalised
_TABLE_HEADING = re.compile(r"^[A-Z][A-Z-]*(?: [A-Z][A-Z-]*){0,4} TABLE$")  # "KEY RESOURCES TABLE" (STAR Methods)
_FIGURE = re.compile(
    r"^(?:(?:Supplementary|Extended\s+Data)\s+)?(?:Figure|FIGURE|Fig\.)\s*[A-Z]?\d+[a-z]?\s*(?:[:.|\u2014\u2013(]|-\s|$|[A-Z][a-z])"
)
_PANEL = re.compile(r"^\(([a-h])\)\s+[A-Za-z]")
_CONTINUED = re.compile(r"\b(?:continued|cont\.|cont'd)", re.IGNORECASE)


@dataclass
class Caption:
    label: str  # as printed, spaces normalised: "Table 3", "Table S1", "Supplementary Table 2"
    text: str  # the whole caption, lines joined
    lines: list[Line]
    continued: bool = False  # "Table 2 (continued)"

    @property
    def x0(self) -> float:
        return min(line.x0 for line in self.lines)

    @property
    def x1(self) -> float:
        return max(line.x1 for line in self.lines)

    @property
    def top(self) -> float:
        return min(line.top for line in self.lines)

    @property
    def bottom(self) -> float:
        return max(line.bottom for line in self.lines)

    @property
    def size(self) -> float:
        return self.lines[0].size


def caption_label(text: str) -> str | None:
    """The label a line starts with, if the line starts a table caption ("Table 3: ..." -> "Table 3")."""
    m = _CAPTION.match(text.strip())
    if not m:
        return None
    return _normal_label(m.group("label"))


def _normal_label(label: str) -> str:
    return " ".join(label.replace("Tab.", "Table").replace("TABLE", "Table").replace("EXHIBIT", "Exhibit").split())


def bare_caption_label(text: str) -> str | None:
    """The label of a line that may start a caption with no punctuation after the number (BMC, Springer,
    Dove: "Table 1 Performance of ..."); only set-apart lines count (see ``find_captions``)."""
    label = caption_label(text)
    if label is not None:
        return label
    m = _BARE_CAPTION.match(text.strip())
    return _normal_label(m.group("label")) if m else None


def _set_apart(line: Line, label: str, body_size: float | None) -> bool:
    """A caption start without punctuation is told from running text by its style: the label set bold, or
    the line in a size other than the body text's."""
    n = len(label.split())
    label_words = line.words[:n]
    if label_words and all(w.bold for w in label_words):
        return True
    return body_size is not None and abs(line.size - body_size) > 0.05 * body_size


def starts_panel(text: str) -> bool:
    """A line that opens a panel's sub-caption: "(a) Bulk RNA expression"."""
    return bool(_PANEL.match(text.strip()))


def is_figure_caption(text: str) -> bool:
    return bool(_FIGURE.match(text.strip()))


def line_caption_label(line: Line, body_size: float | None = None) -> str | None:
    """The label ``line`` starts a caption with: punctuated after the number, or bare and set apart."""
    label = caption_label(line.text)
    if label is not None:
        return label
    if _TABLE_HEADING.match(line.text.strip()):  # a table named by a heading instead of a number
        return line.text.strip()
    bare = bare_caption_label(line.text)
    return bare if bare is not None and _set_apart(line, bare, body_size) else None


def find_captions(
    lines: list[Line], rules: Sequence[Rule] = (), body_size: float | None = None, leading: float = 0.0
) -> list[Caption]:
    """Caption starts among column lines (top to bottom), each with the lines that continue it (up to a rule:
    the line after a table's top rule is the table's, however close). ``leading``: the points a page sets
    between its lines beyond single spacing (a double-spaced manuscript sets its captions so too). A label with
    no punctuation after it and no style of its own starts a caption only over a table."""
    captions: list[Caption] = []
    used: set[int] = set()
    for i, line in enumerate(lines):
        if i in used:
            continue
        label, plain = _label_of(line, body_size)
        numbered = label is None and _label_of(_past_line_number(line), body_size)[0] is not None
        if numbered:  # a manuscript's line number before the caption, on a page with too few to be dropped
            line = _past_line_number(line)
            label, plain = _label_of(line, body_size)
        if label is None or _mid_sentence(line, lines[:i], leading):
            continue
        line = split_line(line, 2.0)[0]  # a caption holds no wide gap: past one, another column's text
        body, taken = [line], []
        bare = not re.sub(r"[\W_]", "", line.text.strip()[len(label) :])  # "Table 1." alone: its title follows
        for j in range(i + 1, len(lines)):
            nxt = _past_line_number(lines[j]) if numbered else lines[j]
            first = (body[1] if len(body) > 1 else nxt) if bare else line  # the title may be set in another size
            if j in used or not _continues_caption(body[-1], nxt, first):
                continue
            if nxt.top - body[-1].bottom > 0.9 * line.size + leading or _rule_between(body[-1], nxt, rules):
                break
            body.append(nxt)
            taken.append(j)
        if plain and not _heads_table(body, lines, rules, leading):
            continue
        used.update(taken)
        text = " ".join(b.text for b in body)
        captions.append(Caption(label, text, body, continued=bool(_CONTINUED.search(text[:80]))))
    return captions


def _label_of(line: Line, body_size: float | None) -> tuple[str | None, bool]:
    """The caption label ``line`` starts with, and whether it is plain: no punctuation after the number and no
    style of its own ("Table 1 Results of ..." in the body's size and weight), which running text may print."""
    label = line_caption_label(line, body_size)
    if label is not None:
        return label, False
    plain = bare_caption_label(line.text)
    return plain, plain is not None


def _heads_table(body: list[Line], lines: list[Line], rules: Sequence[Rule], leading: float) -> bool:
    """A table starts right under the caption: the nearest line or rule below it, within two lines' space, is a
    rule as wide as a third of the caption or a line in cells (pieces apart). (Running text right under a table
    may start with a label too: a plain label is read only as a caption over its table.)"""
    bottom = body[-1].bottom
    x0, x1 = min(b.x0 for b in body), max(b.x1 for b in body)
    ids = {id(b) for b in body}
    near = [(ln.top, len(ln.pieces) > 1) for ln in lines if id(ln) not in ids and ln.x1 > x0 and ln.x0 < x1]
    near += [(r.y, True) for r in rules if r.horizontal and r.x1 > x0 and r.x0 < x1 and r.length >= (x1 - x0) / 3]
    ahead = sorted((top, table) for top, table in near if -1 <= top - bottom <= 2 * body[0].size + leading)
    return bool(ahead) and ahead[0][1]


def _mid_sentence(line: Line, before: list[Line], leading: float = 0.0) -> bool:
    """A label that only wrapped to the start of a line of running text ("..., Table S9: Association of
    ... groups, / Table S10: APOE ...", a list of supplementary files): the line right above (at the page's
    line spacing) is prose in the same size and column whose sentence has not ended."""
    prev = next((ln for ln in reversed(before) if ln.bottom <= line.top + 1 and ln.x1 > line.x0), None)
    if prev is None or line.top - prev.bottom > 0.6 * line.size + leading or abs(prev.x0 - line.x0) > line.size:
        return False
    prose = len(prev.words) >= 6 and len(prev.pieces) == 1
    same_size = abs(prev.size - line.size) <= 0.1 * line.size
    return prose and same_size and not prev.text.rstrip().endswith((".", ":", "!", "?", ")"))


def _continues_caption(prev: Line, nxt: Line, first: Line) -> bool:
    """The next line of the caption paragraph: right below, same size, same column, not a new caption."""
    if nxt.top < prev.top or abs(nxt.size - first.size) > 0.15 * first.size:
        return False
    if nxt.x0 < first.x0 - 2 * first.size or nxt.x1 > max(first.x1, prev.x1) + 2 * first.size:
        return False
    if bare_caption_label(nxt.text) or is_figure_caption(nxt.text) or starts_panel(nxt.text):
        return False
    left_aligned = abs(nxt.x0 - first.x0) < 1.5 * first.size
    centred = abs((nxt.x0 + nxt.x1) - (first.x0 + first.x1)) < 2 * first.size
    if not (left_aligned or centred):
        return False
    return max(nxt.gaps(), default=0.0) < 1.5 * nxt.size


def _past_line_number(line: Line) -> Line:
    """The line without a lone integer set apart at its start (a manuscript's line number in the margin)."""
    pieces = line.pieces
    if len(pieces) < 2 or not pieces[0].text.isdigit() or len(pieces[0].text) > 5:
        return line
    return Line([w for piece in pieces[1:] for w in piece.words])


def _rule_between(a: Line, b: Line, rules: Sequence[Rule]) -> bool:
    return any(
        r.horizontal and a.bottom - 1 <= r.y <= b.top + 1 and r.x0 < max(a.x1, b.x1) and r.x1 > min(a.x0, b.x0)
        for r in rules
    )
