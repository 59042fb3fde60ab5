"""The displayed page's frame: PDF user space (origin bottom-left, before /Rotate) to points from the
top-left of the page as a reader sees it (pdfplumber's convention, with the page's rotation applied)."""

from __future__ import annotations

from dataclasses import dataclass

import pypdfium2 as pdfium


@dataclass(frozen=True)
class Frame:
    left: float
    bottom: float
    width: float  # of the unrotated media box
    height: float
    rotation: int  # 0, 90, 180 or 270 (clockwise, as /Rotate)

    @classmethod
    def of(cls, page: pdfium.PdfPage) -> Frame:
        left, bottom, right, top = page.get_mediabox()
        return cls(left, bottom, right - left, top - bottom, page.get_rotation() % 360)

    @property
    def size(self) -> tuple[float, float]:
        """Width and height of the page as displayed."""
        return (self.height, self.width) if self.rotation in (90, 270) else (self.width, self.height)

    def point(self, x: float, y: float) -> tuple[float, float]:
        x, y = x - self.left, y - self.bottom
        if self.rotation == 90:
            return y, x
        if self.rotation == 180:
            return self.width - x, y
        if self.rotation == 270:
            return self.height - y, self.width - x
        return x, self.height - y

    def box(self, left: float, bottom: float, right: float, top: float) -> tuple[float, float, float, float]:
        """(x0, top, x1, bottom) of a user-space box."""
        (ax, ay), (bx, by) = self.point(left, bottom), self.point(right, top)
        return min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)

    def upright(self, a: float, b: float) -> bool:
        """Whether text whose matrix runs along (a, b) in user space reads left to right on the display."""
        return self.turn(a, b) == 0

    def turn(self, a: float, b: float) -> int:
        """How far text whose matrix runs along (a, b) is turned on the display, counter-clockwise: 0 reads
        left to right, 90 bottom to top, 270 top to bottom, 180 upside down; -1 slanted."""
        along, across = {0: (a, b), 90: (b, a), 180: (-a, b), 270: (-b, a)}[self.rotation]
        if abs(across) <= 0.05 * abs(along):
            return 0 if along > 0 else 180
        if abs(along) <= 0.05 * abs(across):
            return 90 if across > 0 else 270
        return -1
