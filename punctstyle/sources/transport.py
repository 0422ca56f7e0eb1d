"""Getting bytes from a mirror: HTTP with retries and back-off, file:// mirrors, size limits.

(Split from the former download.py.)"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlparse

if TYPE_CHECKING:  # requests and urllib3 are imported where used: a file:// mirror never needs them
    import requests


__all__ = [
    "DownloadError",
]

logger = logging.getLogger(__name__)

_CHUNK = 1024 * 1024
_NOT_FOUND_STATUSES = frozenset({404, 410})
_MAX_OUTCOME_CHARS = 300


class DownloadError(RuntimeError):
    """A download that the workflow cannot go on without (the catalog) did not succeed."""


# --------------------------------------------------------------------------------------------
# One request


@dataclass(frozen=True)
class _Attempt:
    """One request. ``kind``: ok | missing | retry | truncated | fatal | reject."""

    kind: str
    outcome: str
    body: bytes = b""
    content_type: str = ""
    retry_after: float | None = None


class _Rejected(Exception):
    """A body that is not a usable text (internal control flow; carries the reason)."""


def _one_line(text: object) -> str:
    line = " ".join(str(text).split())
    return line if len(line) <= _MAX_OUTCOME_CHARS else line[: _MAX_OUTCOME_CHARS - 3] + "..."


def _content_length(response: requests.Response) -> int | None:
    value = response.headers.get("Content-Length")
    if value is None:
        return None
    try:
        length = int(value.strip())
    except ValueError:
        return None
    return length if length >= 0 else None


def _retry_after(response: requests.Response) -> float | None:
    value = response.headers.get("Retry-After")
    if value is None:
        return None
    try:
        return max(0.0, float(value.strip()))
    except ValueError:
        return None  # an HTTP date: fall back to the exponential backoff


def _bytes_read_before(exc: BaseException) -> int:
    """Body bytes received before a broken read, from urllib3's IncompleteRead (0 if unknown).

    urllib3 raises before handing over the bytes it buffered, so the caller's own count
    can be short; the IncompleteRead buried in the exception knows the real number.
    """
    import urllib3

    pending: list[object] = [exc]
    for _ in range(20):  # a few levels of args/cause/context are enough
        if not pending:
            break
        item = pending.pop()
        if isinstance(item, urllib3.exceptions.IncompleteRead) and isinstance(item.partial, int):
            return item.partial
        if isinstance(item, BaseException):
            pending.extend(arg for arg in item.args if isinstance(arg, BaseException))
            pending.extend(e for e in (item.__cause__, item.__context__) if e is not None)
    return 0


def _read_body(
    response: requests.Response, *, declared: int | None, max_bytes: int, deadline: float | None, started: float
) -> _Attempt:
    """Read a 200 answer's body; each read returns what has arrived (``read1``), so the
    attempt's ``deadline`` (seconds after ``started``, a ``time.monotonic()``) is checked
    between reads even when a server trickles bytes slower than any read timeout."""
    import urllib3

    raw = response.raw
    chunks: list[bytes] = []
    received = 0
    try:
        while True:
            if deadline is not None and time.monotonic() - started > deadline:
                return _Attempt("retry", f"attempt deadline of {deadline:g} s passed after {received} bytes")
            chunk = raw.read1(_CHUNK, decode_content=True)
            if not chunk:
                break
            received += len(chunk)
            if received > max_bytes:
                return _Attempt("reject", f"body exceeds the cap of {max_bytes} bytes")
            chunks.append(chunk)
    except urllib3.exceptions.ProtocolError as exc:  # the connection broke in the body
        received = max(received, _bytes_read_before(exc))
        if declared is not None and received < declared:
            return _Attempt("truncated", f"truncated body: got {received} of {declared} bytes")
        return _Attempt("retry", f"connection broken: {_one_line(exc)}")
    except (urllib3.exceptions.TimeoutError, urllib3.exceptions.SSLError, OSError) as exc:
        return _Attempt("retry", f"connection error during body: {_one_line(exc)}")
    except urllib3.exceptions.HTTPError as exc:  # e.g. a body that fails to decode
        return _Attempt("fatal", f"request error: {_one_line(exc)}")
    if declared is not None and received < declared:
        return _Attempt("truncated", f"truncated body: got {received} of {declared} bytes")
    content_type = response.headers.get("Content-Type", "")
    return _Attempt("ok", "ok", body=b"".join(chunks), content_type=content_type)


def _get_http(
    session: requests.Session,
    url: str,
    *,
    timeout: float,
    deadline: float | None,
    user_agent: str,
    max_bytes: int,
) -> _Attempt:
    import requests

    headers = {"User-Agent": user_agent, "Accept-Encoding": "identity"}
    started = time.monotonic()
    try:
        with session.get(url, headers=headers, timeout=(timeout, timeout), stream=True) as response:
            status = response.status_code
            if status in _NOT_FOUND_STATUSES:
                return _Attempt("missing", f"http {status}")
            if status == 429 or status >= 500:
                return _Attempt("retry", f"http {status}", retry_after=_retry_after(response))
            if status != 200:
                return _Attempt("fatal", f"http {status}")
            declared = _content_length(response)
            if declared is not None and declared > max_bytes:
                return _Attempt(
                    "reject", f"body of {declared} bytes exceeds the cap of {max_bytes} bytes"
                )
            return _read_body(
                response, declared=declared, max_bytes=max_bytes, deadline=deadline, started=started
            )
    except requests.Timeout:
        return _Attempt("retry", "timeout")
    except requests.ConnectionError as exc:
        return _Attempt("retry", f"connection error: {_one_line(exc)}")
    except requests.RequestException as exc:  # invalid URL, too many redirects, ...
        return _Attempt("fatal", f"request error: {_one_line(exc)}")


def _local_path(url_path: str) -> str:
    """A file URL's path as a local path: ``urllib.request.url2pathname``, which on POSIX is
    ``unquote``; imported only on Windows (``urllib.request`` imports ``http.client``, ``email``
    and ``ssl``: about 0.03 CPU s of a download job from a ``file://`` mirror)."""
    if os.name == "nt":
        from urllib.request import url2pathname

        return url2pathname(url_path)
    return unquote(url_path)


def _get_file(url: str, *, max_bytes: int) -> _Attempt:
    parsed = urlparse(url)
    if parsed.netloc not in ("", "localhost"):
        return _Attempt("fatal", f"file URL with a remote host {parsed.netloc!r}")
    path = Path(_local_path(parsed.path))
    try:
        if path.is_dir():
            return _Attempt("missing", "not found")
        with open(path, "rb") as handle:
            body = handle.read(max_bytes + 1)
    except (FileNotFoundError, NotADirectoryError):
        return _Attempt("missing", "not found")
    except OSError as exc:  # e.g. a network file system hiccup
        return _Attempt("retry", f"read error: {_one_line(exc)}")
    if len(body) > max_bytes:
        return _Attempt("reject", f"body exceeds the cap of {max_bytes} bytes")
    return _Attempt("ok", "ok", body=body)


def _backoff_delay(attempt: _Attempt, k: int, backoff: float, max_backoff: float) -> float:
    if attempt.retry_after is not None:
        return min(attempt.retry_after, max_backoff)
    return min(backoff * (2.0**k), max_backoff)


def _get_with_retries(
    url: str,
    *,
    scheme: str,
    session: requests.Session | None,
    timeout: float,
    deadline: float | None,
    retries: int,
    backoff: float,
    max_backoff: float,
    user_agent: str,
    max_bytes: int,
    attempts: list[tuple[str, str]],
) -> _Attempt:
    """GET ``url`` up to ``1 + retries`` times; append each try to ``attempts``; the last one."""
    k = 0
    while True:
        if scheme == "file":
            attempt = _get_file(url, max_bytes=max_bytes)
        else:
            assert session is not None
            attempt = _get_http(
                session, url, timeout=timeout, deadline=deadline, user_agent=user_agent, max_bytes=max_bytes
            )
        attempts.append((url, attempt.outcome))
        if attempt.kind not in ("retry", "truncated") or k >= retries:
            return attempt
        delay = _backoff_delay(attempt, k, backoff, max_backoff)
        logger.info("%s: %s; retry %d of %d in %.3g s", url, attempt.outcome, k + 1, retries, delay)
        time.sleep(delay)
        k += 1


def _check_retry_settings(
    timeout: float, retries: int, backoff: float, max_backoff: float, deadline: float | None
) -> None:
    if not timeout > 0:
        raise ValueError(f"timeout must be positive, got {timeout!r}")
    if deadline is not None and not deadline > 0:
        raise ValueError(f"attempt_deadline must be positive or None, got {deadline!r}")
    if isinstance(retries, bool) or not isinstance(retries, int) or retries < 0:
        raise ValueError(f"retries must be a non-negative integer, got {retries!r}")
    if backoff < 0 or max_backoff < 0:
        raise ValueError(
            f"backoff and max_backoff must be non-negative, got {backoff!r}, {max_backoff!r}"
        )
