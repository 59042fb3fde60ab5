"""Progress bars for long loops: on a terminal (stderr) only, so logs and --json output stay clean.

``progress`` counts what a command loops over (sources); ``steps`` counts the work within one source (pages,
tables, checks), shown while a command that shows progress runs its stages in this process (``showing``): a
worker's bars would interleave with the other workers' and the command's own.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")

_shown_in: int | None = None  # the process whose command shows progress within a source


def progress(items: Iterable[T], total: int, desc: str, enabled: bool = True) -> Iterator[T]:
    """A progress bar on a terminal (stderr), nothing otherwise."""
    from tqdm import tqdm  # only commands that show progress pay for its import

    show = enabled and total > 1 and sys.stderr.isatty()
    yield from tqdm(items, total=total, desc=desc, disable=not show, file=sys.stderr, leave=False)


@contextlib.contextmanager
def showing(enabled: bool) -> Iterator[None]:
    """Bars within a source (:func:`steps`) for the stages this process runs meanwhile, when ``enabled``."""
    global _shown_in
    before, _shown_in = _shown_in, os.getpid() if enabled else None
    try:
        yield
    finally:
        _shown_in = before


def steps(items: Iterable[T], total: int, desc: str) -> Iterator[T]:
    """Progress within one source (its pages, tables, checks), on a terminal under :func:`showing` only."""
    return progress(items, total, desc, _shown_in == os.getpid())
