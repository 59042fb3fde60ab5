"""The paper's body text: sentences (with their page) that cite tables, define metrics or claim things.

Read with pypdfium2 (fast, with character boxes), leaving out the characters inside table regions and
the caption blocks, so that what remains is what the authors wrote about their tables. A line running across
a region's edge is body text the region took in (an extracted box grown too far) and is kept whole.
"""

from __future__ import annotations

import itertools
import re
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pypdfium2 as pdfium
from rapidfuzz import fuzz

from pipeline.errors import BadInputError
from pipeline.model import BBox, Table
from pipeline.numbers import normalise

_CAPTION_START = re.compile(r"^\s*((?:Supplementary\s+)?(?:Table|TABLE|Tab\.)\s*S?\d+[A-Za-z]?)\s*[:.|]\s*(.*)$")
_FIGURE_START = re.compile(r"^\s*((?:Supplementary\s+)?(?:Figure|FIGURE|Fig\.)\s*(S?\d+)[A-Za-z]?)\s*[:.|]\s*(.*)$")
_TABLE_REF = re.compile(
    r"\b(Supplementary\s+|Suppl?\.\s+)?Tab(?:les?|s?\.)\s*(S?\d+)((?:\s*(?:,|and|&|–|-|to)\s*S?\d+)*)", re.IGNORECASE
)
_ABBREVIATIONS = r"(?:e\.g|i\.e|et al|Fig|Figs|Tab|Eq|Eqs|Sec|Secs|vs|cf|resp|approx|No|Ref|Refs|al|Suppl|Supp|Ch)"
_HEADING = re.compile(
    r"^(?:\d+(?:\.\d+)*\.?\s+[A-Z][\w ,:&()/-]{1,70}|Abstract|ABSTRACT|References|Acknowledge?ments?|Appendix)$"
)
_WITH_UNIT = re.compile(r"(?<![\w.\-])(?P<num>\d+(?:\.\d+)?)\s?(?P<unit>[A-Za-zμµÅ°][^\s,;()]*)")
_HEADER_UNIT = re.compile(r"\(\s*(?:(?:[x×]\s*)?10\s*\^?\s*(?P<exp>[-−]?\d+)\s*)?(?P<unit>[^()]*?)\s*\)")
_FIGURE_REF = re.compile(r"\b(?:Fig(?:ure)?s?\.?)\s*S?\d", re.IGNORECASE)
_RUN_IN = re.compile(r"(?:[A-Z][\w-]*(?:\s+[\w-]+){0,3}|\(?[ivx\d]+[.)]|[•·-])\s*[.:]?")  # "Calibration." "(ii)"
SCOPE = 3  # sentences after a citation that still speak of its tables
CROSSING = 5  # characters on each side of a table box's edge that make a line body text running into it


@dataclass(frozen=True)
class Sentence:
    page: int
    text: str
    block: int = -1  # the run of body text between headings it belongs to (-1: unknown)


@dataclass
class PaperText:
    """Body sentences (captions and table contents removed) and the caption blocks found on the way."""

    sentences: list[Sentence] = field(default_factory=list)
    captions: dict[str, str] = field(default_factory=dict)  # table key ("3", "S1") -> caption text
    figure_captions: dict[str, str] = field(default_factory=dict)  # figure number ("3", "S2") -> caption text

    def in_scope(self) -> list[tuple[Sentence, set[str]]]:
        """Sentences that cite no table or figure but follow, in the same block of text, one that cites tables:
        they speak of those tables ("Table 3 reports calibration. Calibration. ECE is below 0.05 on all
        datasets."). A run-in heading or a list item does not end the scope; another citation, a block's end or
        the third sentence after does."""
        scoped: list[tuple[Sentence, set[str]]] = []
        keys: set[str] = set()
        left = 0
        for previous, sentence in itertools.pairwise([Sentence(0, "", -2), *self.sentences]):
            if sentence.block < 0 or sentence.block != previous.block:
                keys, left = set(), 0
            cited = cited_tables(sentence.text)
            if cited or _FIGURE_REF.search(sentence.text):
                keys, left = cited, SCOPE
                continue
            if keys and left > 0:
                scoped.append((sentence, set(keys)))
                left -= 0 if _RUN_IN.fullmatch(sentence.text) else 1
        return scoped

    def with_sentences(self, extra: Iterable[Sentence]) -> PaperText:
        return PaperText([*self.sentences, *extra], dict(self.captions), dict(self.figure_captions))


def table_key(label: str | None) -> str | None:
    """ "Table 3" -> "3"; "Table S1" and "Supplementary Table 1" -> "S1"."""
    if not label:
        return None
    match = re.search(r"(Supplementary|Suppl?\.)?\s*Tab\w*\.?\s*(S?)(\d+)", label, re.IGNORECASE)
    if not match:
        return None
    supplementary = bool(match.group(1) or match.group(2))
    return ("S" if supplementary else "") + match.group(3)


def cited_tables(sentence: str) -> set[str]:
    """Keys of every table a sentence refers to ("Tables 2 and 3" -> {"2", "3"})."""
    keys: set[str] = set()
    for match in _TABLE_REF.finditer(sentence):
        prefix = "S" if match.group(1) else ""
        first = match.group(2).upper()
        keys.add(first if first.startswith("S") else prefix + first)
        plural = re.match(r"\w*Tab(les|s\.)", match.group(0).replace(" ", ""), re.IGNORECASE)
        rest = (match.group(3) or "") if plural else ""
        numbers = re.findall(r"S?\d+", rest, re.IGNORECASE)
        if re.search(r"(–|-|to)\s*S?\d+\s*$", rest) and numbers and first.lstrip("S").isdigit():
            start, end = int(first.lstrip("S")), int(numbers[-1].lstrip("sS"))
            numbers = [str(n) for n in range(start, min(end, start + 20) + 1)]
        for number in numbers:
            number = number.upper()
            keys.add(number if number.startswith("S") else prefix + number)
    return keys


@dataclass(frozen=True)
class Quantity:
    """A number the text prints with its unit ("89.2 s-1", "6.5 μM"), and where it starts."""

    number: str
    unit: str
    start: int


def unit_key(unit: str) -> str:
    """One spelling per unit: "µM" and "μM", "s−1", "s^-1" and "s -1" are each one."""
    return re.sub(r"[\s^]", "", normalise(unit).replace("µ", "μ")).rstrip(".").lower()


def quantities(sentence: str) -> list[Quantity]:
    """The numbers of a sentence printed with a unit right after them (a scale "× 10-3" before the unit counts as
    no unit: the number is then not in the unit alone)."""
    return [Quantity(m.group("num"), m.group("unit").rstrip("."), m.start()) for m in _WITH_UNIT.finditer(sentence)]


def header_unit(label: str) -> tuple[int, str] | None:
    """The power of ten and the unit a header's parentheses print: "kcat (10-3 s-1)" -> (-3, "s-1")."""
    for match in _HEADER_UNIT.finditer(normalise(label)):
        unit = match.group("unit").strip()
        if unit and re.search(r"[A-Za-zμµÅ°]", unit) and len(unit) <= 20:
            return int((match.group("exp") or "0").replace("−", "-")), unit
    return None


def split_sentences(text: str) -> list[str]:
    """Sentences of running text; abbreviations such as "e.g." and "et al." do not end one."""
    text = re.sub(r"\s+", " ", text).strip()
    if not text:
        return []
    pieces = re.split(r"(?<=[.!?])\s+(?=[A-Z0-9(\[“\"'])", text)
    sentences: list[str] = []
    for piece in pieces:
        if sentences and re.search(rf"\b{_ABBREVIATIONS}\.$", sentences[-1]):
            sentences[-1] += " " + piece
        else:
            sentences.append(piece)
    return sentences


def paper_text_from_string(text: str, page: int = 1) -> PaperText:
    """Body text given as a string (tests, the seeded-error benchmark)."""
    return PaperText([Sentence(page, s, 0) for s in split_sentences(normalise(text))])


def read_paper_text(pdf_path: Path, tables: Sequence[Table] = ()) -> PaperText:
    """The body text of a PDF, without table contents and without the captions of ``tables``."""
    try:
        document = pdfium.PdfDocument(str(pdf_path))
    except (pdfium.PdfiumError, OSError) as exc:
        raise BadInputError(f"{pdf_path}: cannot read the PDF's text ({exc})") from None
    known = {table_key(t.label): t.caption for t in tables if t.label and t.caption}
    regions: dict[int, list[BBox]] = {}
    for table in tables:
        if any(table.bbox):
            for page in [table.page, *table.continued_pages]:
                regions.setdefault(page, []).append(table.bbox)
    result = PaperText()
    try:
        pages = [_page_lines(document[n], regions.get(n + 1, [])) for n in range(len(document))]
    finally:
        document.close()
    repeated = _running_heads(pages)
    block = 0
    for number, page_lines in enumerate(pages, 1):
        lines = [line for line in page_lines if _head_key(line.text) not in repeated]
        body, captions = _split_captions(lines, known)
        for key, caption in captions.items():
            if key.startswith("fig:"):
                result.figure_captions.setdefault(key[4:], caption)
            else:
                result.captions.setdefault(key, caption)
        for lines_of_block in _blocks(body):
            block += 1
            result.sentences.extend(Sentence(number, s, block) for s in split_sentences(_join_lines(lines_of_block)))
    return result


def _blocks(lines: list[str]) -> list[list[str]]:
    """Runs of body lines between section headings ("3 Results", "4.1 Datasets", "Abstract"), headings left out."""
    blocks: list[list[str]] = [[]]
    for line in lines:
        if _HEADING.match(line):
            blocks.append([])
        else:
            blocks[-1].append(line)
    return [b for b in blocks if b]


def _head_key(text: str) -> str:
    return re.sub(r"\d+", "#", text.strip().lower())


def _running_heads(pages: list[list[_Line]]) -> set[str]:
    """Lines printed on many pages (running heads, page numbers, footers), left out of the body text."""
    seen: dict[str, int] = {}
    for lines in pages:
        for key in {_head_key(line.text) for line in lines if len(line.text) <= 150}:
            seen[key] = seen.get(key, 0) + 1
    return {key for key, n in seen.items() if n >= 2 and n >= 0.3 * len(pages)}


@dataclass
class _Line:
    text: str
    top: float = 0.0  # median glyph top and bottom (robust to superscripts and odd glyph boxes)
    bottom: float = 0.0

    @property
    def height(self) -> float:
        return self.bottom - self.top


def _page_lines(page: pdfium.PdfPage, regions: list[BBox]) -> list[_Line]:
    """The page's text lines (top-left origin), leaving out characters inside table regions."""
    textpage = page.get_textpage()
    height = page.get_height()
    lines: list[_Line] = []
    try:
        text = textpage.get_text_range()
        boxed = len(text) == textpage.count_chars()
        current: list[_Char] = []
        for index, char in enumerate([*text, "\n"]):
            if char in "\r\n":
                line = _line_of(current)
                if line is not None:
                    lines.append(line)
                current = []
                continue
            if boxed and not char.isspace():
                left, bottom, right, top = textpage.get_charbox(index)
                x, y = (left + right) / 2, height - (bottom + top) / 2
                inside = any(x0 - 2 <= x <= x1 + 2 and t0 - 2 <= y <= b0 + 2 for x0, t0, x1, b0 in regions)
                current.append(_Char(char, inside, height - top, height - bottom))
            else:
                current.append(_Char(char))
    finally:
        textpage.close()
    return lines


@dataclass(frozen=True)
class _Char:
    text: str
    inside: bool = False  # within a table's box
    top: float | None = None
    bottom: float | None = None


def _line_of(chars: list[_Char]) -> _Line | None:
    """A line less its characters inside table boxes; kept whole when it runs across a box's edge, several
    characters on each side: body text that a table's box took in (a box grown over the next column)."""
    inside = sum(c.inside for c in chars)
    outside = sum(not c.inside and not c.text.isspace() for c in chars)
    kept = chars if min(inside, outside) >= CROSSING else [c for c in chars if not c.inside]
    text = normalise("".join(c.text for c in kept)).strip()
    if not text:
        return None
    tops = [c.top for c in kept if c.top is not None]
    bottoms = [c.bottom for c in kept if c.bottom is not None]
    top, bottom = (statistics.median(tops), statistics.median(bottoms)) if tops else (0.0, 0.0)
    return _Line(text, top, bottom)


def _split_captions(lines: list[_Line], known: dict[str | None, str]) -> tuple[list[str], dict[str, str]]:
    """Body lines, and caption blocks keyed by table key ("Table 3: ..." at the start of a line).

    A caption block ends where its known text ends, or at the first wider gap between lines.
    """
    body: list[str] = []
    captions: dict[str, str] = {}
    pitches = [(a.height, b.bottom - a.bottom) for a, b in itertools.pairwise(lines) if 0 < b.bottom - a.bottom < 40]
    index = 0
    while index < len(lines):
        line = lines[index]
        key, rest = _caption_key(line.text)
        if key is None or not _looks_like_caption(rest, known.get(key)):
            body.append(line.text)
            index += 1
            continue
        block = [line]
        target = len(known[key]) - 5 if key in known and len(known[key]) > 90 else None
        index += 1
        while index < len(lines) and len(block) < 12:
            following, last = lines[index], block[-1]
            if target is not None and len(" ".join(b.text for b in block)) >= target:
                break
            pitch = _usual_pitch(pitches, last.height)
            if _caption_key(following.text)[0] is not None or not _same_block(last, following, pitch):
                break
            block.append(following)
            index += 1
        captions.setdefault(key, _join_lines([b.text for b in block]))
    return body, captions


def _caption_key(text: str) -> tuple[str | None, str]:
    """("3", rest) for a line opening a table caption, ("fig:3", rest) for a figure caption, else (None, "")."""
    match = _CAPTION_START.match(text)
    if match and table_key(match.group(1)):
        return table_key(match.group(1)), match.group(2)
    figure = _FIGURE_START.match(text)
    if figure:
        return "fig:" + figure.group(2).upper(), figure.group(3)
    return None, ""


def _usual_pitch(pitches: list[tuple[float, float]], height: float) -> float:
    """The page's usual baseline-to-baseline distance for lines of about this glyph height."""
    similar = [p for h, p in pitches if abs(h - height) <= 0.2 * max(height, 1e-6)]
    chosen = similar or [p for _, p in pitches]
    return statistics.median(chosen) if chosen else 0.0


def _same_block(last: _Line, following: _Line, pitch: float) -> bool:
    """The next line continues the block: similar glyph size and no more than the page's usual leading."""
    if not pitch or not last.height or not following.height:
        return not last.text.endswith(".")
    similar = abs(following.height - last.height) <= 0.35 * max(last.height, following.height)
    return similar and -last.height <= following.bottom - last.bottom <= 1.5 * pitch


def _looks_like_caption(rest: str, known_caption: str | None) -> bool:
    if not rest or not (rest[0].isupper() or rest[0] in "(“\"'"):
        return False
    if known_caption is None:
        return True
    start = re.sub(r"^\s*(?:Supplementary\s+)?Tab\w*\.?\s*S?\d+[A-Za-z]?\s*[:.|]\s*", "", known_caption)
    size = min(len(rest), len(start), 60)
    return size > 0 and fuzz.ratio(rest[:size].lower(), start[:size].lower()) >= 75


def _join_lines(lines: list[str]) -> str:
    """Lines joined into running text; a hyphen at a line end joins the word back."""
    text = ""
    for line in lines:
        if not line:
            continue
        if text.endswith("\ufffe") or (text.endswith("-") and line[:1].islower()):
            text = text[:-1] + line
        else:
            text = f"{text} {line}" if text else line
    return text.replace("\ufffe", "")
