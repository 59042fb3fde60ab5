"""Settings as a validated dataclass with defaults; the environment overrides them.

Environment variables are named ``LITAUDIT_<FIELD>`` (e.g. ``LITAUDIT_ARXIV_PDF_BASE``), so a mirror
or a local test server can stand in for arXiv.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline import __version__
from pipeline.errors import ConfigError

EXECUTORS = ("local", "dask")


@dataclass(frozen=True)
class Settings:
    root: Path = Path(".")
    arxiv_pdf_base: str = "https://arxiv.org/pdf/"
    arxiv_api_base: str = "https://export.arxiv.org/api/query"
    min_request_interval: float = 3.0  # seconds between requests to the same host
    timeout: float = 30.0  # seconds to connect / between bytes
    retries: int = 4  # extra attempts on 429 / 5xx / connection errors
    backoff: float = 2.0  # first retry wait in seconds, doubled each time
    max_retry_wait: float = 120.0  # cap on a Retry-After we are willing to honour
    max_pdf_bytes: int = 100 * 1024 * 1024
    user_agent: str = f"litaudit/{__version__} (results-table audit; https://github.com/litaudit/litaudit)"
    jobs: int = 1
    executor: str = "local"  # "local" (this process or worker processes) or "dask"
    scheduler: str = ""  # a Dask scheduler address (tcp://HOST:PORT); implies the dask executor
    overrides: tuple[str, ...] = ()  # "stage.key=value" from --set, over config/<stage>.yaml (stage_settings.py)

    def __post_init__(self) -> None:
        for name in ("arxiv_pdf_base", "arxiv_api_base"):
            value = getattr(self, name)
            if not value.startswith(("http://", "https://")):
                raise ConfigError(f"setting {name}: {value!r} is not an http(s) URL")
        for name in ("min_request_interval", "timeout", "backoff", "max_retry_wait"):
            if getattr(self, name) < 0:
                raise ConfigError(f"setting {name}: must not be negative")
        if self.timeout == 0:
            raise ConfigError("setting timeout: must be positive")
        if self.retries < 0:
            raise ConfigError("setting retries: must not be negative")
        if self.max_pdf_bytes <= 0:
            raise ConfigError("setting max_pdf_bytes: must be positive")
        if self.jobs < 1:
            raise ConfigError("setting jobs: must be at least 1")
        if self.executor not in EXECUTORS:
            raise ConfigError(f"setting executor: {self.executor!r} is not one of {', '.join(EXECUTORS)}")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """Defaults, then ``LITAUDIT_*`` variables, then explicit overrides (command-line options)."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            raw = env.get(f"LITAUDIT_{f.name.upper()}")
            if raw is None or f.name == "overrides":  # stage settings come from config/<stage>.yaml or --set
                continue
            values[f.name] = _coerce(f.name, f.type, raw)
        values.update({k: v for k, v in overrides.items() if v is not None})
        if "root" in values:
            values["root"] = Path(values["root"])
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["root"] = str(self.root)
        data["overrides"] = list(self.overrides)
        return data


def _coerce(name: str, type_name: Any, raw: str) -> Any:
    kind = str(type_name)
    try:
        if kind == "int":
            return int(raw)
        if kind == "float":
            return float(raw)
    except ValueError:
        what = "a whole number" if kind == "int" else "a number"
        raise ConfigError(f"environment LITAUDIT_{name.upper()}: {raw!r} is not {what}") from None
    return raw
