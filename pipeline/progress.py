"""Progress bars for long loops: on a terminal (stderr) only, so logs and --json output stay clean."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")


def progress(items: Iterable[T], total: int, desc: str, enabled: bool = True) -> Iterator[T]:
    """A progress bar on a terminal (stderr), nothing otherwise."""
    from tqdm import tqdm  # only commands that show progress pay for its import

    show = enabled and total > 1 and sys.stderr.isatty()
    yield from tqdm(items, total=total, desc=desc, disable=not show, file=sys.stderr, leave=False)
