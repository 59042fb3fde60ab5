"""A process that works through source after source (a run over thousands of papers, a Dask worker) holds what one
source needs, not what every source it saw needed: the catalogue is read once while its files are unchanged, and
nothing keeps an earlier catalogue alive."""

from __future__ import annotations

import gc
import shutil
from pathlib import Path

from conftest import litaudit

from pipeline.catalogue import Catalogue
from pipeline.catalogue.load import BUNDLED_DIR, read_catalogue_dir


def live_catalogues() -> int:
    gc.collect()
    return sum(isinstance(o, Catalogue) for o in gc.get_objects())


def test_an_unchanged_catalogue_is_read_once_and_an_edited_one_again(tmp_path: Path) -> None:
    folder = Path(shutil.copytree(BUNDLED_DIR, tmp_path / "catalogue"))
    first = read_catalogue_dir(folder)
    assert read_catalogue_dir(folder) is first
    edited = sorted(folder.glob("*.yaml"))[0]
    edited.write_text(edited.read_text(encoding="utf-8") + "\n# a comment changes the bytes\n", encoding="utf-8")
    second = read_catalogue_dir(folder)
    assert second is not first and second.digest != first.digest
    assert second.datasets == first.datasets


def test_auditing_under_catalogue_after_catalogue_keeps_only_the_last(root: Path) -> None:
    folder = Path(shutil.copytree(BUNDLED_DIR, root / "config" / "catalogue"))
    edited = sorted(folder.glob("*.yaml"))[0]
    for n in range(3):  # each edit makes map, emit and audit stale: run redoes them under the new catalogue
        edited.write_text(edited.read_text(encoding="utf-8") + f"\n# edit {n}\n", encoding="utf-8")
        result = litaudit(root, "run")
        assert result.exit_code == 1, result.output  # the demo's planted problems are found again
        assert "audit" in result.output
    assert live_catalogues() == 1
