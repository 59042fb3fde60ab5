"""The typeset test papers live under tests/papers, outside the installed package; a benchmark run as a
script imports this module first to reach them as ``papers``."""

import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1] / "tests"
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))
