"""The click command ``serve``: bind, print the URL with the run's token, serve until interrupted."""

from __future__ import annotations

import secrets
import socket

import click
import uvicorn

from pipeline.clikit import handle_errors, log, settings_of
from pipeline.errors import BadInputError
from pipeline.serve.app import LOOPBACK_NAMES, make_app
from pipeline.store import Workspace


def bind(host: str, port: int) -> socket.socket:
    """A listening socket (port 0: a free one), so the URL printed names the real port before serving starts."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise BadInputError(f"cannot listen on {host}:{port} ({exc.strerror or exc})") from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def url_of(host: str, port: int, token: str) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/?token={token}"


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (loopback by default).")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(0, 65535), help="Port (0: any free).")
@click.pass_context
@handle_errors
def serve(ctx: click.Context, host: str, port: int) -> None:
    """Open the reviewer's workbench: every open finding, its page crop, decisions into reviews.jsonl.

    The first line printed is the URL with this run's token; every API request needs that token.
    """
    ws = Workspace(settings_of(ctx).root)
    sock = bind(host, port)
    token = secrets.token_urlsafe(24)
    click.echo(url_of(host, sock.getsockname()[1], token))
    if host not in LOOPBACK_NAMES:
        log(f"litaudit: warning: listening on {host}, not loopback: anyone who can reach it can read the workspace")
    config = uvicorn.Config(make_app(ws, token, host), log_level="warning", access_log=False)
    uvicorn.Server(config).run(sockets=[sock])
