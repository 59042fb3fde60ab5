"""pdfium's functions with handles and out-parameters passed as plain addresses (ints).

pypdfium2's bindings type every handle; converting a handle or a byref'd out-parameter costs more than the
call itself, and the extractor makes a few calls per glyph and per path segment. A handle obtained here is
an int (None for NULL); an out-parameter is ``ctypes.addressof`` of a buffer made once.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from typing import Any

import pypdfium2.raw as pdfium_c


def _plain(kind: Any) -> Any:
    return ctypes.c_void_p if isinstance(kind, type) and issubclass(kind, ctypes._Pointer) else kind


def by_address(function: Any) -> Callable[..., Any]:
    """``function`` (a pypdfium2.raw function) with every pointer argument and result a plain address."""
    prototype = ctypes.CFUNCTYPE(_plain(function.restype), *(_plain(t) for t in function.argtypes))
    return prototype(ctypes.cast(function, ctypes.c_void_p).value)


class Out:
    """An out-parameter: the addresses pdfium writes to, and what it wrote, read back as plain numbers (through a
    memoryview: ctypes' item access costs more than the call). Where the calls are many (the page walk), make
    one and reuse it."""

    def __init__(self, kind: type[Any], count: int, code: str) -> None:
        self._buffer = (kind * count)()
        base = ctypes.addressof(self._buffer)
        self.at = tuple(base + k * ctypes.sizeof(kind) for k in range(count))
        self.values = memoryview(self._buffer).cast("B").cast(code)


def address(handle: object) -> int:
    """The address of a pypdfium2 handle (``page.raw``, ``textpage.raw``)."""
    return ctypes.cast(handle, ctypes.c_void_p).value or 0


# text pages
text_object = by_address(pdfium_c.FPDFText_GetTextObject)
loose_char_box = by_address(pdfium_c.FPDFText_GetLooseCharBox)
char_origin = by_address(pdfium_c.FPDFText_GetCharOrigin)
char_matrix = by_address(pdfium_c.FPDFText_GetMatrix)
font_size = by_address(pdfium_c.FPDFText_GetFontSize)
font_info = by_address(pdfium_c.FPDFText_GetFontInfo)
# page objects
count_objects = by_address(pdfium_c.FPDFPage_CountObjects)
get_object = by_address(pdfium_c.FPDFPage_GetObject)
form_count_objects = by_address(pdfium_c.FPDFFormObj_CountObjects)
form_get_object = by_address(pdfium_c.FPDFFormObj_GetObject)
object_type = by_address(pdfium_c.FPDFPageObj_GetType)
object_matrix = by_address(pdfium_c.FPDFPageObj_GetMatrix)
object_bounds = by_address(pdfium_c.FPDFPageObj_GetBounds)
fill_color = by_address(pdfium_c.FPDFPageObj_GetFillColor)
stroke_color = by_address(pdfium_c.FPDFPageObj_GetStrokeColor)
stroke_width = by_address(pdfium_c.FPDFPageObj_GetStrokeWidth)
clip_path = by_address(pdfium_c.FPDFPageObj_GetClipPath)
text_render_mode = by_address(pdfium_c.FPDFTextObj_GetTextRenderMode)
text_font = by_address(pdfium_c.FPDFTextObj_GetFont)
# fonts
glyph_path = by_address(pdfium_c.FPDFFont_GetGlyphPath)
glyph_path_count = by_address(pdfium_c.FPDFGlyphPath_CountGlyphSegments)
glyph_path_segment = by_address(pdfium_c.FPDFGlyphPath_GetGlyphPathSegment)
# paths
draw_mode = by_address(pdfium_c.FPDFPath_GetDrawMode)
count_segments = by_address(pdfium_c.FPDFPath_CountSegments)
path_segment = by_address(pdfium_c.FPDFPath_GetPathSegment)
clip_count_paths = by_address(pdfium_c.FPDFClipPath_CountPaths)
clip_count_segments = by_address(pdfium_c.FPDFClipPath_CountPathSegments)
clip_segment = by_address(pdfium_c.FPDFClipPath_GetPathSegment)
segment_point = by_address(pdfium_c.FPDFPathSegment_GetPoint)
segment_type = by_address(pdfium_c.FPDFPathSegment_GetType)
segment_close = by_address(pdfium_c.FPDFPathSegment_GetClose)
