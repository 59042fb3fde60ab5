"""The HyenaDNA-tiny checkpoint shipped in the anticapt wheel (GPL-3.0): a real DNA language model that loads
offline. LITAUDIT_HYENA_DIR names an unpacked checkpoint folder, else ``pip download --no-deps anticapt==1.0``."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

CHECKPOINT = "anticapt/models/dataset1/finetuned_hyenadna/"


def hyena_checkpoint(folder: Path) -> Path:
    """The checkpoint folder, downloaded into ``folder`` when LITAUDIT_HYENA_DIR does not name one; skips the
    test when it cannot be had."""
    if os.environ.get("LITAUDIT_HYENA_DIR"):
        return Path(os.environ["LITAUDIT_HYENA_DIR"])
    command = [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "anticapt==1.0", "-d", str(folder)]
    try:
        subprocess.run(command, check=True, capture_output=True, timeout=300)
    except (subprocess.SubprocessError, OSError) as exc:
        pytest.skip(f"anticapt==1.0 not downloadable: {exc}")
    wheel = next(folder.glob("anticapt-1.0-*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(folder, [n for n in archive.namelist() if n.startswith(CHECKPOINT)])
    return folder / CHECKPOINT
