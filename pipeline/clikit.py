"""What every command shares: --json output, one-line errors with stable exit codes, progress bars."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from pipeline.errors import (
    EXIT_BAD_INPUT,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    OUT_OF_MEMORY,
    LitauditError,
    internal_error_line,
)
from pipeline.lock import workspace_lock
from pipeline.settings import Settings

F = TypeVar("F", bound=Callable[..., Any])

json_option = click.option("--json", "as_json", is_flag=True, help="Print a machine-readable result on stdout.")
wait_option = click.option(
    "--wait",
    is_flag=True,
    help="When another litaudit command is writing this workspace, wait for it instead of exiting.",
)


def settings_of(ctx: click.Context) -> Settings:
    return ctx.find_root().obj  # type: ignore[no-any-return]


def emit_result(as_json: bool, result: dict[str, Any], human: str) -> None:
    """The command's result: JSON on stdout with --json, else the human text."""
    if as_json:
        click.echo(json.dumps(result, indent=2, sort_keys=True, ensure_ascii=False))
    elif human:
        click.echo(human)


def log(message: str) -> None:
    """Logs go to stderr so that stdout stays machine-readable."""
    click.echo(message, err=True)


def log_error(message: str) -> None:
    """The one error format: ``litaudit: error: <file or id>: <problem>``."""
    log(f"litaudit: error: {message}")


def fail(exit_code: int, message: str, as_json: bool) -> None:
    log_error(message)
    if as_json:
        click.echo(json.dumps({"ok": False, "error": message, "exit_code": exit_code}))
    sys.exit(exit_code)


def handle_errors(fn: F) -> F:
    """Turn failures into one line on stderr and a stable exit code; never a traceback."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        as_json = bool(kwargs.get("as_json"))
        try:
            return fn(*args, **kwargs)
        except LitauditError as exc:
            fail(exc.exit_code, str(exc), as_json)
        except OSError as exc:  # an unwritable workspace, a full disk: the environment, not a bug
            where = f"{exc.filename}: " if exc.filename else ""
            fail(EXIT_BAD_INPUT, f"{where}{exc.strerror or exc}", as_json)
        except KeyboardInterrupt:
            fail(EXIT_INTERRUPTED, "interrupted; stored files are intact, re-run to resume", as_json)
        except MemoryError:
            fail(EXIT_BAD_INPUT, OUT_OF_MEMORY, as_json)
        except Exception as exc:
            fail(EXIT_INTERNAL, internal_error_line(exc), as_json)

    return wrapper  # type: ignore[return-value]


def locked(fn: F) -> F:
    """Hold the workspace lock while the command runs (it takes ``--wait`` from :data:`wait_option`)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        wait = bool(kwargs.pop("wait", False))
        ctx = click.get_current_context()
        with workspace_lock(settings_of(ctx).root, ctx.info_name or "command", wait):
            return fn(*args, **kwargs)

    return wrapper  # type: ignore[return-value]
