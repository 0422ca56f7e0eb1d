"""Download the Project Gutenberg catalog and e-texts, safely and with provenance.

A book is fetched from a base URL (a Project Gutenberg mirror such as
``http://aleph.gutenberg.org``, an ``http://127.0.0.1:PORT`` mirror, or a ``file:///...``
folder) by trying URL templates in order; a 404 or 410 moves on to the next template. A
template holds ``{id}`` (the book number) and may hold ``{folder}`` (the book's folder on a
mirror, :func:`mirror_folder`). Two layouts are named: :data:`MIRROR_URL_TEMPLATES` (the
mirrors', the default) and :data:`SITE_URL_TEMPLATES` (www.gutenberg.org's, and that of a
local copy of it such as the shared test mirror). Timeouts, connection errors, 429 and 5xx
answers are retried with exponential backoff (``backoff * 2**k`` seconds, at most
``max_backoff``); so is an attempt that outlives its overall deadline (a trickling server).
When one URL stays in error after ``retries`` retries the book is ``"failed"`` and no later
template is tried (a later template could be a different edition of the same book).

Every fetch ends in one of four statuses (:data:`STATUSES`):

- ``"ok"``: ``text`` holds the decoded e-text;
- ``"unavailable"``: every template answered 404/410 (not an error: the book is not there);
- ``"failed"``: retries exhausted (timeouts, dropped connections, bodies shorter than their
  Content-Length, 429/5xx), or an HTTP status that is neither success nor not-found;
- ``"rejected"``: a body arrived but is not a usable text: an HTML page, an empty body, a
  body or text larger than ``max_text_bytes``, a corrupt zip, a zip without exactly one
  ``.txt`` member, a zip member with an absolute or ``..`` path, or binary content (NUL
  characters).

Texts are decoded as UTF-8 (a BOM is stripped) and, when the bytes are not valid UTF-8, as
Latin-1; the bytes decide, never the header's "Character set encoding" line. Line endings are
kept as downloaded.

:func:`write_book` stores the text gzip-compressed and then a JSON provenance record, both
atomically and in that order, so a provenance file means the book is complete.
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
import time
import zipfile
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse
from urllib.request import url2pathname

from punctstyle import __version__
from punctstyle.io import InputError, write_bytes_atomic, write_gzip_text_atomic, write_json_atomic

if TYPE_CHECKING:  # requests and urllib3 are imported where used: a file:// mirror never needs them
    import requests

__all__ = [
    "DEFAULT_CATALOG_PATH",
    "DEFAULT_MAX_CATALOG_BYTES",
    "DEFAULT_MAX_TEXT_BYTES",
    "DEFAULT_URL_TEMPLATES",
    "DEFAULT_USER_AGENT",
    "MIRROR_URL_TEMPLATES",
    "PROVENANCE_KEYS",
    "SITE_URL_TEMPLATES",
    "STATUSES",
    "CatalogDownload",
    "DownloadError",
    "FetchResult",
    "decode_text",
    "fetch_book",
    "fetch_catalog",
    "join_url",
    "mirror_folder",
    "provenance_record",
    "read_provenance",
    "write_book",
]

logger = logging.getLogger(__name__)

PROJECT_URL = "https://github.com/punctstyle/punctstyle"
"""Contact URL sent in the User-Agent (change it if the project lives elsewhere)."""

DEFAULT_USER_AGENT = f"punctstyle/{__version__} (+{PROJECT_URL}; research use)"

MIRROR_URL_TEMPLATES: tuple[str, ...] = (
    "{folder}/{id}.txt",
    "{folder}/{id}-8.txt",
    "{folder}/{id}-0.txt",
    "{folder}/{id}.zip",
    "{folder}/{id}-8.zip",
    "{folder}/{id}-0.zip",
)
"""A book on a Project Gutenberg mirror (``{folder}``: :func:`mirror_folder`), tried in this
order: the plain files in the order of the ``gutenberg`` package that the paper used
(``.txt``, ``-8.txt`` = Latin-1, ``-0.txt`` = UTF-8), then their zips."""

SITE_URL_TEMPLATES: tuple[str, ...] = (
    "cache/epub/{id}/pg{id}.txt",
    "files/{id}/{id}-0.txt",
    "files/{id}/{id}-0.zip",
    "files/{id}/{id}.txt",
    "files/{id}/{id}.zip",
)
"""A book on www.gutenberg.org, or on a local copy laid out like it (the shared mirror)."""

DEFAULT_URL_TEMPLATES: tuple[str, ...] = MIRROR_URL_TEMPLATES
"""The templates :func:`fetch_book` uses when none are given (the schema's default)."""

DEFAULT_CATALOG_PATH = "cache/epub/feeds/pg_catalog.csv"
DEFAULT_MAX_TEXT_BYTES = 64 * 1024 * 1024
DEFAULT_MAX_CATALOG_BYTES = 256 * 1024 * 1024
DEFAULT_MAX_BACKOFF = 60.0

STATUSES: tuple[str, ...] = ("ok", "unavailable", "failed", "rejected")
ENCODINGS: tuple[str, ...] = ("utf-8", "latin-1", "utf-16")
"""Source encodings a provenance may record (the stored text is always UTF-8): a mirror gives
UTF-8 or Latin-1, a folder corpus (:mod:`punctstyle.folder_corpus`) also UTF-16 with its BOM."""

PROVENANCE_KEYS: tuple[str, ...] = (
    "book_id",
    "status",
    "url",
    "n_bytes",
    "sha256",
    "encoding",
    "reason",
    "attempts",
    "n_chars",
    "text_sha256",
    "user_agent",
    "fetched_at",
    "punctstyle_version",
)
"""Keys of a provenance record (all required by :func:`read_provenance`)."""

_CHUNK = 1024 * 1024
_NOT_FOUND_STATUSES = frozenset({404, 410})
_UTF8_BOM = b"\xef\xbb\xbf"
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
_HTML_STARTS = (b"<!doctype", b"<html", b"<?xml", b"<head", b"<body")
_ZIP_MAGIC = b"PK\x03\x04"
_HTML_TYPES = ("text/html", "application/xhtml+xml")
_MAX_OUTCOME_CHARS = 300


class DownloadError(RuntimeError):
    """A download that the workflow cannot go on without (the catalog) did not succeed."""


@dataclass(frozen=True)
class FetchResult:
    """The outcome of :func:`fetch_book`.

    ``status`` is one of :data:`STATUSES`; ``text`` is set only when it is ``"ok"``. ``url``
    is the URL whose body was used (or rejected); ``n_bytes`` and ``sha256`` describe that raw
    body as downloaded (a zip, not the text inside it); ``encoding`` is ``"utf-8"`` or
    ``"latin-1"`` for an ``"ok"`` text; ``reason`` says why a book is not ``"ok"``.
    ``attempts`` lists every request made, in order, as ``(url, outcome)`` pairs.
    """

    book_id: int
    status: str
    text: str | None = field(repr=False)
    url: str | None
    n_bytes: int
    sha256: str | None
    encoding: str | None
    reason: str | None
    attempts: tuple[tuple[str, str], ...]
    user_agent: str = DEFAULT_USER_AGENT
    fetched_at: str = ""

    @property
    def ok(self) -> bool:
        return self.status == "ok"


@dataclass(frozen=True)
class CatalogDownload:
    """What :func:`fetch_catalog` wrote: the source URL, the file, its size and SHA-256."""

    url: str
    path: Path
    n_bytes: int
    sha256: str
    attempts: tuple[tuple[str, str], ...]


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


def mirror_folder(book_id: int) -> str:
    """The folder of book ``book_id`` on a Project Gutenberg mirror (the ``{folder}`` of a template).

    Rule (the mirrors' layout, as in the ``gutenberg`` package): write the number with at
    least two digits (``1`` -> ``01``), make each digit but the last one folder, then add a
    folder named by the number itself (unpadded): 1 -> ``0/1``, 19 -> ``1/19``,
    123 -> ``1/2/123``, 15453 -> ``1/5/4/5/15453``.
    """
    if isinstance(book_id, bool) or not isinstance(book_id, int) or book_id <= 0:
        raise ValueError(f"book_id must be a positive integer, got {book_id!r}")
    digits = str(book_id).zfill(2)
    return "/".join([*digits[:-1], str(book_id)])


def join_url(base_url: str, relative: str) -> str:
    """``base_url`` and a relative path joined by exactly one slash (the base's path is kept)."""
    return base_url.rstrip("/") + "/" + relative.lstrip("/")


def _check_base_url(base_url: str) -> str:
    scheme = urlparse(base_url).scheme.lower()
    if scheme not in ("http", "https", "file"):
        raise ValueError(f"unsupported base URL {base_url!r}: expected http://, https:// or file://")
    return scheme


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


def _get_file(url: str, *, max_bytes: int) -> _Attempt:
    parsed = urlparse(url)
    if parsed.netloc not in ("", "localhost"):
        return _Attempt("fatal", f"file URL with a remote host {parsed.netloc!r}")
    path = Path(url2pathname(parsed.path))
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


# --------------------------------------------------------------------------------------------
# Content checks


def html_start(data: bytes) -> str | None:
    """The markup an HTML or XML page starts with (``<!doctype``, ``<html``, ``<?xml``,
    ``<head``, ``<body``), after whitespace and a UTF-8 or UTF-16 byte-order mark; else None.

    The one check of "this is a web page, not a text": the download route and the command
    line (:func:`punctstyle.cli.read_text`) both refuse what it flags."""
    head = data[:1024]
    if head.startswith(_UTF8_BOM):
        head = head[len(_UTF8_BOM) :]
    elif head.startswith(_UTF16_BOMS):
        head = head[: len(head) // 2 * 2].decode("utf-16", errors="replace").encode("ascii", errors="replace")
    head = head.lstrip().lower()
    return next((tag.decode("ascii") for tag in _HTML_STARTS if head.startswith(tag)), None)


def _looks_like_html(data: bytes) -> bool:
    return html_start(data) is not None


def _is_html_content_type(content_type: str) -> bool:
    return content_type.split(";", 1)[0].strip().lower() in _HTML_TYPES


def _unsafe_member_name(name: str) -> bool:
    """True for an absolute path, a drive or UNC prefix, or any ``..`` component."""
    normalised = name.replace("\\", "/")
    if normalised.startswith("/") or (len(normalised) >= 2 and normalised[1] == ":"):
        return True
    return ".." in PurePosixPath(normalised).parts


def _extract_zip_text(body: bytes, max_text_bytes: int) -> bytes:
    """The bytes of the single ``.txt`` member of zip ``body``; :class:`_Rejected` otherwise.

    The member is read in chunks of at most 1 MiB and abandoned as soon as it passes
    ``max_text_bytes``, whatever its header declares; zipfile checks the CRC at the end.
    """
    try:
        with zipfile.ZipFile(io.BytesIO(body)) as archive:
            members = archive.infolist()
            unsafe = [m.filename for m in members if _unsafe_member_name(m.filename)]
            if unsafe:
                raise _Rejected(f"zip member with an unsafe path: {unsafe[0]!r}")
            texts = [m for m in members if not m.is_dir() and m.filename.lower().endswith(".txt")]
            if len(texts) != 1:
                names = ", ".join(m.filename for m in texts[:5])
                detail = f": {names}" if texts else ""
                raise _Rejected(f"zip has {len(texts)} .txt members, expected exactly one{detail}")
            member = texts[0]
            if member.file_size > max_text_bytes:
                raise _Rejected(
                    f"zip member {member.filename!r} declares {member.file_size} bytes, "
                    f"over the cap of {max_text_bytes} bytes"
                )
            chunks: list[bytes] = []
            total = 0
            with archive.open(member) as handle:
                while chunk := handle.read(_CHUNK):
                    total += len(chunk)
                    if total > max_text_bytes:
                        raise _Rejected(
                            f"zip member {member.filename!r} exceeds the cap of {max_text_bytes} bytes"
                        )
                    chunks.append(chunk)
            return b"".join(chunks)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, EOFError, OSError, ValueError) as exc:
        raise _Rejected(f"corrupt zip: {_one_line(exc)}") from exc
    except NotImplementedError as exc:  # an unsupported compression method
        raise _Rejected(f"unsupported zip: {_one_line(exc)}") from exc
    except RuntimeError as exc:  # an encrypted member
        raise _Rejected(f"unreadable zip: {_one_line(exc)}") from exc


def decode_text(data: bytes) -> tuple[str, str]:
    """Decode e-text bytes: UTF-8 (a leading BOM stripped), else Latin-1.

    Returns ``(text, encoding)`` with ``encoding`` ``"utf-8"`` or ``"latin-1"``. Latin-1 maps
    every byte, so decoding never fails; the file's own charset declaration is ignored.
    """
    if data.startswith(_UTF8_BOM):
        data = data[len(_UTF8_BOM) :]
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "latin-1"


def _text_from_body(body: bytes, url: str, content_type: str, max_text_bytes: int) -> tuple[str, str]:
    """The decoded text of a downloaded body, or :class:`_Rejected` with the reason."""
    if not body:
        raise _Rejected("empty body")
    if _is_html_content_type(content_type):
        raise _Rejected(f"HTML page, not a text (Content-Type {content_type!r})")
    if (tag := html_start(body)) is not None:
        raise _Rejected(f"HTML page, not a text (body starts with {tag})")
    if urlparse(url).path.lower().endswith(".zip") or body.startswith(_ZIP_MAGIC):
        data = _extract_zip_text(body, max_text_bytes)
        if (tag := html_start(data)) is not None:
            raise _Rejected(f"HTML page, not a text (zip member starts with {tag})")
    else:
        data = body
        if len(data) > max_text_bytes:
            raise _Rejected(f"text of {len(data)} bytes exceeds the cap of {max_text_bytes} bytes")
    text, encoding = decode_text(data)
    if not text.strip():
        raise _Rejected("empty text")
    if "\x00" in text:
        raise _Rejected("binary content (NUL characters), not a text")
    return text, encoding


# --------------------------------------------------------------------------------------------
# Public API


def _utc_now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def fetch_book(
    book_id: int,
    base_url: str,
    *,
    templates: Sequence[str] = DEFAULT_URL_TEMPLATES,
    timeout: float = 30.0,
    attempt_deadline: float | None = None,
    retries: int = 3,
    backoff: float = 1.0,
    max_backoff: float = DEFAULT_MAX_BACKOFF,
    user_agent: str = DEFAULT_USER_AGENT,
    max_text_bytes: int = DEFAULT_MAX_TEXT_BYTES,
    session: requests.Session | None = None,
) -> FetchResult:
    """Download and decode e-text ``book_id`` from ``base_url``; never raises for a bad book.

    Templates are tried in order; 404/410 moves on; 429, 5xx, timeouts, connection errors and
    truncated bodies are retried ``retries`` times, sleeping ``backoff * 2**k`` seconds (at
    most ``max_backoff``; a 429/503 Retry-After in seconds wins). ``timeout`` applies to the
    connection and to each read; ``attempt_deadline`` (seconds, None = none) bounds a whole
    HTTP attempt: one still receiving its body then is abandoned at its next read (at most
    ``timeout`` later) and counts as a failed attempt, so a server that trickles bytes holds a
    book for about ``attempt_deadline * (1 + retries)`` seconds at most. Templates are
    formatted with ``id`` and ``folder`` (:func:`mirror_folder`). The raw body is capped at
    ``max_text_bytes``, as is the text inside a zip. Raises ValueError only for bad arguments
    (an unsupported URL scheme, a template with another placeholder, a non-positive id).
    """
    if isinstance(book_id, bool) or not isinstance(book_id, int) or book_id <= 0:
        raise ValueError(f"book_id must be a positive integer, got {book_id!r}")
    scheme = _check_base_url(base_url)
    _check_retry_settings(timeout, retries, backoff, max_backoff, attempt_deadline)
    if max_text_bytes <= 0:
        raise ValueError(f"max_text_bytes must be positive, got {max_text_bytes!r}")
    if not templates:
        raise ValueError("templates must not be empty")
    try:
        folder = mirror_folder(book_id)
        urls = [join_url(base_url, template.format(id=book_id, folder=folder)) for template in templates]
    except (KeyError, IndexError, ValueError) as exc:
        raise ValueError(f"bad URL template in {list(templates)!r}: {exc}") from exc

    own_session = session is None and scheme != "file"
    if own_session:
        import requests

        session = requests.Session()
    attempts: list[tuple[str, str]] = []

    def result(status: str, reason: str | None, **values: Any) -> FetchResult:
        fields: dict[str, Any] = {
            "text": None, "url": None, "n_bytes": 0, "sha256": None, "encoding": None
        }
        fields.update(values)
        return FetchResult(
            book_id=book_id,
            status=status,
            reason=reason,
            attempts=tuple(attempts),
            user_agent=user_agent,
            fetched_at=_utc_now(),
            **fields,
        )

    try:
        for url in urls:
            attempt = _get_with_retries(
                url,
                scheme=scheme,
                session=session,
                timeout=timeout,
                deadline=attempt_deadline,
                retries=retries,
                backoff=backoff,
                max_backoff=max_backoff,
                user_agent=user_agent,
                max_bytes=max_text_bytes,
                attempts=attempts,
            )
            if attempt.kind == "missing":
                continue
            if attempt.kind in ("retry", "truncated"):  # a connection dropped mid-body, too
                n = sum(1 for attempted, _ in attempts if attempted == url)
                tries = f"{n} attempt{'s' if n != 1 else ''}"
                return result("failed", f"{url}: {attempt.outcome} (after {tries})", url=url)
            if attempt.kind == "fatal":
                return result("failed", f"{url}: {attempt.outcome}", url=url)
            if attempt.kind == "reject":
                return result("rejected", f"{url}: {attempt.outcome}", url=url)
            body = attempt.body
            digest = hashlib.sha256(body).hexdigest()
            try:
                text, encoding = _text_from_body(body, url, attempt.content_type, max_text_bytes)
            except _Rejected as exc:
                attempts[-1] = (url, f"rejected: {exc}")
                return result("rejected", f"{url}: {exc}", url=url, n_bytes=len(body), sha256=digest)
            return result(
                "ok", None, text=text, url=url, n_bytes=len(body), sha256=digest, encoding=encoding
            )
        return result("unavailable", f"not found at any of {len(urls)} URLs")
    finally:
        if own_session and session is not None:
            session.close()


def fetch_catalog(
    base_url: str,
    dest: str | Path,
    *,
    catalog_path: str = DEFAULT_CATALOG_PATH,
    timeout: float = 60.0,
    attempt_deadline: float | None = None,
    retries: int = 3,
    backoff: float = 1.0,
    max_backoff: float = DEFAULT_MAX_BACKOFF,
    user_agent: str = DEFAULT_USER_AGENT,
    max_bytes: int = DEFAULT_MAX_CATALOG_BYTES,
    session: requests.Session | None = None,
) -> CatalogDownload:
    """Download ``base_url/catalog_path`` to ``dest`` atomically (bytes kept as served).

    Same retry rules as :func:`fetch_book`. Raises :class:`DownloadError` (one line naming the
    URL) when the catalog is not found, retries are exhausted, or the body is empty, HTML,
    truncated or larger than ``max_bytes``; ``dest`` is then left untouched.
    """
    scheme = _check_base_url(base_url)
    _check_retry_settings(timeout, retries, backoff, max_backoff, attempt_deadline)
    url = join_url(base_url, catalog_path)
    attempts: list[tuple[str, str]] = []
    own_session = session is None and scheme != "file"
    if own_session:
        import requests

        session = requests.Session()
    try:
        attempt = _get_with_retries(
            url,
            scheme=scheme,
            session=session,
            timeout=timeout,
            deadline=attempt_deadline,
            retries=retries,
            backoff=backoff,
            max_backoff=max_backoff,
            user_agent=user_agent,
            max_bytes=max_bytes,
            attempts=attempts,
        )
    finally:
        if own_session and session is not None:
            session.close()
    if attempt.kind != "ok":
        n = len(attempts)
        plural = "s" if n != 1 else ""
        raise DownloadError(f"{url}: catalog download failed: {attempt.outcome} ({n} attempt{plural})")
    body = attempt.body
    if not body:
        raise DownloadError(f"{url}: catalog download failed: empty body")
    if _is_html_content_type(attempt.content_type) or _looks_like_html(body):
        raise DownloadError(f"{url}: catalog download failed: got an HTML page, not a CSV")
    write_bytes_atomic(dest, body)
    return CatalogDownload(
        url=url,
        path=Path(dest),
        n_bytes=len(body),
        sha256=hashlib.sha256(body).hexdigest(),
        attempts=tuple(attempts),
    )


def provenance_record(result: FetchResult) -> dict[str, Any]:
    """The JSON-ready provenance of a fetch (keys :data:`PROVENANCE_KEYS`)."""
    text = result.text if result.ok and result.text is not None else ""
    return {
        "book_id": result.book_id,
        "status": result.status,
        "url": result.url,
        "n_bytes": result.n_bytes,
        "sha256": result.sha256,
        "encoding": result.encoding,
        "reason": result.reason,
        "attempts": [[url, outcome] for url, outcome in result.attempts],
        "n_chars": len(text),
        "text_sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(),
        "user_agent": result.user_agent,
        "fetched_at": result.fetched_at or _utc_now(),
        "punctstyle_version": __version__,
    }


def write_book(result: FetchResult, text_path: str | Path, provenance_path: str | Path) -> None:
    """Store the text (gzip; empty unless ``"ok"``), then the provenance JSON, both atomically.

    An old provenance file is removed first, so at every moment a provenance file on disk
    describes the text file beside it: it exists only once the text is complete.
    """
    if result.status not in STATUSES:
        raise ValueError(f"book {result.book_id}: unknown status {result.status!r}")
    if result.ok and result.text is None:
        raise ValueError(f"book {result.book_id}: status ok without a text")
    Path(provenance_path).unlink(missing_ok=True)
    write_gzip_text_atomic(text_path, result.text if result.ok and result.text is not None else "")
    write_json_atomic(provenance_path, provenance_record(result))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_sha256(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)


def read_provenance(path: str | Path) -> dict[str, Any]:
    """Read and validate a provenance file written by :func:`write_book`.

    Returns the record with ``attempts`` as a tuple of ``(url, outcome)`` tuples. Raises
    :class:`~punctstyle.io.InputError` naming the file when it cannot be read, is not JSON,
    lacks a key, or holds a value of the wrong type.
    """
    try:
        raw = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read provenance ({_one_line(exc)})") from exc
    try:
        record = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: provenance is not valid JSON ({exc})") from exc
    if not isinstance(record, dict):
        raise InputError(f"{path}: provenance must be a JSON object, got {type(record).__name__}")
    missing = [key for key in PROVENANCE_KEYS if key not in record]
    if missing:
        raise InputError(f"{path}: provenance is missing key(s) {', '.join(missing)}")

    def bad(key: str, expected: str) -> InputError:
        return InputError(f"{path}: provenance key {key!r} must be {expected}, got {record[key]!r}")

    if not _is_int(record["book_id"]) or record["book_id"] <= 0:
        raise bad("book_id", "a positive integer")
    if record["status"] not in STATUSES:
        raise bad("status", f"one of {', '.join(STATUSES)}")
    for key in ("n_bytes", "n_chars"):
        if not _is_int(record[key]) or record[key] < 0:
            raise bad(key, "a non-negative integer")
    for key in ("url", "reason"):
        if record[key] is not None and not isinstance(record[key], str):
            raise bad(key, "a string or null")
    for key in ("user_agent", "fetched_at", "punctstyle_version"):
        if not isinstance(record[key], str):
            raise bad(key, "a string")
    if record["sha256"] is not None and not _is_sha256(record["sha256"]):
        raise bad("sha256", "a hex SHA-256 or null")
    if not _is_sha256(record["text_sha256"]):
        raise bad("text_sha256", "a hex SHA-256")
    if record["encoding"] is not None and record["encoding"] not in ENCODINGS:
        raise bad("encoding", f"one of {', '.join(ENCODINGS)} or null")
    attempts = record["attempts"]
    if not isinstance(attempts, list) or not all(
        isinstance(a, list) and len(a) == 2 and all(isinstance(s, str) for s in a) for a in attempts
    ):
        raise bad("attempts", "a list of [url, outcome] string pairs")
    if record["status"] == "ok" and any(record[key] is None for key in ("url", "sha256", "encoding")):
        raise InputError(f"{path}: provenance with status ok must have url, sha256 and encoding")
    return {**record, "attempts": tuple((url, outcome) for url, outcome in attempts)}
