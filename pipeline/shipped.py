"""What ships with every installation: the catalogue, the probe protocols and the example config.

``pipeline/defaults`` is a link to the repository's ``config/``, so there is one copy of each file; a
wheel carries the files themselves. A workspace's own ``config/<name>/`` always wins.
"""

from __future__ import annotations

from pathlib import Path

SHIPPED_CONFIG = Path(__file__).resolve().parent / "defaults"


def config_folder(config_dir: Path, name: str) -> Path:
    """The workspace's ``config/<name>/`` when it has one, else the one shipped with litaudit."""
    own = config_dir / name
    return own if own.is_dir() else SHIPPED_CONFIG / name
