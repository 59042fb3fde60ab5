"""A plain install works: the wheel, installed without extras into a fresh venv, runs the demo in an empty folder."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run(*command: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(c) for c in command], capture_output=True, text=True, cwd=cwd, check=False)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    built = run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", out, ROOT)
    assert built.returncode == 0, built.stderr
    return next(out.glob("litaudit-*.whl"))


def test_the_wheel_ships_the_catalogue_protocols_and_example_config(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for path in sorted((ROOT / "config").rglob("*.yaml")):
        assert f"pipeline/defaults/{path.relative_to(ROOT / 'config').as_posix()}" in names, path
    assert not [n for n in names if n.startswith(("tests/", "benchmarks/"))]
    assert {f"pipeline/serve/static/{n}" for n in ("index.html", "app.js", "app.css")} <= names  # the workbench


@pytest.mark.slow
def test_a_plain_install_runs_the_demo_in_an_empty_folder(wheel: Path, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    assert run(sys.executable, "-m", "venv", venv).returncode == 0
    installed = run(venv / "bin" / "python", "-m", "pip", "install", "-q", wheel)
    assert installed.returncode == 0, installed.stderr
    litaudit = venv / "bin" / "litaudit"
    helped = run(litaudit, "--help")
    assert helped.returncode == 0 and "freeze" in helped.stdout
    empty = tmp_path / "empty"
    empty.mkdir()
    demo = run(litaudit, "run", "--demo", cwd=empty)
    assert demo.returncode == 1, demo.stderr  # the demo's planted problems are found
    assert (empty / "audits" / "local_demo" / "report.html").is_file()
    assert "Traceback" not in demo.stderr
    findings = json.loads((empty / "audits" / "local_demo" / "findings.json").read_text())
    skipped = {c["id"]: c["reason"] for c in findings["checks"] if c["status"] == "skipped"}
    assert skipped.get("derived-teststat") == "needs scipy (pip install 'litaudit[stats]')"
    probe = run(litaudit, "probe", "--help")
    assert probe.returncode == 2
    assert probe.stderr.startswith("litaudit: error: litaudit probe needs ")
    assert probe.stderr.rstrip().endswith("pip install 'litaudit[probe]'")
    serve = run(litaudit, "serve", "--port", "0")
    assert serve.returncode == 2  # refused before it listens
    assert serve.stderr.rstrip().endswith("pip install 'litaudit[serve]'")
