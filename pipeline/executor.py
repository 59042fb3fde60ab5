"""One small interface for running per-source work: in this process, in local worker processes, or on a
Dask cluster (``distributed``, the ``dask`` extra), which may or may not see the workspace."""

from __future__ import annotations

import itertools
import logging
import multiprocessing
import signal
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol, TypeVar

from pipeline.errors import LitauditError
from pipeline.extras import import_extra

T = TypeVar("T")
R = TypeVar("R")


class ClusterError(LitauditError):
    """The cluster could not be reached, or lost the workers running a job more often than it retries."""


class Executor(Protocol):
    shares_workspace: bool  # whether ``fn`` may read and write the workspace itself

    def close(self) -> None:
        """Release workers kept between calls (a cluster); the executor is not used afterwards."""
        ...

    def map_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        """Apply ``fn`` to every item, yielding results as they finish.

        ``fn`` must be a module-level function and must not raise: it reports its own failures in
        its result, so one bad source never stops the others.
        """
        ...


class SerialExecutor:
    shares_workspace = True

    def close(self) -> None:
        pass

    def map_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        for item in items:
            yield fn(item)


def _leave_signals_to_the_parent() -> None:
    """Workers leave Ctrl-C to the parent, which stops them all at once (no traceback from each), and die
    quietly when it terminates them (the parent's own SIGTERM handler is not theirs)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def dask_setup(worker: object) -> None:
    """Run by each worker of a local Dask cluster as it starts (``distributed``'s preload hook, which calls
    ``dask_setup`` of the modules named): a terminal's Ctrl-C reaches every process of the run, and each
    worker printed a KeyboardInterrupt traceback of its own while the parent stopped the cluster."""
    _leave_signals_to_the_parent()


class ProcessExecutor:
    """Local worker processes; ``jobs`` of them.

    On Ctrl-C (or any failure in the parent) the workers are terminated at once rather than left to
    finish: every output is written to a temporary file and renamed, so a killed worker leaves at most a
    temporary file, which the next run of that stage removes.
    """

    shares_workspace = True

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs

    def close(self) -> None:
        pass

    def map_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        pool = multiprocessing.Pool(self.jobs, initializer=_leave_signals_to_the_parent)
        try:
            yield from pool.imap_unordered(fn, items)
            pool.close()
        except BaseException:
            pool.terminate()
            raise
        finally:
            pool.join()


class DaskExecutor:
    """Jobs as Dask futures: on a ``LocalCluster`` of ``jobs`` single-threaded workers, or on the cluster at
    ``scheduler`` (started with the standard ``dask scheduler`` / ``dask worker`` commands).

    At most two jobs per worker are in flight, so a pass over thousands of papers never holds them all in
    memory. A worker lost mid-job is retried by Dask; Ctrl-C cancels every future.
    """

    RETRIES = 2

    def __init__(self, jobs: int, scheduler: str = "", shares_workspace: bool = False) -> None:
        self.jobs = jobs
        self.scheduler = scheduler
        self.shares_workspace = shares_workspace
        self._open: Any = None  # the client, started on first use and kept for every stage of a run

    def close(self) -> None:
        if self._open is not None:
            cluster = getattr(self._open, "cluster", None)
            self._open.close()
            if cluster is not None:
                cluster.close()
            self._open = None

    def _client(self) -> Any:
        if self._open is None:
            self._open = self._connect()
        return self._open

    def _connect(self) -> Any:
        distributed = import_extra("distributed", "dask", "--executor dask")
        import dask  # installed with distributed

        # Dask keeps the last 1,000 messages of each connection for debugging, and every job message carries
        # the bytes of a paper: the client (and the scheduler it holds) grew with the number of jobs.
        config: dict[str, object] = {"distributed.admin.low-level-log-length": 0}
        if not self.scheduler:
            # What a job does comes back as its result, a lost worker as ClusterError; the local workers' own log
            # lines are cluster internals, and on shutdown a heartbeat racing its worker's close logs a traceback.
            # ``silence_logs`` is undone while a worker closes, so the level is set in the environment distributed
            # reads on import in each worker process.
            config["distributed.nanny.pre-spawn-environ.DASK_LOGGING__DISTRIBUTED"] = "critical"
        try:
            with dask.config.set(config):
                if self.scheduler:
                    return distributed.Client(self.scheduler, timeout="10s")
                cluster = distributed.LocalCluster(
                    n_workers=self.jobs,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    # the scheduler serves HTTP (health, metrics) even without a dashboard, by default on port
                    # 8787, and warned when a second run on the machine found it taken
                    scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                    silence_logs=logging.CRITICAL,
                    preload=[__name__],  # dask_setup above
                )
                return distributed.Client(cluster)
        except OSError as exc:
            raise ClusterError(f"dask scheduler {self.scheduler or '(local)'}: cannot connect ({exc})") from None

    def map_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        distributed = import_extra("distributed", "dask", "--executor dask")
        client = self._client()
        pending = iter(items)
        running = distributed.as_completed()
        workers = max(1, len(client.scheduler_info().get("workers", {})) or self.jobs)

        def submit(count: int) -> None:
            for item in itertools.islice(pending, count):
                running.add(client.submit(fn, item, pure=False, retries=self.RETRIES))

        try:
            submit(2 * workers)
            for future in running:
                try:
                    result = future.result()
                except distributed.KilledWorker as exc:
                    raise ClusterError(f"dask: workers died {self.RETRIES + 1} times running one job ({exc})") from None
                yield result
                submit(1)
        except BaseException:
            for future in list(running.futures):
                future.cancel()
            self.close()
            raise


def make_executor(
    jobs: int, n_items: int, kind: str = "local", scheduler: str = "", shared_fs: bool = False
) -> Executor:
    """``kind`` "dask" (or a ``scheduler`` address) for Dask; else local processes when there is parallel work."""
    if kind == "dask" or scheduler:
        return DaskExecutor(jobs, scheduler, shares_workspace=shared_fs)
    return ProcessExecutor(jobs) if jobs > 1 and n_items > 1 else SerialExecutor()
