"""The ``litaudit`` command: a click group whose commands are imported only when used."""

from __future__ import annotations

import importlib
from typing import Any

import click

from pipeline import __version__
from pipeline.errors import ConfigError
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
    try:
        ctx.obj = Settings.from_env(root=root)
    except ConfigError as exc:
        click.echo(f"litaudit: error: {exc}", err=True)
        ctx.exit(2)
