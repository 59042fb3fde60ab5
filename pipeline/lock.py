"""One writer per workspace: two commands that write the same files must not do the same work at once.

An advisory ``flock`` on ``<root>/.litaudit.lock``: the kernel releases it when the holder exits, however
it exits, so a killed run never leaves the workspace locked. The holder writes who it is into the file,
so the one refused can say what it waits for.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pipeline.clock import utc_now
from pipeline.errors import WorkspaceBusyError

LOCK_FILE = ".litaudit.lock"
POLL_SECONDS = 0.2


def _holder(handle: int) -> str:
    os.lseek(handle, 0, os.SEEK_SET)
    text = os.read(handle, 4096).decode("utf-8", errors="replace").strip()
    return text or "another litaudit command"


@contextmanager
def workspace_lock(root: Path, command: str, wait: bool = False) -> Iterator[None]:
    """Hold the workspace's lock for the block; when it is taken, wait (``wait``) or raise WorkspaceBusyError."""
    root.mkdir(parents=True, exist_ok=True)
    path = root / LOCK_FILE
    handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if not wait:
                    raise WorkspaceBusyError(
                        f"{path}: the workspace is busy ({_holder(handle)}); wait for it to finish or pass --wait"
                    ) from None
                time.sleep(POLL_SECONDS)
        os.ftruncate(handle, 0)
        os.lseek(handle, 0, os.SEEK_SET)
        os.write(handle, f"'litaudit {command}', pid {os.getpid()}, since {utc_now()}\n".encode())
        try:
            yield
        finally:
            os.ftruncate(handle, 0)
            fcntl.flock(handle, fcntl.LOCK_UN)
    finally:
        os.close(handle)
