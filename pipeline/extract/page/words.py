"""Glyphs to words, and words to text lines: the units every later step reasons about."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from pipeline.extract.page.once import made_once
from pipeline.extract.reading.chars import Char


@dataclass(slots=True)
class Word:
    chars: list[Char]
    x0: float
    x1: float
    top: float
    bottom: float
    size: float  # the largest glyph size in the word (superscripts are smaller)
    upright: bool = True
    _baseline: float | None = None
    _text: str | None = None

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = "".join(c.text for c in self.chars) if self.upright else _sideways_text(self.chars)
        return self._text

    @property
    def baseline(self) -> float:
        """Mean baseline of the full-size glyphs (a raised mark does not move it)."""
        if self._baseline is None:
            main = [c for c in self.chars if c.size >= 0.85 * self.size]
            self._baseline = sum(c.baseline for c in main) / len(main)
        return self._baseline

    @property
    def center_x(self) -> float:
        return (self.x0 + self.x1) / 2

    @property
    def middle(self) -> float:
        return (self.top + self.bottom) / 2

    @property
    def bold(self) -> bool:
        letters = [c for c in self.chars if c.text.isalnum()] or self.chars
        return sum(c.bold for c in letters) * 2 > len(letters)

    @property
    def italic(self) -> bool:
        letters = [c for c in self.chars if c.text.isalpha()] or self.chars
        return sum(c.italic for c in letters) * 2 > len(letters)

    def add(self, ch: Char) -> None:
        self.chars.append(ch)
        self._baseline = self._text = None
        if ch.x0 < self.x0:
            self.x0 = ch.x0
        if ch.x1 > self.x1:
            self.x1 = ch.x1
        if ch.size >= 0.85 * self.size:  # superscripts do not stretch the word's box
            if ch.top < self.top:
                self.top = ch.top
            if ch.bottom > self.bottom:
                self.bottom = ch.bottom
        if ch.size > self.size:
            self.size, self.top, self.bottom = ch.size, ch.top, ch.bottom


SPACE_EM = 0.12  # a gap between glyphs wider than this share of the font size is a space


def _sideways_text(chars: list[Char]) -> str:
    """A sideways run's glyphs, a space where they leave one: the gap is measured along the run, whichever
    way it reads (loose boxes span each glyph's advance, so a gap is a true space)."""
    parts = [chars[0].text]
    for a, b in pairwise(chars):
        gap = max(b.top - a.bottom, a.top - b.bottom, b.x0 - a.x1, a.x0 - b.x1)
        parts.append(" " + b.text if gap > SPACE_EM * max(a.size, b.size) else b.text)
    return "".join(parts)


def new_word(ch: Char) -> Word:
    return Word([ch], ch.x0, ch.x1, ch.top, ch.bottom, ch.size, ch.upright)


def build_words(chars: Iterable[Char], word_gap: float) -> list[Word]:
    """Consecutive glyphs (content-stream order) on one baseline with no real space between them."""
    words: list[Word] = []
    current: Word | None = None
    for ch in chars:
        if current is not None and _continues(current, ch, word_gap):
            current.add(ch)
            continue
        current = new_word(ch)
        words.append(current)
    return words


def _continues(word: Word, ch: Char, word_gap: float) -> bool:
    if not (word.upright and ch.upright):
        return word.upright == ch.upright and _near(word, ch)
    last = word.chars[-1]
    size = ch.size
    em = max(last.size, size)
    gap = ch.x0 - last.x1
    if gap < -0.3 * em:
        return False
    if gap > word_gap * em or gap > 0.5 * em:  # an exponent or mark joins its number across a wider gap
        raised = size < 0.85 * word.size and ch.bottom < word.baseline - 0.1 * word.size
        if gap > (0.5 if raised else word_gap) * em:
            return False
    top, bottom = ch.top, ch.bottom
    overlap = min(word.bottom, bottom) - max(word.top, top)
    return overlap > 0.3 * min(word.bottom - word.top, bottom - top)


def _near(word: Word, ch: Char) -> bool:
    em = max(word.size, ch.size)
    vertical_gap = max(ch.top - word.bottom, word.top - ch.bottom)
    return ch.x0 - word.x1 < 0.3 * em and word.x0 - ch.x1 < 0.3 * em and vertical_gap < 0.3 * em


@dataclass
class Line:
    """Words sharing a baseline, left to right. Its measures are computed once, when first asked for:
    build the word list first."""

    words: list[Word] = field(default_factory=list)

    @made_once
    def x0(self) -> float:
        return min(w.x0 for w in self.words)

    @made_once
    def x1(self) -> float:
        return max(w.x1 for w in self.words)

    @made_once
    def top(self) -> float:
        return min(w.top for w in self.main_words)

    @made_once
    def bottom(self) -> float:
        return max(w.bottom for w in self.main_words)

    @made_once
    def size(self) -> float:
        return max(w.size for w in self.words)

    @made_once
    def main_words(self) -> list[Word]:
        size = self.size
        return [w for w in self.words if w.size >= 0.8 * size] or self.words

    @made_once
    def baseline(self) -> float:
        main = self.main_words
        return sum(w.baseline for w in main) / len(main)

    @made_once
    def text(self) -> str:
        return join_words(self.words)

    @made_once
    def pieces(self) -> list[Line]:
        """The line broken at gaps wider than an em (where it crosses a table, its cells): asked for by many
        tests of a line, so made once."""
        return split_line(self, 1.0)

    def gaps(self) -> list[float]:
        return [b.x0 - a.x1 for a, b in pairwise(self.words)]


def join_words(words: Sequence[Word]) -> str:
    """Words in reading order (lines top to bottom, words left to right), one space where the glyphs
    leave a real space and between lines."""
    if len(words) == 1:
        return words[0].text
    lines: list[list[Word]] = []
    for w in sorted(words, key=lambda w: (-w.size, w.middle)):
        home = next((ln for ln in lines if _same_line(ln[0], w)), None)
        if home is None:
            lines.append([w])
        else:
            home.append(w)
    parts: list[str] = []
    for line in sorted(lines, key=lambda ln: ln[0].middle):
        prev: Word | None = None
        for w in sorted(line, key=lambda w: w.x0):
            if prev is not None:
                parts.append(" " if w.x0 - prev.x1 > SPACE_EM * max(prev.size, w.size) else "")
            elif parts:
                parts.append(" ")
            parts.append(w.text)
            prev = w
    return "".join(parts)


def raised_tail(words: Sequence[Word]) -> str:
    """The smaller glyphs set above the baseline at the end of the last line (an exponent, a mark)."""
    line = max(words, key=lambda w: (round(w.baseline), w.x1))
    main = [c for c in line.chars if c.size >= 0.85 * line.size]
    tail: list[str] = []
    for ch in reversed(line.chars):
        if ch.size >= 0.85 * line.size or not main or ch.baseline > line.baseline - 0.2 * line.size:
            break
        tail.append(ch.text)
    return "".join(reversed(tail))


def _same_line(anchor: Word, w: Word) -> bool:
    if w.size >= 0.85 * anchor.size:
        return abs(w.baseline - anchor.baseline) <= 0.3 * anchor.size
    return min(anchor.bottom, w.bottom) - max(anchor.top, w.top) > 0.3 * (w.bottom - w.top)


def group_lines(words: Iterable[Word]) -> list[Line]:
    """Cluster words into lines, top to bottom: full-size words by baseline, then small raised or
    lowered glyphs (marks, subscripts) into the line their box overlaps most."""
    ordered = sorted(words, key=lambda w: (-round(w.size, 1), w.baseline))
    lines: list[Line] = []
    keys: list[float] = []  # baselines of the lines, sorted
    anchors: list[tuple[float, float, float, float, int]] = []  # baseline, size, top, bottom, line index
    for w in ordered:
        best, best_score = -1, 0.0
        lo = bisect_left(keys, w.baseline - 2 * w.size)
        hi = bisect_right(keys, w.baseline + 2 * w.size)
        for baseline, size, top, bottom, index in anchors[lo:hi]:
            if w.size >= 0.85 * size:
                shift = abs(w.baseline - baseline)
                score = 1.0 - shift / (0.25 * size) if shift <= 0.25 * size else 0.0
            else:
                overlap = min(bottom, w.bottom) - max(top, w.top)
                score = overlap / max(w.bottom - w.top, 1e-6) - 0.5
            if score > best_score:
                best, best_score = index, score
        if best >= 0:
            lines[best].words.append(w)
            continue
        lines.append(Line([w]))
        at = bisect_right(keys, w.baseline)
        keys.insert(at, w.baseline)
        anchors.insert(at, (w.baseline, w.size, w.top, w.bottom, len(lines) - 1))
    for line in lines:
        line.words.sort(key=lambda w: w.x0)
    return sorted(lines, key=lambda line: line.baseline)


def split_line(line: Line, gap_em: float) -> list[Line]:
    """Break a line where the horizontal gap between words is wider than ``gap_em`` times the font size."""
    pieces: list[Line] = [Line([line.words[0]])]
    for a, b in pairwise(line.words):
        if b.x0 - a.x1 > gap_em * max(a.size, b.size):
            pieces.append(Line([b]))
        else:
            pieces[-1].words.append(b)
    return pieces
