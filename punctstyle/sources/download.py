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
The order is fixed by the caller, never learned from earlier books: it is also the preference
between two editions a mirror holds, so a learned order would make a book's edition depend on
which books the parallel download jobs fetched first. A template a mirror does not hold costs
one 404 per book: list the one it holds first (docs/usage.md).

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

import functools
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse

from punctstyle import __version__
from punctstyle.io import write_bytes_atomic

if TYPE_CHECKING:  # requests and urllib3 are imported where used: a file:// mirror never needs them
    import requests
from punctstyle.sources.decoding import _is_html_content_type, _looks_like_html, _text_from_body
from punctstyle.sources.transport import DownloadError, _check_retry_settings, _get_with_retries, _Rejected

__all__ = [
    "DEFAULT_CATALOG_PATH",
    "DEFAULT_MAX_CATALOG_BYTES",
    "DEFAULT_MAX_TEXT_BYTES",
    "DEFAULT_URL_TEMPLATES",
    "DEFAULT_USER_AGENT",
    "MIRROR_URL_TEMPLATES",
    "SITE_URL_TEMPLATES",
    "STATUSES",
    "CatalogDownload",
    "FetchResult",
    "fetch_book",
    "fetch_catalog",
    "join_url",
    "mirror_folder",
]

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


# --------------------------------------------------------------------------------------------
# Public API


def _utc_now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _fetch_result(
    book_id: int, user_agent: str, attempts: list[tuple[str, str]], status: str, reason: str | None, **values: Any
) -> FetchResult:
    """The :class:`FetchResult` of ``book_id`` now: ``status``, ``reason``, the ``attempts`` made
    so far and the time; ``text``, ``url``, ``n_bytes``, ``sha256``, ``encoding`` from
    ``values`` (None, or 0 bytes, when not given)."""
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


def _book_urls(
    book_id: int, base_url: str, templates: Sequence[str], max_text_bytes: int, retry_settings: tuple[Any, ...]
) -> tuple[str, list[str]]:
    """The scheme of ``base_url`` and the URLs of ``book_id``, one per template (formatted with
    ``id`` and ``folder``, :func:`mirror_folder`), after checking :func:`fetch_book`'s arguments
    in this order: the id, the scheme, ``retry_settings`` (:func:`_check_retry_settings`'s
    ``timeout, retries, backoff, max_backoff, attempt_deadline``), ``max_text_bytes``, the
    templates (none, or one with another placeholder: ValueError)."""
    if isinstance(book_id, bool) or not isinstance(book_id, int) or book_id <= 0:
        raise ValueError(f"book_id must be a positive integer, got {book_id!r}")
    scheme = _check_base_url(base_url)
    _check_retry_settings(*retry_settings)
    if max_text_bytes <= 0:
        raise ValueError(f"max_text_bytes must be positive, got {max_text_bytes!r}")
    if not templates:
        raise ValueError("templates must not be empty")
    try:
        folder = mirror_folder(book_id)
        urls = [join_url(base_url, template.format(id=book_id, folder=folder)) for template in templates]
    except (KeyError, IndexError, ValueError) as exc:
        raise ValueError(f"bad URL template in {list(templates)!r}: {exc}") from exc
    return scheme, urls


def _attempt_result(
    attempt: Any, url: str, attempts: list[tuple[str, str]], max_text_bytes: int, result: Callable[..., FetchResult]
) -> FetchResult:
    """The result of a URL that was not missing: ``failed`` after its retries (or a fatal error),
    ``rejected`` (by the server's answer or by its body, recorded in ``attempts``), or ``ok``
    with the decoded text, its size and SHA-256."""
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
    return result("ok", None, text=text, url=url, n_bytes=len(body), sha256=digest, encoding=encoding)


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
    scheme, urls = _book_urls(book_id, base_url, templates, max_text_bytes,
                              (timeout, retries, backoff, max_backoff, attempt_deadline))  # fmt: skip

    own_session = session is None and scheme != "file"
    if own_session:
        import requests

        session = requests.Session()
    attempts: list[tuple[str, str]] = []
    result = functools.partial(_fetch_result, book_id, user_agent, attempts)

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
            if attempt.kind != "missing":
                return _attempt_result(attempt, url, attempts, max_text_bytes, result)
        return result("unavailable", f"not found at any of {len(urls)} URLs")
    finally:
        if own_session and session is not None:
            session.close()


def _catalog_body(attempt: Any, url: str, n_attempts: int) -> bytes:
    """The catalog's bytes from the last attempt; :class:`DownloadError` (one line naming
    ``url``) when it failed (after ``n_attempts``), or its body is empty or an HTML page."""
    if attempt.kind != "ok":
        plural = "s" if n_attempts != 1 else ""
        raise DownloadError(f"{url}: catalog download failed: {attempt.outcome} ({n_attempts} attempt{plural})")
    body = attempt.body
    if not body:
        raise DownloadError(f"{url}: catalog download failed: empty body")
    if _is_html_content_type(attempt.content_type) or _looks_like_html(body):
        raise DownloadError(f"{url}: catalog download failed: got an HTML page, not a CSV")
    return body


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
    body = _catalog_body(attempt, url, len(attempts))
    write_bytes_atomic(dest, body)
    return CatalogDownload(
        url=url,
        path=Path(dest),
        n_bytes=len(body),
        sha256=hashlib.sha256(body).hexdigest(),
        attempts=tuple(attempts),
    )
