"""Where an object's clip path lets it show. An embedded page (a figure or table set in as a PDF form)
carries its own copy of the whole page, text and rules, and shows only its figure through a clip: what
lies outside the clip is nothing a reader sees."""

from __future__ import annotations

import ctypes

from pipeline.extract.reading import addresses as pdfium

Box = tuple[float, float, float, float]  # left, bottom, right, top in PDF coordinates (or left, top, right, bottom)


def intersection(a: Box, b: Box) -> Box:
    """The part of box ``a`` inside box ``b``, in either frame (empty when its right is left of its left)."""
    return max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])


def clip_box(obj: int) -> Box | None:
    """The box around ``obj``'s clip path, in the coordinates of the form or page holding it (None: no clip)."""
    clip = pdfium.clip_path(obj)
    if not clip:
        return None
    xs, ys = [], []
    point = pdfium.Out(ctypes.c_float, 2, "f")
    for p in range(pdfium.clip_count_paths(clip)):
        for k in range(pdfium.clip_count_segments(clip, p)):
            pdfium.segment_point(pdfium.clip_segment(clip, p, k), *point.at)
            x, y = point.values
            xs.append(x)
            ys.append(y)
    return (min(xs), min(ys), max(xs), max(ys)) if xs else None


def object_box(obj: int) -> Box | None:
    """The box around ``obj``, in the same coordinates as its clip box."""
    box = pdfium.Out(ctypes.c_float, 4, "f")
    if not pdfium.object_bounds(obj, *box.at):
        return None
    left, bottom, right, top = box.values
    return left, bottom, right, top
