"""The Python API: every public name resolves, every docstring example runs, the README's example runs,
and importing the package stays cheap (nothing heavy until a name is used)."""

from __future__ import annotations

import doctest
import re
import subprocess
import sys
from pathlib import Path

import pytest

import pipeline
import pipeline.api

ROOT = Path(__file__).resolve().parents[1]


def test_every_exported_name_resolves() -> None:
    missing = [name for name in pipeline.__all__ if getattr(pipeline, name, None) is None]
    assert missing == []
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = pipeline.nope  # type: ignore[attr-defined]


def test_the_api_docstring_examples_run() -> None:
    """The module's example makes the demo's objects; each function's example reuses them."""
    shared: dict[str, object] = {}
    module_test = doctest.DocTestFinder(recurse=False).find(pipeline.api, "pipeline.api")[0]
    runner = doctest.DocTestRunner()
    runner.run(module_test, clear_globs=False)
    shared.update(module_test.globs)
    result = doctest.testmod(pipeline.api, extraglobs=shared)
    assert runner.failures == 0 and result.attempted >= 20 and result.failed == 0


def test_the_readme_python_example_runs(tmp_path: Path) -> None:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Python API", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.DOTALL)
    assert blocks, "the README's Python API section has no python block"
    script = tmp_path / "example.py"
    script.write_text("\n".join(blocks))
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Table 2" in done.stdout


def test_importing_the_package_imports_no_stage() -> None:
    code = "import sys, pipeline; print(sorted(m for m in sys.modules if m.startswith('pipeline.')))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
