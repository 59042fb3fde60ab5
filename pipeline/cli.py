"""The ``litaudit`` command: a click group whose commands are imported only when used."""

from __future__ import annotations

import importlib
import sys
from typing import Any

import click

from pipeline import __version__
from pipeline.clikit import fail
from pipeline.errors import EXIT_BAD_INPUT, EXIT_INTERRUPTED, LitauditError
from pipeline.settings import Settings

# name -> "module:attribute" of the click command; stage commands are built from pipeline.stages.
COMMANDS: dict[str, str] = {
    "fetch": "pipeline.fetch.commands:fetch",
    "status": "pipeline.commands:status",
    "run": "pipeline.commands:run",
    "extract": "pipeline.commands:extract",
    "tables": "pipeline.extract.commands:tables",
    "catalogue": "pipeline.catalogue.commands:catalogue",
    "map": "pipeline.commands:map_",
    "emit": "pipeline.commands:emit",
    "audit": "pipeline.commands:audit",
    "review": "pipeline.release.commands:review",
    "freeze": "pipeline.release.commands:freeze",
    "verify": "pipeline.release.commands:verify",
    "diff": "pipeline.release.commands:diff",
    "export": "pipeline.release.commands:export",
    "probe": "pipeline.probe.commands:probe",
}


class LazyGroup(click.Group):
    """Commands imported on use; every failure, usage errors included, in the one error format (JSON too)."""

    def main(self, args: Any = None, *pos: Any, standalone_mode: bool = True, **extra: Any) -> Any:
        argv = list(sys.argv[1:] if args is None else args)
        if not standalone_mode:
            return super().main(argv, *pos, standalone_mode=False, **extra)
        as_json = "--json" in argv
        try:
            outcome = super().main(argv, *pos, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as exc:
            click.echo(exc.ctx.get_help() if exc.ctx else "")
            sys.exit(0)
        except click.UsageError as exc:
            where = f" (see '{exc.ctx.command_path} --help')" if exc.ctx else ""
            fail(EXIT_BAD_INPUT, f"usage: {exc.format_message()}{where}", as_json)
        except click.ClickException as exc:
            fail(exc.exit_code, exc.format_message(), as_json)
        except LitauditError as exc:
            fail(exc.exit_code, str(exc), as_json)
        except (click.Abort, KeyboardInterrupt):
            fail(EXIT_INTERRUPTED, "interrupted; stored files are intact, re-run to resume", as_json)
        sys.exit(outcome if isinstance(outcome, int) else 0)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module, _, attr = target.partition(":")
        return getattr(importlib.import_module(module), attr)  # type: ignore[no-any-return]


@click.group(cls=LazyGroup)
@click.version_option(__version__, prog_name="litaudit")
@click.option(
    "--root",
    type=click.Path(file_okay=False, path_type=str),
    envvar="LITAUDIT_ROOT",
    default=".",
    show_default=True,
    help="Workspace folder holding sources/, extracted/, audits/ and config/.",
)
@click.pass_context
def main(ctx: click.Context, root: str) -> Any:
    """Turn the results tables of published papers into audited, citable records.

    Exit codes: 0 success, 1 the work found problems, 2 bad usage or bad input,
    3 internal error, 130 interrupted.
    """
    ctx.obj = Settings.from_env(root=root)
