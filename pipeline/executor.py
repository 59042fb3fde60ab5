"""One small interface for running per-source work, so a distributed executor can be added later."""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol, TypeVar

T = TypeVar("T")
R = TypeVar("R")


class Executor(Protocol):
    def map_unordered(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[R]:
        """Apply ``fn`` to every item, yielding results as they finish.

        ``fn`` must be a module-level function and must not raise: it reports its own failures in
        its result, so one bad source never stops the others.
        """
        ...


class SerialExecutor:
    def map_unordered(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[R]:
        for item in items:
            yield fn(item)


def _leave_signals_to_the_parent() -> None:
    """Workers leave Ctrl-C to the parent, which stops them all at once (no traceback from each), and die
    quietly when it terminates them (the parent's own SIGTERM handler is not theirs)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


class ProcessExecutor:
    """Local worker processes; ``jobs`` of them.

    On Ctrl-C (or any failure in the parent) the workers are terminated at once rather than left to
    finish: every output is written to a temporary file and renamed, so a killed worker leaves at most a
    temporary file, which the next run of that stage removes.
    """

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs

    def map_unordered(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[R]:
        pool = multiprocessing.Pool(self.jobs, initializer=_leave_signals_to_the_parent)
        try:
            yield from pool.imap_unordered(fn, items)
            pool.close()
        except BaseException:
            pool.terminate()
            raise
        finally:
            pool.join()


def make_executor(jobs: int, n_items: int) -> Executor:
    return ProcessExecutor(jobs) if jobs > 1 and n_items > 1 else SerialExecutor()
