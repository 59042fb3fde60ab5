"""One small exception class per failure mode; each knows its exit code.

Exit codes are part of the command-line contract: 0 success, 1 the work found problems (for ``status``:
not every stage is done), 2 bad usage or bad input, 3 internal error (a bug), 130 interrupted.
"""

from __future__ import annotations

import os
import traceback

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_NOT_DONE = EXIT_PROBLEMS  # litaudit status: a stage of a listed source is not done
EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 3
EXIT_INTERRUPTED = 130


class LitauditError(Exception):
    """Base class: a failure reported as one line, never a traceback."""

    exit_code = EXIT_BAD_INPUT


class BadInputError(LitauditError):
    """A file or argument given to litaudit is unusable (names the file and the problem)."""


class ConfigError(BadInputError):
    """A file under config/ or a setting is invalid."""


class BadSourceIdError(BadInputError):
    """A source id is malformed or would escape the workspace."""


class BadLocatorError(BadInputError):
    """A locator id does not read as ``<sha>:p<page>:<table>:r<row>:c<col>``."""


class UnknownSourceError(BadInputError):
    """A source id names nothing that has been fetched or configured."""


class NotAPdfError(BadInputError):
    """Bytes that were meant to be a PDF are not one (HTML page, truncated, encrypted, empty)."""


class FetchError(LitauditError):
    """A download failed after retries (HTTP error, timeout, size limit)."""

    exit_code = EXIT_PROBLEMS


class HashMismatchError(LitauditError):
    """Re-fetched or pinned bytes differ from what is stored: the stored copy is kept."""

    exit_code = EXIT_PROBLEMS


class ExtractionError(BadInputError):
    """A PDF could not be parsed for tables."""


class StageInputMissingError(BadInputError):
    """A stage was asked to run before the stage it reads from."""


class UpstreamNotDoneError(StageInputMissingError):
    """A stage reads from a stage that is stale, failed or modified: its inputs cannot be trusted."""


class BrokenSourceRecordError(BadInputError):
    """A sources/<id>/source.json is unreadable or lacks what every stage relies on."""


class WorkspaceBusyError(BadInputError):
    """Another litaudit command holds the workspace lock."""


class MissingExtraError(BadInputError):
    """A feature needs an optional dependency group (a pip extra) that is not installed."""


OUT_OF_MEMORY = (
    "out of memory; what was stored is intact: re-run with fewer sources at once (--jobs 1), on a machine with "
    "more memory, or with the source split into parts"
)


def internal_error_line(exc: BaseException) -> str:
    """One line for a bug; with LITAUDIT_DEBUG set, its traceback goes to stderr first."""
    if os.environ.get("LITAUDIT_DEBUG"):
        traceback.print_exception(exc)
        return f"internal error: {type(exc).__name__}: {exc}"
    return f"internal error: {type(exc).__name__}: {exc} (LITAUDIT_DEBUG=1 shows the traceback)"
