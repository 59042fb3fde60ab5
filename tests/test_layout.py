"""The package's shape, asserted: stage packages never reach up into the command line, and only their
command modules (the I/O shells) import click."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "pipeline"
CORE_PACKAGES = {"numbers"}  # shared by every stage, like model.py
STAGE_PACKAGES = sorted(
    p for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").is_file() and p.name not in CORE_PACKAGES
)
COMMAND_MODULES = {"commands.py", "export_command.py"}


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def stage_modules() -> list[Path]:
    modules = [m for package in STAGE_PACKAGES for m in package.rglob("*.py")]
    assert len(modules) > 50, "the stage packages were not found"
    return modules


def test_no_stage_module_imports_the_command_line() -> None:
    offenders = {
        str(m.relative_to(PACKAGE)): sorted(
            n for n in imported_modules(m) if n in ("pipeline.cli", "pipeline.commands")
        )
        for m in stage_modules()
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_only_command_modules_import_click() -> None:
    offenders = [
        str(m.relative_to(PACKAGE))
        for m in stage_modules()
        if m.name not in COMMAND_MODULES and {"click", "pipeline.clikit"} & imported_modules(m)
    ]
    assert offenders == []


def test_the_core_does_not_import_stage_packages() -> None:
    """cli.py lists commands without importing them; the core modules it needs stay stage-free."""
    stages = {p.name for p in STAGE_PACKAGES}
    core = ["cli.py", "clikit.py", "errors.py", "settings.py", "store.py", "model.py", "stages.py", "state.py"]
    offenders = {
        name: sorted(n for n in imported_modules(PACKAGE / name) if n.split(".")[:2][-1] in stages) for name in core
    }
    assert {k: v for k, v in offenders.items() if v} == {}
