"""Progress where the wait is: pages (extract) and tables (map, audit) within one source, on a terminal only;
--json output and output to a pipe stay clean."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import select
import shutil
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pypdfium2
import pytest
from conftest import litaudit

from pipeline.fixtures import write_demo_paper

COPIES = 4  # the demo paper four times over: 12 pages, 28 tables, in one source


@pytest.fixture(scope="module")
def fetched(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("long")
    demo = pypdfium2.PdfDocument(str(write_demo_paper(tmp / "demo.pdf")))
    volume = pypdfium2.PdfDocument.new()
    for _ in range(COPIES):
        volume.import_pages(demo)
    volume.save(str(tmp / "volume.pdf"))
    root = tmp / "ws"
    assert litaudit(root, "fetch", "--file", str(tmp / "volume.pdf"), "--id", "local:long").exit_code == 0
    return root


def on_terminal(root: Path, *args: str) -> tuple[int, str, str]:
    """``litaudit`` with stderr on a pseudo-terminal (as a person runs it) and stdout on a pipe: exit code,
    what the terminal showed, stdout."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    command = [sys.executable, "-m", "pipeline", "--root", str(root), *args]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    shown = b""
    while True:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            shown += chunk
        elif process.poll() is not None:
            break
    os.close(master)
    stdout = process.stdout.read().decode() if process.stdout else ""
    return process.wait(), shown.decode(errors="replace"), stdout


def test_a_terminal_sees_the_pages_and_tables_of_one_source(fetched: Path, tmp_path: Path) -> None:
    root = Path(shutil.copytree(fetched, tmp_path / "ws"))
    code, shown, stdout = on_terminal(root, "extract")
    assert code == 0
    assert "pages:" in shown and f"/{3 * COPIES} [" in shown  # the reading of every page, counted
    assert "tables by page" in shown
    assert stdout.startswith("extract  local:long") and "%|" not in stdout
    assert litaudit(root, "map").exit_code == 0 and litaudit(root, "emit").exit_code in (0, 1)
    code, shown, _ = on_terminal(root, "audit")
    assert code == 1  # the demo's planted problems
    assert "checks:" in shown and "tables:" in shown and f"/{7 * COPIES} [" in shown


def test_json_and_a_pipe_stay_clean(fetched: Path, tmp_path: Path) -> None:
    root = Path(shutil.copytree(fetched, tmp_path / "ws"))
    code, shown, stdout = on_terminal(root, "extract", "--json")
    assert code == 0 and shown == ""  # the terminal sees nothing under --json
    assert json.loads(stdout)["results"][0]["status"] == "done"
    piped = subprocess.run(
        [sys.executable, "-m", "pipeline", "--root", str(root), "map"], capture_output=True, text=True, check=False
    )
    assert piped.returncode == 0 and piped.stderr == ""
    assert piped.stdout.splitlines() == [line for line in piped.stdout.splitlines() if "%|" not in line]
