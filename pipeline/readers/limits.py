"""How much text a reader takes: a text source is held several times over while it is read (text, lines,
parse tree, tables), so one beyond the limit is refused before it is read, in one line naming the file."""

from __future__ import annotations

from pipeline.errors import BadInputError
from pipeline.extract.settings import MAX_TEXT_BYTES  # the default of the setting max_text_bytes

__all__ = ["MAX_TEXT_BYTES", "TextTooLargeError", "too_large"]


class TextTooLargeError(BadInputError):
    """A text source beyond the size the readers take (the extract setting ``max_text_bytes``)."""


def too_large(origin: str, size: int | str, limit: int) -> TextTooLargeError:
    return TextTooLargeError(
        f"{origin}: {size} bytes of text, over the limit of {limit} bytes for a text source "
        "(raise it with --set extract.max_text_bytes=N or in config/extract.yaml)"
    )
