"""The ``litaudit`` command: a click group whose commands are imported only when used."""

from __future__ import annotations

import importlib
import signal
import sys
from dataclasses import dataclass
from typing import Any

import click

from pipeline import __version__
from pipeline.clikit import fail
from pipeline.errors import EXIT_BAD_INPUT, EXIT_INTERRUPTED, LitauditError, MissingExtraError
from pipeline.settings import Settings


@dataclass(frozen=True)
class CommandEntry:
    """Where a command lives, its one-line help (so ``--help`` imports nothing) and the extra it needs."""

    target: str  # "module:attribute" of the click command
    summary: str
    extra: str = ""  # the pip extra its module imports, named when it is missing


COMMANDS: dict[str, CommandEntry] = {
    "fetch": CommandEntry("pipeline.fetch.commands:fetch", "Download or ingest sources and record their provenance."),
    "status": CommandEntry("pipeline.commands:status", "Which stages are done, and what fixes the rest."),
    "run": CommandEntry("pipeline.commands:run", "Run every stage in order, redoing only what is not done."),
    "extract": CommandEntry("pipeline.commands:extract", "Find every table, its caption and label, and every cell."),
    "tables": CommandEntry("pipeline.extract.commands:tables", "Extract the tables of bare PDF files into JSON."),
    "catalogue": CommandEntry("pipeline.catalogue.commands:catalogue", "Check the catalogue, or suggest entries."),
    "map": CommandEntry("pipeline.commands:map_", "Link rows and columns to the catalogue."),
    "emit": CommandEntry("pipeline.commands:emit", "Write review-ready records, each traceable to its cell."),
    "audit": CommandEntry("pipeline.commands:audit", "Flag inconsistencies and write the reviewer's reports."),
    "review": CommandEntry("pipeline.release.commands:review", "Record a reviewer's decision on a record."),
    "freeze": CommandEntry("pipeline.release.commands:freeze", "Freeze a hashed, verifiable release (BagIt)."),
    "verify": CommandEntry("pipeline.release.commands:verify", "Re-hash a release and name what is wrong."),
    "diff": CommandEntry("pipeline.release.commands:diff", "Records added, removed and changed between releases."),
    "export": CommandEntry("pipeline.release.export_command:export", "A release as csv, parquet or duckdb.", "export"),
    "serve": CommandEntry("pipeline.serve.commands:serve", "Open the reviewer's workbench in a browser.", "serve"),
    "probe": CommandEntry("pipeline.probe.commands:probe", "Re-compute printed cells with embedding probes.", "probe"),
}


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


class LazyGroup(click.Group):
    """Commands imported on use; every failure, usage errors included, in the one error format (JSON too)."""

    def main(self, args: Any = None, *pos: Any, standalone_mode: bool = True, **extra: Any) -> Any:
        argv = list(sys.argv[1:] if args is None else args)
        if not standalone_mode:
            return super().main(argv, *pos, standalone_mode=False, **extra)
        as_json = "--json" in argv
        signal.signal(signal.SIGTERM, _interrupt)  # a polite kill stops workers and cleans up like Ctrl-C
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

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl([(name, COMMANDS[name].summary) for name in self.list_commands(ctx)])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = COMMANDS.get(cmd_name)
        if entry is None:
            return None
        module, _, attr = entry.target.partition(":")
        try:
            return getattr(importlib.import_module(module), attr)  # type: ignore[no-any-return]
        except ImportError as exc:
            if not entry.extra or (exc.name or "").partition(".")[0] == "pipeline":
                raise  # a bug in litaudit itself, not a missing extra
            raise MissingExtraError(
                f"litaudit {cmd_name} needs {exc.name}, which is not installed: pip install 'litaudit[{entry.extra}]'"
            ) from None


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

    Exit codes: 0 success, 1 the work found problems (status: not every stage is done),
    2 bad usage or bad input, 3 internal error, 130 interrupted.
    """
    ctx.obj = Settings.from_env(root=root)
