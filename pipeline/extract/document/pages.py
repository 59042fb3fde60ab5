"""The analysed pages of one PDF for the passes over the whole document (running heads counted over every
page, caption sides settled by the document's habit, then each page's tables): read once in page order and
held up to a budget of glyphs and drawn pieces; a page let go is read again from the PDF when a later pass
asks for it, so memory stays bounded however long the document is."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from pipeline.extract.page.layout import PageLayout
from pipeline.extract.page.margins import running_texts, trim_running_matter
from pipeline.extract.regions.captions import Caption, find_captions
from pipeline.progress import steps

HELD_ITEMS = 150_000  # glyphs (with their words and lines) and drawn pieces, about 60 MB: most papers' table
# pages are read once; a page drawn with 100,000 strokes (a dense map) is read again when its turn comes


@dataclass
class Page:
    index: int  # 0-based, in the PDF
    layout: PageLayout
    captions: list[Caption]  # the table captions it prints, top to bottom


class DocumentPages:
    """The pages worth a full read (``read`` says which, with their layout), their running heads trimmed."""

    def __init__(self, read: Callable[[int], PageLayout | None], count: int) -> None:
        self._read = read
        self._held: dict[int, Page] = {}
        self.indexes: list[int] = []  # the pages read, in order
        self.captioned: list[int] = []  # those with a table caption
        self.running: Counter[str] = Counter()  # edge-line texts over the pages read
        held = 0
        for index in steps(range(count), count, "pages"):
            page = self._page(index)
            if page is None:
                continue
            self.indexes.append(index)
            self.captioned += [index] if page.captions else []
            self.running.update(running_texts(page.layout))
            size = page.layout.content.size
            if held + size <= HELD_ITEMS:
                self._held[index] = page
                held += size
        for page in self._held.values():
            trim_running_matter(page.layout, self.running)

    def get(self, index: int) -> Page:
        """Page ``index`` (one of ``indexes``): the one held, or read again and trimmed."""
        page = self._held.get(index)
        if page is None:
            page = self._page(index)
            assert page is not None, f"page {index + 1} was read before"
            trim_running_matter(page.layout, self.running)
        return page

    def release(self, index: int) -> None:
        """Let go of a page no later pass needs."""
        self._held.pop(index, None)

    def _page(self, index: int) -> Page | None:
        layout = self._read(index)
        if layout is None:
            return None
        captions = find_captions(layout.column_lines, layout.hrules, layout.body_size, layout.extra_leading)
        return Page(index, layout, captions)
