"""Fixtures shared by every test module: a fresh workspace, fast settings, and the CLI."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pipeline.cli import main
from pipeline.settings import Settings
from pipeline.store import Workspace

SHARED = Path(__file__).resolve().parents[2] / "shared"

needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="../shared is absent")

FAST_ENV = {
    "LITAUDIT_MIN_REQUEST_INTERVAL": "0",
    "LITAUDIT_BACKOFF": "0.01",
    "LITAUDIT_TIMEOUT": "2",
    "LITAUDIT_RETRIES": "2",
}


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    root = tmp_path / "ws"
    (root / "config").mkdir(parents=True)
    return Workspace(root)


@pytest.fixture
def settings(workspace: Workspace) -> Settings:
    return Settings.from_env(env=FAST_ENV, root=workspace.root)


Invoke = Callable[..., Result]


@pytest.fixture
def invoke(workspace: Workspace) -> Invoke:
    """Run ``litaudit --root <workspace> ARGS...`` in-process; stdout and stderr kept apart."""

    def _invoke(*args: str, env: dict[str, str] | None = None) -> Result:
        runner = CliRunner()
        return runner.invoke(main, ["--root", str(workspace.root), *args], env={**FAST_ENV, **(env or {})})

    return _invoke


def json_out(result: Result) -> dict:
    """The --json payload of a command's result."""
    return json.loads(result.stdout)


DEMO_SID = "local:demo"


def litaudit(root: Path, *args: str, env: dict[str, str] | None = None) -> Result:
    """``litaudit --root ROOT ARGS...`` in-process, with the fast network settings."""
    return CliRunner().invoke(main, ["--root", str(root), *args], env={**FAST_ENV, **(env or {})})


def start_litaudit(root: Path, *args: str) -> subprocess.Popen[str]:
    """``python -m pipeline --root ROOT ARGS...`` in a session of its own (its own process group, so that
    ``interrupt`` can signal the group as a terminal would), with the fast network settings."""
    return subprocess.Popen(
        [sys.executable, "-m", "pipeline", "--root", str(root), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **FAST_ENV},
        start_new_session=True,
    )


def interrupt(process: subprocess.Popen[str], signum: int, group: bool) -> None:
    """Signal a ``litaudit`` from ``start_litaudit``: its main process alone (``kill PID``, which must stop
    its workers itself), or, as a terminal's Ctrl-C does, every process of its group."""
    if group:
        os.killpg(process.pid, signum)
    else:
        process.send_signal(signum)


@pytest.fixture(scope="module")
def demo_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A workspace where ``run --demo`` went through every stage (once per test module)."""
    root = tmp_path_factory.mktemp("ws")
    result = litaudit(root, "run", "--demo", "--json")
    assert result.exit_code == 1, result.output  # the demo's planted problems are found
    return root


@pytest.fixture
def root(demo_root: Path, tmp_path: Path) -> Path:
    """A private copy of the finished demo workspace, for tests that change it."""
    return Path(shutil.copytree(demo_root, tmp_path / "ws"))
