"""A polite HTTP client: paced per host, named, time-limited, retrying with backoff, size-capped.

Downloads stream into a temporary file while being hashed, so a failed or interrupted download
leaves nothing behind but what the caller chooses to keep.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import TypeVar
from urllib.parse import urlsplit

import requests
import urllib3

from pipeline.errors import FetchError
from pipeline.settings import Settings
from pipeline.store import FILE_MODE

T = TypeVar("T")

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
CHUNK = 64 * 1024


class HttpStatusError(FetchError):
    """The server answered with an error status (after retries, for 429 and 5xx)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class TooLargeError(FetchError):
    """The body is larger than Settings.max_pdf_bytes."""


class TruncatedError(FetchError):
    """The connection ended before the announced Content-Length arrived."""


@dataclass(frozen=True)
class StagedFile:
    """Bytes written to a temporary file, with their hash; the caller renames or deletes it."""

    path: Path
    sha256: str
    size: int


def stage_chunks(chunks: Iterable[bytes], folder: Path, max_bytes: int, what: str) -> StagedFile:
    """Write chunks to a temp file in ``folder`` while hashing; nothing is left behind on failure."""
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".fetch-", suffix=".part", dir=folder)
    os.fchmod(fd, FILE_MODE)
    digest, size = hashlib.sha256(), 0
    try:
        with os.fdopen(fd, "wb") as fh:
            for chunk in chunks:
                size += len(chunk)
                if size > max_bytes:
                    raise TooLargeError(f"{what}: larger than the limit of {max_bytes} bytes (max_pdf_bytes)")
                digest.update(chunk)
                fh.write(chunk)
            fh.flush()
            os.fsync(fh.fileno())
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return StagedFile(Path(tmp), digest.hexdigest(), size)


def retry_after_seconds(value: str | None, now: datetime | None = None) -> float | None:
    """Seconds asked for by a Retry-After header (delta-seconds or an HTTP date); None if absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, (when - (now or datetime.now(timezone.utc))).total_seconds())


class HostPacer:
    """Keeps at least ``interval`` seconds between the starts of requests to the same host (process-wide)."""

    def __init__(self) -> None:
        self._last: dict[str, float] = {}
        self._lock = threading.Lock()

    def wait(self, host: str, interval: float) -> None:
        """Reserve the host's next start time, then sleep until it comes (other hosts are not held up)."""
        with self._lock:
            now = time.monotonic()
            slot = max(now, self._last.get(host, now - interval) + interval)
            self._last[host] = slot
        if slot > now:
            time.sleep(slot - now)


HOST_PACER = HostPacer()


_TRANSIENT = (requests.ConnectionError, requests.Timeout, requests.exceptions.ChunkedEncodingError)
# urllib3 2 names a failed DNS look-up; retrying it only makes an offline run wait (urllib3 1 lacks the class)
_NAME_RESOLUTION = getattr(urllib3.exceptions, "NameResolutionError", ())


def _unresolvable(exc: requests.RequestException) -> bool:
    reason = getattr(exc.args[0], "reason", None) if exc.args else None
    return isinstance(reason, _NAME_RESOLUTION)


def _network_failure(url: str, exc: requests.RequestException, timeout: float) -> FetchError:
    """One line for a failed request; truncation keeps its own class."""
    if isinstance(exc, requests.exceptions.ChunkedEncodingError):
        return TruncatedError(f"{url}: connection ended before the whole body arrived")
    if isinstance(exc, requests.Timeout) or "timed out" in str(exc).lower():
        return FetchError(f"{url}: timed out (no answer within {timeout:g} s)")
    if _unresolvable(exc):
        return FetchError(f"{url}: cannot resolve {urlsplit(url).hostname} (no network?)")
    if isinstance(exc, requests.ConnectionError):
        return FetchError(f"{url}: connection failed")
    return FetchError(f"{url}: request failed ({type(exc).__name__}: {exc})")


class PoliteClient:
    """One requests Session used the way arXiv asks: paced, identified, patient, and bounded."""

    def __init__(self, settings: Settings, pacer: HostPacer = HOST_PACER) -> None:
        self.settings = settings
        self.pacer = pacer
        self.session = requests.Session()
        self.session.headers["User-Agent"] = settings.user_agent

    def close(self) -> None:
        self.session.close()

    def get_text(self, url: str, params: Mapping[str, str] | None = None) -> str:
        """A text document (an API answer), decoded as the server says (UTF-8 by default)."""

        def read(response: requests.Response) -> str:
            body = b"".join(self._body(response, url))
            return body.decode(response.encoding or "utf-8", errors="replace")

        return self._request(url, params, read)

    def download(self, url: str, folder: Path) -> StagedFile:
        """Stream ``url`` into a temp file in ``folder`` (hashed, size-capped, complete or gone)."""

        def save(response: requests.Response) -> StagedFile:
            return stage_chunks(self._body(response, url), folder, self.settings.max_pdf_bytes, url)

        return self._request(url, None, save, headers={"Accept-Encoding": "identity"})

    def _body(self, response: requests.Response, url: str) -> Iterable[bytes]:
        """The body in chunks, stopped as soon as it is known to be over the size limit or cut short."""
        max_bytes = self.settings.max_pdf_bytes
        announced = response.headers.get("Content-Length", "")
        expected = int(announced) if announced.isdigit() else None
        if expected is not None and expected > max_bytes:
            raise TooLargeError(f"{url}: announces {expected} bytes, over the limit of {max_bytes} (max_pdf_bytes)")
        received = 0
        for chunk in response.iter_content(CHUNK):
            received += len(chunk)
            if received > max_bytes:
                raise TooLargeError(f"{url}: body exceeds the limit of {max_bytes} bytes (max_pdf_bytes)")
            yield chunk
        # urllib3 2 raises on a short body itself; this catches it under urllib3 1 (requests allows both).
        encoded = response.headers.get("Content-Encoding", "identity").lower() != "identity"
        if expected is not None and not encoded and received < expected:
            raise TruncatedError(f"{url}: received {received} of {expected} bytes")

    def _request(
        self,
        url: str,
        params: Mapping[str, str] | None,
        consume: Callable[[requests.Response], T],
        headers: Mapping[str, str] | None = None,
    ) -> T:
        """GET with pacing and retries; ``consume`` reads the 200 response (retried too if the body breaks)."""
        settings = self.settings
        host = urlsplit(url).netloc
        tries = settings.retries + 1
        failure = FetchError(f"{url}: no attempt made")
        for attempt in range(1, tries + 1):
            asked: float | None = None
            self.pacer.wait(host, settings.min_request_interval)
            try:
                with self.session.get(
                    url, params=params, headers=headers, stream=True, timeout=(settings.timeout, settings.timeout)
                ) as response:
                    if response.status_code == 200:
                        return consume(response)
                    failure = self._status_failure(response, attempt, tries)
                    if response.status_code not in RETRY_STATUSES:
                        raise failure
                    asked = retry_after_seconds(response.headers.get("Retry-After"))
            except TruncatedError as exc:
                failure = exc
            except requests.RequestException as exc:
                failure = _network_failure(url, exc, settings.timeout)
                if not isinstance(exc, _TRANSIENT) or _unresolvable(exc):
                    raise failure from None
            if attempt < tries:
                wait = asked if asked is not None else settings.backoff * 2 ** (attempt - 1)
                time.sleep(min(wait, settings.max_retry_wait))
        raise failure

    @staticmethod
    def _status_failure(response: requests.Response, attempt: int, tries: int) -> HttpStatusError:
        status = response.status_code
        text = f"{response.url}: HTTP {status} {response.reason or ''}".rstrip()
        if status in RETRY_STATUSES:
            text += f" (attempt {attempt} of {tries})"
        return HttpStatusError(text, status)
