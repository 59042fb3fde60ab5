"""Whether each stage of a source is done, decided from hashes that can be checked, never assumed.

When a stage finishes, the runner records the SHA-256 of every input it read and every output it wrote
(``<output folder>/.<stage>.state.json``). A stage is ``done`` only while its inputs *and* outputs still
hash to what it recorded and every stage it reads from is done too; otherwise it is ``missing`` (never
ran, or an output was deleted), ``modified`` (an output was changed by someone else), ``failed`` (its last
run failed) or ``stale`` (an input changed, or a stage it reads from is not done). Each state that is
not done names the files concerned and the command that fixes it.
"""

from __future__ import annotations

import functools
import glob
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipeline import __version__
from pipeline.clock import utc_now
from pipeline.errors import LitauditError
from pipeline.stage_settings import config_path, recorded_settings
from pipeline.stages import FETCH, PIPELINE, Stage, upstream_of
from pipeline.store import Workspace, read_json, read_source_record, safe_id, sha256_file, write_json

DONE, MISSING, STALE, MODIFIED, FAILED = "done", "missing", "stale", "modified", "failed"
HAND_EDIT_HINT = "corrections belong in 'litaudit review SOURCE RECORD --correct VALUE', never in output files"


@dataclass(frozen=True)
class StageState:
    """One stage of one source: its state and, when not done, why, which files, and what fixes it."""

    stage: str
    state: str
    reason: str = ""
    files: tuple[str, ...] = ()
    fix: str = ""

    @property
    def done(self) -> bool:
        return self.state == DONE

    @property
    def ran(self) -> bool:
        """Whether the stage left outputs behind that a release could wrongly take for its work."""
        return self.state != MISSING or bool(self.files)

    def to_dict(self) -> dict[str, Any]:
        return {"state": self.state, "reason": self.reason, "files": list(self.files), "fix": self.fix}


@dataclass
class SourceStatus:
    """Every stage's state for one source, in pipeline order."""

    id: str
    stages: dict[str, StageState] = field(default_factory=dict)

    def not_done(self) -> list[StageState]:
        return [s for s in self.stages.values() if not s.done]

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "stages": {name: s.state for name, s in self.stages.items()},
            "details": {name: s.to_dict() for name, s in self.stages.items() if not s.done},
        }


def expand(ws: Workspace, source_id: str, patterns: tuple[str, ...]) -> list[Path]:
    sid = safe_id(source_id)
    paths: list[Path] = []
    for pattern in patterns:
        rel = pattern.format(sid=sid)
        if any(ch in rel for ch in "*?["):
            paths.extend(Path(p) for p in sorted(glob.glob(str(ws.root / rel))))
        else:
            paths.append(ws.root / rel)
    return paths


def relpath(ws: Workspace, path: Path) -> str:
    return os.path.relpath(path, ws.root).replace(os.sep, "/")


Digest = Callable[[Path], "str | None"]  # path -> SHA-256, None when absent


def sha256_or_none(path: Path) -> str | None:
    return sha256_file(path) if path.is_file() else None


def file_hashes(
    ws: Workspace, source_id: str, patterns: tuple[str, ...], digest: Digest = sha256_or_none
) -> dict[str, str | None]:
    """Current SHA-256 of each file (None for one that is absent)."""
    return {relpath(ws, p): digest(p) for p in expand(ws, source_id, patterns)}


def state_file(ws: Workspace, stage: Stage, source_id: str) -> Path:
    return ws.root / stage.state_path.format(sid=safe_id(source_id))


def fetch_hint(source_id: str) -> str:
    """The command that fetches a source for the first time (a local one can only come from a file)."""
    if source_id.startswith("local:"):
        return f"litaudit fetch --file PATH --id {source_id}"
    return f"litaudit fetch {source_id}"


def fix_command(stage: Stage, source_id: str) -> str:
    """A command that brings the stage back to done."""
    if stage.name != FETCH:
        return f"litaudit run {source_id}"
    if source_id.startswith("local:"):
        return f"litaudit fetch --file PATH --id {source_id} --refresh"
    return f"litaudit fetch --refresh {source_id}"


def record_done(
    ws: Workspace,
    stage: Stage,
    source_id: str,
    inputs: dict[str, str | None],
    problems: int = 0,
    summary: dict[str, Any] | None = None,
    settings: dict[str, Any] | None = None,
) -> None:
    """What the stage read and wrote, hashed now that its outputs are in place, and the settings it ran with."""
    write_json(
        state_file(ws, stage, source_id),
        {
            "stage": stage.name,
            "source_id": source_id,
            "status": DONE,
            "tool_version": __version__,
            "finished_at": utc_now(),
            "inputs": inputs,
            "outputs": file_hashes(ws, source_id, stage.outputs),
            "problems": problems,
            "summary": summary or {},
            **({"settings": settings} if settings is not None else {}),
        },
    )


def record_failed(ws: Workspace, stage: Stage, source_id: str, inputs: dict[str, str | None], message: str) -> None:
    """A failed run: the outputs of an earlier run stay on disk but no longer count as this stage's work."""
    write_json(
        state_file(ws, stage, source_id),
        {
            "stage": stage.name,
            "source_id": source_id,
            "status": FAILED,
            "tool_version": __version__,
            "finished_at": utc_now(),
            "inputs": inputs,
            "error": message,
        },
    )


def read_state(ws: Workspace, stage: Stage, source_id: str) -> dict[str, Any] | None:
    """The recorded state, or None when there is none or it cannot be read as one."""
    path = state_file(ws, stage, source_id)
    if not path.is_file():
        return None
    try:
        data = read_json(path)
    except LitauditError:
        return None
    return data if isinstance(data, dict) else None


def _outputs_state(
    ws: Workspace, stage: Stage, source_id: str, recorded: dict[str, Any], digest: Digest
) -> StageState | None:
    """Missing or modified outputs, or None when every recorded output still has its recorded hash."""
    outputs = recorded.get("outputs")
    if not isinstance(outputs, dict):
        return None
    current = file_hashes(ws, source_id, tuple(outputs), digest)
    fix = fix_command(stage, source_id)
    gone = tuple(sorted(rel for rel, sha in current.items() if sha is None and outputs.get(rel)))
    if gone:
        return StageState(stage.name, MISSING, f"deleted since {stage.name} wrote it", gone, fix)
    changed = tuple(sorted(rel for rel, sha in current.items() if sha != outputs.get(rel)))
    if changed:
        reason = f"changed since {stage.name} wrote it; {HAND_EDIT_HINT}"
        return StageState(stage.name, MODIFIED, reason, changed, fix)
    return None


def _fetch_without_record(ws: Workspace, source_id: str, digest: Digest) -> StageState:
    """A source fetched before outputs were recorded: its PDF must still match the hash in source.json."""
    stage = PIPELINE[0]
    fix = fix_command(stage, source_id)
    record = ws.source_record_path(source_id)
    pdf = ws.pdf_path(source_id)
    try:
        expected = read_source_record(record)["sha256"]
    except LitauditError as exc:
        return StageState(FETCH, FAILED, str(exc), (relpath(ws, record),), fix)
    if not pdf.is_file():
        return StageState(FETCH, MISSING, "the fetched PDF was deleted", (relpath(ws, pdf),), fix)
    if digest(pdf) != expected:
        return StageState(FETCH, MODIFIED, "no longer has the SHA-256 in source.json", (relpath(ws, pdf),), fix)
    return StageState(FETCH, DONE)


def own_state(
    ws: Workspace, stage: Stage, source_id: str, digest: Digest = sha256_or_none, overrides: tuple[str, ...] = ()
) -> StageState:
    """The stage judged on its own files and settings, ignoring the stages it reads from. ``overrides``: the
    ``--set`` values of the command asking; without them the settings are those of config/<stage>.yaml."""
    fix = fix_command(stage, source_id)
    recorded = read_state(ws, stage, source_id)
    if recorded is None:
        if state_file(ws, stage, source_id).is_file():
            rel = relpath(ws, state_file(ws, stage, source_id))
            return StageState(stage.name, STALE, "its state file cannot be read", (rel,), fix)
        if stage.name == FETCH and ws.source_record_path(source_id).is_file():
            return _fetch_without_record(ws, source_id, digest)
        first = fetch_hint(source_id) if stage.name == FETCH else fix
        return StageState(stage.name, MISSING, "has not run", (), first)
    outputs = _outputs_state(ws, stage, source_id, recorded, digest)
    if outputs is not None:
        return outputs
    if recorded.get("status", DONE) == FAILED:
        return StageState(stage.name, FAILED, str(recorded.get("error", "failed")), (), fix)
    if recorded.get("tool_version") != __version__:
        reason = f"ran with litaudit {recorded.get('tool_version')}, this is {__version__}"
        return StageState(stage.name, STALE, reason, (), fix)
    current = {k: v for k, v in file_hashes(ws, source_id, stage.inputs, digest).items() if v is not None}
    previous = {k: v for k, v in (recorded.get("inputs") or {}).items() if v is not None}
    if current != previous:
        changed = tuple(sorted(k for k in set(current) | set(previous) if current.get(k) != previous.get(k)))
        return StageState(stage.name, STALE, "its inputs changed since it ran", changed, fix)
    return _settings_state(ws, stage, source_id, recorded, overrides) or StageState(stage.name, DONE)


def _settings_state(
    ws: Workspace, stage: Stage, source_id: str, recorded: dict[str, Any], overrides: tuple[str, ...]
) -> StageState | None:
    """Stale when the stage ran with other settings than those now in force."""
    try:
        current = recorded_settings(ws.config_dir, stage.name, overrides)
    except LitauditError as exc:  # the stage will fail on it when it runs; the stages before it are not concerned
        rel = relpath(ws, config_path(ws.config_dir, stage.name))
        return StageState(
            stage.name, STALE, f"its settings cannot be read: {exc}", (rel,), fix_command(stage, source_id)
        )
    if current is None:
        return None
    before = recorded.get("settings") or {}
    changed = [f"{k} ran with {before.get(k)!r}, now {v!r}" for k, v in current.items() if before.get(k) != v]
    if not changed:
        return None
    where = f"config/{stage.name}.yaml and --set" if overrides else f"config/{stage.name}.yaml (or the defaults)"
    reason = f"its settings differ from {where}: {', '.join(changed)}"
    return StageState(stage.name, STALE, reason, (), fix_command(stage, source_id))


def _with_upstream(stage: Stage, own: StageState, states: dict[str, StageState], source_id: str) -> StageState:
    if not own.done:
        return own
    for up in upstream_of(stage):
        state = states.get(up.name)
        if state is not None and not state.done:
            reason = f"it reads from {up.name}, which is {state.state}"
            return StageState(stage.name, STALE, reason, state.files, fix_command(up, source_id))
    return own


def one_look() -> Digest:
    """Hashes memoised for one look at a source: its PDF is read by several stages but hashed once. Never
    kept longer (a file edited within the clock's resolution would keep its old hash)."""
    return functools.cache(sha256_or_none)


def source_status(
    ws: Workspace, source_id: str, digest: Digest | None = None, overrides: tuple[str, ...] = ()
) -> SourceStatus:
    """Every stage in pipeline order; a stage downstream of one that is not done is never done."""
    digest = digest or one_look()
    status = SourceStatus(source_id)
    for stage in PIPELINE:
        own = own_state(ws, stage, source_id, digest, overrides)
        status.stages[stage.name] = _with_upstream(stage, own, status.stages, source_id)
    return status


def stage_state(ws: Workspace, stage: Stage, source_id: str) -> StageState:
    """One stage's state, the stages it reads from included."""
    digest = one_look()
    status = source_status(ws, source_id, digest)
    if stage in PIPELINE:
        return status.stages[stage.name]
    return _with_upstream(stage, own_state(ws, stage, source_id, digest), status.stages, source_id)
