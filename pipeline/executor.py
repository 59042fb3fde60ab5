"""One small interface for running per-source work, so a distributed executor can be added later."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
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


class ProcessExecutor:
    """Local worker processes; ``jobs`` of them."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs

    def map_unordered(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[R]:
        with ProcessPoolExecutor(max_workers=self.jobs) as pool:
            futures = [pool.submit(fn, item) for item in items]
            for future in as_completed(futures):
                yield future.result()


def make_executor(jobs: int, n_items: int) -> Executor:
    return ProcessExecutor(jobs) if jobs > 1 and n_items > 1 else SerialExecutor()
