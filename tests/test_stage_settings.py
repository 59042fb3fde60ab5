"""Stage settings reach the stages: defaults, then config/<stage>.yaml, then --set; recorded in the stage's
state (a changed setting makes the stage stale, as a changed input does) and frozen into releases."""

from __future__ import annotations

import base64
import io
import json
from pathlib import Path

import pytest
from conftest import litaudit
from PIL import Image

from pipeline.catalogue import load_catalogue
from pipeline.errors import ConfigError
from pipeline.extract.settings import ExtractionSettings
from pipeline.mapping.links import Linker
from pipeline.mapping.settings import MapSettings
from pipeline.stage_settings import STAGE_SETTINGS, load_settings, parse_overrides, settings_class
from pipeline.state import source_status
from pipeline.store import Workspace

SID = "local:demo"


def states(root: Path) -> dict[str, str]:
    return {name: s.state for name, s in source_status(Workspace(root), SID).stages.items()}


def first_crop_width(root: Path) -> int:
    html = (root / "audits" / "local_demo" / "report.html").read_text()
    encoded = html.split("data:image/png;base64,", 1)[1].split('"', 1)[0]
    return Image.open(io.BytesIO(base64.b64decode(encoded))).width


def test_set_changes_one_run_and_status_names_the_setting(root: Path) -> None:
    before = first_crop_width(root)
    result = litaudit(root, "audit", "--force", "--set", "crop_scale=1")
    assert result.exit_code == 1, result.stderr  # the planted problems, found again
    assert first_crop_width(root) == pytest.approx(before / 2, abs=2)
    state = json.loads((root / "audits" / "local_demo" / ".audit.state.json").read_text())
    assert state["settings"]["crop_scale"] == 1.0
    assert litaudit(root, "run", "--set", "audit.crop_scale=1").stdout.count("up to date") == 4  # same settings: done
    audit = source_status(Workspace(root), SID).stages["audit"]
    assert audit.state == "stale" and "crop_scale ran with 1.0, now 2.0" in audit.reason
    litaudit(root, "run")
    assert set(states(root).values()) == {"done"} and first_crop_width(root) == before


def test_a_setting_in_config_makes_its_stage_stale_and_reaches_the_release(root: Path) -> None:
    (root / "config").mkdir(exist_ok=True)
    (root / "config" / "audit.yaml").write_text("crop_margin: 20\n")
    assert states(root) == {"fetch": "done", "extract": "done", "map": "done", "emit": "done", "audit": "stale"}
    refused = litaudit(root, "freeze")
    assert refused.exit_code == 1 and "audit is stale" in refused.stderr  # a stale stage is not released
    litaudit(root, "run")
    assert set(states(root).values()) == {"done"}
    frozen = litaudit(root, "freeze", "--json")
    assert frozen.exit_code == 0, frozen.stderr
    release = json.loads((root / json.loads(frozen.stdout)["path"] / "release.json").read_text())
    (source,) = release["sources"]
    assert source["stage_settings"]["audit"]["crop_margin"] == 20.0
    assert source["stage_settings"]["extract"] == ExtractionSettings().to_dict()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("run", "--set", "extract.no_such=1"), "--set extract.no_such: unknown setting (known: caption_gap"),
        (("run", "--set", "max_row_gap=3"), "name the stage, e.g. extract.max_row_gap=3"),
        (("extract", "--set", "map.threshold=80"), "this command runs extract, not map"),
        (("map", "--set", "threshold=high"), "--set map.threshold=high: not a float"),
        (("map", "--set", "threshold=120"), "map setting threshold: a score is at most 100"),
        (("audit", "--set", "proof_confidence=0.3"), "needs_check_below <= proof_confidence"),
        (("run", "--set", "extract.find_uncaptioned=maybe"), "not a bool"),
    ],
)
def test_bad_set_values_fail_before_any_work_in_one_line(root: Path, args: tuple[str, ...], message: str) -> None:
    result = litaudit(root, *args)
    assert result.exit_code == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output
    assert set(states(root).values()) == {"done"}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("thresold: 85\n", "config/map.yaml: unknown setting(s) thresold"),
        ("[1, 2\n", "config/map.yaml: not valid YAML"),
        ("- 1\n", "config/map.yaml: expected a mapping of setting names to values"),
        ("threshold: -1\n", "map setting threshold: must be positive"),
    ],
)
def test_a_bad_settings_file_fails_its_stage_only(root: Path, text: str, message: str) -> None:
    (root / "config").mkdir(exist_ok=True)
    (root / "config" / "map.yaml").write_text(text)
    result = litaudit(root, "run", "--force")
    assert result.exit_code == 2 and message in result.stderr
    assert "Traceback" not in result.output
    found = states(root)
    assert found["extract"] == "done" and found["map"] == "failed" and found["audit"] == "stale"


def test_the_map_threshold_decides_a_fuzzy_link(demo_root: Path) -> None:
    catalogue = load_catalogue(Workspace(demo_root).config_dir)
    label = ["Human Core Promoter Detectionn"]  # a misprint: fuzzy, not exact
    lenient = Linker(catalogue)
    link = lenient.link_dataset(lenient.clean(label), "row", None)
    assert link.method == "fuzzy" and link.score >= MapSettings().threshold
    strict = Linker(catalogue, MapSettings(threshold=100.0))
    refused = strict.link_dataset(strict.clean(label), "row", None)
    assert refused.id is None and "no dataset scores 100 or more" in refused.reason


@pytest.mark.parametrize("stage", sorted(STAGE_SETTINGS))
def test_every_stage_settings_file_round_trips(tmp_path: Path, stage: str) -> None:
    cls = settings_class(stage)
    defaults = cls().to_dict()
    (tmp_path / f"{stage}.yaml").write_text(json.dumps(defaults))  # JSON is YAML
    assert load_settings(cls, tmp_path).to_dict() == defaults
    name, value = next((k, v) for k, v in defaults.items() if isinstance(v, float))
    overridden = load_settings(cls, tmp_path, parse_overrides([f"{name}={value * 0.5}"], stage))
    assert getattr(overridden, name) == value * 0.5


def test_overrides_of_other_stages_are_left_alone(tmp_path: Path) -> None:
    overrides = parse_overrides(["map.threshold=95", "extract.max_row_gap=3"])
    assert load_settings(MapSettings, tmp_path, overrides).threshold == 95.0
    assert load_settings(ExtractionSettings, tmp_path, overrides).max_row_gap == 3.0
    with pytest.raises(ConfigError, match="stage 'emit' has no settings"):
        parse_overrides(["emit.anything=1"])
