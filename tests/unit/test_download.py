"""Tests of punctstyle.sources.download against a real HTTP server on loopback.

The server serves a temporary folder laid out like gutenberg.org (built here, with our own
sentences) and, under ``/fault/<scenario>/...``, misbehaves on purpose: 500 twice then OK,
503 forever, 429 then OK, a response slower than the timeout, a body shorter than its
Content-Length, an HTML page, an empty 200, a 403, a 410.
"""

from __future__ import annotations

import contextlib
import functools
import gzip
import hashlib
import io
import json
import os
import threading
import time
import zipfile
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import SimpleNamespace

import pytest
import requests

from punctstyle import __version__
from punctstyle.sources import transport
from punctstyle.sources import provenance as download_provenance
from punctstyle import io as pio
from punctstyle.sources.download import (
    DEFAULT_URL_TEMPLATES,
    DEFAULT_USER_AGENT,
    MIRROR_URL_TEMPLATES,
    SITE_URL_TEMPLATES,
    FetchResult,
    fetch_book,
    fetch_catalog,
    join_url,
    mirror_folder,
)
from punctstyle.sources.provenance import (
    PROVENANCE_KEYS,
    read_provenance,
    write_book,
)
from punctstyle.sources.transport import DownloadError
from punctstyle.sources.decoding import decode_text
from punctstyle.io import InputError, read_gzip_text
from punctstyle.settings import schema_default

FAST = {"backoff": 0.001, "timeout": 5.0}
"""Retry settings that keep the file fast (tiny backoff)."""
SITE = {**FAST, "templates": SITE_URL_TEMPLATES}
"""...and the templates of the test mirror, laid out like www.gutenberg.org."""

TEXT = (
    "The Project Gutenberg eBook of A Test, by Nobody\r\n"
    "*** START OF THE PROJECT GUTENBERG EBOOK A TEST ***\r\n"
    "\u201cCuriouser and curiouser!\u201d she cried; then, after a pause (a long one)\u2026 nothing.\r\n"
    "*** END OF THE PROJECT GUTENBERG EBOOK A TEST ***\r\n"
)
FAULT_TEXT = b"*** START OF THE PROJECT GUTENBERG EBOOK FAULT ***\r\nWell, it worked.\r\n"
CATALOG = (
    "Text#,Type,Issued,Title,Language,Authors,Subjects,LoCC,Bookshelves\n"
    '1,Text,1999-01-01,A Test,en,"Nobody, A., 1800-1870",Fiction,PR,Humor\n'
)
MIB = 1024 * 1024
TRICKLE_TEXT = b"Slowly; very slowly, one byte at a time.\r\n" * 50
TRICKLE_GAP_S = 0.05  # well within the read timeout: only an overall deadline stops it (100 s)
SHARED_MIRROR = Path(__file__).resolve().parents[2].parent / "shared" / "gutenberg-mirror"


# --------------------------------------------------------------------------------------------
# The fake mirror


def _zip_bytes(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            info = zipfile.ZipInfo(name, date_time=(2018, 1, 1, 0, 0, 0))
            archive.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def _lie_about_size(data: bytes, declared: int) -> bytes:
    """Rewrite the uncompressed size of the (single) member in both zip headers."""
    patched = bytearray(data)
    local = patched.index(b"PK\x03\x04")
    central = patched.index(b"PK\x01\x02")
    patched[local + 22 : local + 26] = declared.to_bytes(4, "little")
    patched[central + 24 : central + 28] = declared.to_bytes(4, "little")
    return bytes(patched)


def _build_mirror(root: Path) -> None:
    def put(relative: str, data: bytes) -> None:
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)

    put("cache/epub/feeds/pg_catalog.csv", CATALOG.encode("utf-8"))
    # 1: only files/1/1-0.zip, like the shared mirror (no .txt beside it)
    put("files/1/1-0.zip", _zip_bytes({"1-0.txt": TEXT.encode("utf-8")}))
    # 2: Latin-1 bytes although the header claims UTF-8 (the bytes decide)
    put("cache/epub/2/pg2.txt", b"Character set encoding: UTF-8\r\nCaf\xe9; na\xefve, isn't it?\r\n")
    # 3: UTF-8 with a BOM, although the header claims ISO-8859-1
    put("cache/epub/3/pg3.txt", b"\xef\xbb\xbfCharacter set encoding: ISO-8859-1\r\nCaf\xc3\xa9!\r\n")
    # 4: zip slip; 12: an absolute member path
    put("files/4/4-0.zip", _zip_bytes({"../4-0.txt": b"escape, attempt."}))
    put("files/12/12-0.zip", _zip_bytes({"/tmp/12-0.txt": b"escape, attempt."}))
    # 5: a zip bomb (3 MiB of one letter, a few KiB zipped); 13: the same with lying headers
    bomb = _zip_bytes({"5-0.txt": b"a" * (3 * MIB)})
    put("files/5/5-0.zip", bomb)
    put("files/13/13-0.zip", _lie_about_size(_zip_bytes({"13-0.txt": b"a" * (3 * MIB)}), 100))
    # 6: two .txt members; 7: none; 8: corrupt
    put("files/6/6-0.zip", _zip_bytes({"6-0.txt": b"One.", "6-0-notes.txt": b"Two."}))
    put("files/7/7-0.zip", _zip_bytes({"7-h/7-h.htm": b"<html></html>"}))
    put("files/8/8-0.zip", b"PK\x03\x04" + b"not really a zip, " * 20)
    # 9: nowhere. 10: only at the last template
    put("files/10/10.zip", _zip_bytes({"10/10.txt": b"Last; but not least."}))


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], handler: type) -> None:
        super().__init__(address, handler)
        self.lock = threading.Lock()
        self.counts: dict[str, int] = {}
        self.user_agents: dict[str, str] = {}

    def record(self, path: str, user_agent: str) -> int:
        with self.lock:
            self.counts[path] = self.counts.get(path, 0) + 1
            self.user_agents[path] = user_agent
            return self.counts[path]

    def handle_error(self, request, client_address) -> None:  # noqa: ANN001
        pass  # a client that timed out and hung up is expected here


class _Handler(SimpleHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass

    def do_GET(self) -> None:  # noqa: N802
        count = self.server.record(self.path, self.headers.get("User-Agent", ""))
        if self.path.startswith("/fault/"):
            self._fault(self.path.split("/")[2], count)
        else:
            super().do_GET()

    def _send(self, status: int, body: bytes = b"", content_type: str = "text/plain", **headers: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", headers.pop("length", str(len(body))))
        for name, value in headers.items():
            self.send_header(name.replace("_", "-"), value)
        self.end_headers()
        self.wfile.write(body)

    def _fault(self, scenario: str, count: int) -> None:
        if scenario == "flaky":
            self._send(500, b"oops") if count <= 2 else self._send(200, FAULT_TEXT)
        elif scenario == "down":
            self._send(503, b"down for maintenance")
        elif scenario == "ratelimit":
            self._send(429, b"slow down", Retry_After="0") if count == 1 else self._send(200, FAULT_TEXT)
        elif scenario == "slow":
            time.sleep(1.0)
            self._send(200, FAULT_TEXT)
        elif scenario == "truncated":
            self._send(200, FAULT_TEXT[:20], length=str(len(FAULT_TEXT) + 1000))
            self.wfile.flush()
            self.close_connection = True
        elif scenario == "html":
            self._send(200, b"<p>Please log in</p>", content_type="text/html; charset=utf-8")
        elif scenario == "htmlsniff":
            self._send(200, b"\r\n  <!DOCTYPE html>\n<html><body>Sorry</body></html>")
        elif scenario == "xmlsniff":  # served as text/plain, like the rest
            self._send(200, b' \n\t<?xml version="1.0"?>\n<html><body>Error 503</body></html>')
        elif scenario == "headsniff":
            self._send(200, b"\xef\xbb\xbf\r\n<HEAD><title>Moved</title></HEAD><body>Gone</body>")
        elif scenario == "utf16sniff":
            self._send(200, "\ufeff  <?xml version='1.0'?><html/>".encode("utf-16-le"))
        elif scenario == "commentsniff":  # an error page that opens with a comment (issue 33)
            self._send(200, b"<!-- served by cache-7 -->\n<!-- error 503 -->\n<html><body>Try later</body></html>")
        elif scenario == "utf16bigsniff":
            self._send(200, "\ufeff\n<head></head>".encode("utf-16-be"))
        elif scenario == "trickle":  # a declared body sent one byte at a time, slowly
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(TRICKLE_TEXT)))
            self.end_headers()
            for k in range(len(TRICKLE_TEXT)):
                self.wfile.write(TRICKLE_TEXT[k : k + 1])
                self.wfile.flush()
                time.sleep(TRICKLE_GAP_S)
        elif scenario == "empty":
            self._send(200, b"")
        elif scenario == "forbidden":
            self._send(403, b"no robots")
        elif scenario == "gone":
            self._send(410, b"gone")
        else:
            self._send(404, b"unknown scenario")


@contextlib.contextmanager
def _serve(directory: Path) -> Iterator[_Server]:
    server = _Server(("127.0.0.1", 0), functools.partial(_Handler, directory=str(directory)))
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture(scope="module")
def mirror(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SimpleNamespace]:
    root = tmp_path_factory.mktemp("mirror")
    _build_mirror(root)
    with _serve(root) as server:
        port = server.server_address[1]
        yield SimpleNamespace(root=root, url=f"http://127.0.0.1:{port}", server=server)


def _outcomes(result: FetchResult) -> list[str]:
    return [outcome for _, outcome in result.attempts]


# --------------------------------------------------------------------------------------------
# Small pure pieces


def test_decode_text_utf8_bom_and_latin1_fallback() -> None:
    assert decode_text("café".encode()) == ("café", "utf-8")
    assert decode_text(b"\xef\xbb\xbfcaf\xc3\xa9") == ("café", "utf-8")
    assert decode_text(b"caf\xe9") == ("café", "latin-1")


def test_join_url_keeps_the_base_path() -> None:
    assert join_url("https://www.gutenberg.org", "files/1/1-0.zip") == "https://www.gutenberg.org/files/1/1-0.zip"
    assert join_url("http://127.0.0.1:8000/mirror/", "/files/1/1.txt") == "http://127.0.0.1:8000/mirror/files/1/1.txt"
    assert join_url("file:///data/pg", "cache/epub/2/pg2.txt") == "file:///data/pg/cache/epub/2/pg2.txt"


@pytest.mark.parametrize(
    ("book_id", "folder"), [(1, "0/1"), (9, "0/9"), (10, "1/10"), (19, "1/19"), (123, "1/2/123"), (15453, "1/5/4/5/15453")]
)
def test_mirror_folder(book_id: int, folder: str) -> None:
    assert mirror_folder(book_id) == folder


@pytest.mark.parametrize("book_id", [0, -3, True])
def test_mirror_folder_refuses_non_book_numbers(book_id: int) -> None:
    with pytest.raises(ValueError, match="positive integer"):
        mirror_folder(book_id)


def test_defaults() -> None:
    assert DEFAULT_URL_TEMPLATES == MIRROR_URL_TEMPLATES == (
        "{folder}/{id}.txt",
        "{folder}/{id}-8.txt",
        "{folder}/{id}-0.txt",
        "{folder}/{id}.zip",
        "{folder}/{id}-8.zip",
        "{folder}/{id}-0.zip",
    )
    assert tuple(schema_default("mirror", "url_templates")) == DEFAULT_URL_TEMPLATES
    assert SITE_URL_TEMPLATES[0] == "cache/epub/{id}/pg{id}.txt"
    assert DEFAULT_USER_AGENT.startswith(f"punctstyle/{__version__} (+https://")
    assert DEFAULT_USER_AGENT.endswith("; research use)")


@pytest.mark.parametrize(
    ("book_id", "base_url", "templates"),
    [(0, "http://127.0.0.1:1", DEFAULT_URL_TEMPLATES), (True, "http://127.0.0.1:1", DEFAULT_URL_TEMPLATES),
     (1, "ftp://example.org", DEFAULT_URL_TEMPLATES), (1, "http://127.0.0.1:1", ("files/{name}.txt",)),
     (1, "http://127.0.0.1:1", ())],
)
def test_bad_arguments_raise_value_error(book_id: int, base_url: str, templates: tuple[str, ...]) -> None:
    with pytest.raises(ValueError):
        fetch_book(book_id, base_url, templates=templates)


# --------------------------------------------------------------------------------------------
# Books over HTTP


def test_template_fallback_to_zip(mirror: SimpleNamespace) -> None:
    result = fetch_book(1, mirror.url, **SITE)
    zip_url = f"{mirror.url}/files/1/1-0.zip"
    assert result.status == "ok" and result.ok
    assert result.text == TEXT
    assert result.encoding == "utf-8"
    assert result.url == zip_url
    assert result.reason is None
    assert result.attempts == (
        (f"{mirror.url}/cache/epub/1/pg1.txt", "http 404"),
        (f"{mirror.url}/files/1/1-0.txt", "http 404"),
        (zip_url, "ok"),
    )
    raw = (mirror.root / "files/1/1-0.zip").read_bytes()
    assert result.n_bytes == len(raw)
    assert result.sha256 == hashlib.sha256(raw).hexdigest()
    assert result.fetched_at.endswith("Z")
    assert "text" not in repr(result).split("status=")[1].split("url=")[0]  # text kept out of repr


def test_mirror_layout_by_default(tmp_path: Path) -> None:
    # a mirror holds 15453 as 1/5/4/5/15453/15453-8.txt: .txt is tried first, then -8.txt
    book = tmp_path / "1/5/4/5/15453/15453-8.txt"
    book.parent.mkdir(parents=True)
    book.write_bytes(b"Caf\xe9, mon ami; ou pas?")
    result = fetch_book(15453, tmp_path.as_uri(), **FAST)
    assert result.status == "ok" and result.text == "Café, mon ami; ou pas?"
    assert result.attempts == (
        (f"{tmp_path.as_uri()}/1/5/4/5/15453/15453.txt", "not found"),
        (f"{tmp_path.as_uri()}/1/5/4/5/15453/15453-8.txt", "ok"),
    )


def test_last_template_and_custom_templates(mirror: SimpleNamespace) -> None:
    result = fetch_book(10, mirror.url, **SITE)
    assert result.status == "ok" and result.text == "Last; but not least."
    assert _outcomes(result) == ["http 404"] * 4 + ["ok"]
    only = fetch_book(1, mirror.url, templates=("files/{id}/{id}-0.zip",), **FAST)
    assert only.status == "ok" and len(only.attempts) == 1


def test_all_404_is_unavailable(mirror: SimpleNamespace) -> None:
    result = fetch_book(9, mirror.url, **SITE)
    assert result.status == "unavailable"
    assert result.text is None and result.url is None and result.sha256 is None and result.n_bytes == 0
    assert _outcomes(result) == ["http 404"] * 5
    assert "5 URLs" in result.reason


def test_410_is_unavailable(mirror: SimpleNamespace) -> None:
    result = fetch_book(110, f"{mirror.url}/fault/gone", **SITE)
    assert result.status == "unavailable"
    assert _outcomes(result) == ["http 410"] * 5


def test_latin1_fallback_trusts_bytes_not_header(mirror: SimpleNamespace) -> None:
    result = fetch_book(2, mirror.url, **SITE)
    assert result.status == "ok"
    assert result.encoding == "latin-1"
    assert result.text == "Character set encoding: UTF-8\r\nCafé; naïve, isn't it?\r\n"


def test_utf8_bom_is_stripped(mirror: SimpleNamespace) -> None:
    result = fetch_book(3, mirror.url, **SITE)
    assert result.status == "ok"
    assert result.encoding == "utf-8"
    assert result.text == "Character set encoding: ISO-8859-1\r\nCafé!\r\n"
    assert result.sha256 == hashlib.sha256((mirror.root / "cache/epub/3/pg3.txt").read_bytes()).hexdigest()


@pytest.mark.parametrize(
    ("book_id", "max_text_bytes", "expected"),
    [
        (4, 1 * MIB, "unsafe path: '../4-0.txt'"),
        (12, 1 * MIB, "unsafe path: '/tmp/12-0.txt'"),
        (5, 1 * MIB, "declares 3145728 bytes, over the cap of 1048576"),
        (13, 1 * MIB, "corrupt zip"),
        (6, 1 * MIB, "zip has 2 .txt members, expected exactly one: 6-0.txt, 6-0-notes.txt"),
        (7, 1 * MIB, "zip has 0 .txt members"),
        (8, 1 * MIB, "corrupt zip"),
        (1, 10, "exceeds the cap of 10 bytes"),
    ],
)
def test_bad_zips_are_rejected(mirror: SimpleNamespace, book_id: int, max_text_bytes: int, expected: str) -> None:
    result = fetch_book(book_id, mirror.url, max_text_bytes=max_text_bytes, **SITE)
    assert result.status == "rejected", result
    assert expected in result.reason
    assert result.text is None and result.encoding is None
    assert result.url == f"{mirror.url}/files/{book_id}/{book_id}-0.zip"
    assert result.attempts[-1][1].startswith("rejected: ") or "cap" in result.attempts[-1][1]


def test_zip_bomb_is_allowed_under_a_large_enough_cap(mirror: SimpleNamespace) -> None:
    result = fetch_book(5, mirror.url, max_text_bytes=4 * MIB, **SITE)
    assert result.status == "ok" and len(result.text) == 3 * MIB


def test_retries_then_success(mirror: SimpleNamespace) -> None:
    result = fetch_book(101, f"{mirror.url}/fault/flaky", retries=3, **SITE)
    assert result.status == "ok"
    assert result.text == FAULT_TEXT.decode()
    assert _outcomes(result) == ["http 500", "http 500", "ok"]
    assert mirror.server.counts["/fault/flaky/cache/epub/101/pg101.txt"] == 3


def test_retries_exhausted_is_failed_and_stops(mirror: SimpleNamespace) -> None:
    result = fetch_book(102, f"{mirror.url}/fault/down", retries=2, **SITE)
    assert result.status == "failed"
    assert _outcomes(result) == ["http 503"] * 3
    assert {url for url, _ in result.attempts} == {f"{mirror.url}/fault/down/cache/epub/102/pg102.txt"}
    assert "http 503 (after 3 attempts)" in result.reason
    assert result.text is None


def test_backoff_doubles_and_is_capped(mirror: SimpleNamespace, monkeypatch: pytest.MonkeyPatch) -> None:
    delays: list[float] = []
    monkeypatch.setattr(transport.time, "sleep", delays.append)
    fetch_book(111, f"{mirror.url}/fault/down", retries=4, backoff=0.5, max_backoff=3.0)
    assert delays == [0.5, 1.0, 2.0, 3.0]
    delays.clear()
    result = fetch_book(109, f"{mirror.url}/fault/ratelimit", retries=2, backoff=5.0)
    assert result.status == "ok" and _outcomes(result) == ["http 429", "ok"]
    assert delays == [0.0]  # Retry-After: 0 wins over the backoff


def test_timeout_is_retried_then_failed(mirror: SimpleNamespace) -> None:
    start = time.monotonic()
    result = fetch_book(103, f"{mirror.url}/fault/slow", retries=1, backoff=0.001, timeout=0.2)
    assert time.monotonic() - start < 1.5
    assert result.status == "failed"
    assert _outcomes(result) == ["timeout", "timeout"]
    assert "timeout" in result.reason


def test_connection_refused_is_failed() -> None:
    with _serve(Path(".")) as server:
        port = server.server_address[1]
    result = fetch_book(1, f"http://127.0.0.1:{port}", retries=1, **SITE)
    assert result.status == "failed"
    assert [o.split(":")[0] for o in _outcomes(result)] == ["connection error"] * 2


def test_trickling_body_fails_at_the_attempt_deadline(mirror: SimpleNamespace) -> None:
    # each byte comes within the read timeout, so only the attempt deadline ends an attempt;
    # without it the body would take len(TRICKLE_TEXT) * TRICKLE_GAP_S = 100 s
    deadline, retries = 0.5, 1
    start = time.monotonic()
    result = fetch_book(116, f"{mirror.url}/fault/trickle", retries=retries, attempt_deadline=deadline, **SITE)
    elapsed = time.monotonic() - start
    assert result.status == "failed"
    outcomes = _outcomes(result)
    assert len(outcomes) == 1 + retries
    assert all(o.startswith("attempt deadline of 0.5 s passed after ") for o in outcomes), outcomes
    assert result.reason.endswith(f"(after {1 + retries} attempts)")
    assert elapsed < 20 * deadline * (1 + retries), f"took {elapsed:.1f} s"  # safety net, not a benchmark


def test_attempt_deadline_leaves_a_fast_answer_alone(mirror: SimpleNamespace) -> None:
    result = fetch_book(1, mirror.url, attempt_deadline=30.0, **SITE)
    assert result.status == "ok" and result.text == TEXT


def test_attempt_deadline_must_be_positive() -> None:
    with pytest.raises(ValueError, match="attempt_deadline"):
        fetch_book(1, "http://127.0.0.1:1", attempt_deadline=0)


def test_truncated_body_is_retried_then_failed(mirror: SimpleNamespace) -> None:
    # a connection dropped mid-body is a transient fault: retried, then "failed"
    result = fetch_book(104, f"{mirror.url}/fault/truncated", retries=1, **SITE)
    assert result.status == "failed"
    expected = f"truncated body: got 20 of {len(FAULT_TEXT) + 1000} bytes"
    assert _outcomes(result) == [expected, expected]
    assert expected in result.reason


@pytest.mark.parametrize(
    ("book_id", "scenario", "status", "expected"),
    [
        (105, "html", "rejected", "HTML page, not a text (Content-Type 'text/html; charset=utf-8')"),
        (106, "htmlsniff", "rejected", "HTML page, not a text (body starts with <!doctype)"),
        (112, "xmlsniff", "rejected", "HTML page, not a text (body starts with <?xml)"),
        (113, "headsniff", "rejected", "HTML page, not a text (body starts with <head)"),
        (114, "utf16sniff", "rejected", "HTML page, not a text (body starts with <?xml)"),
        (115, "utf16bigsniff", "rejected", "HTML page, not a text (body starts with <head)"),
        (116, "commentsniff", "rejected", "HTML page, not a text (body starts with <html)"),
        (107, "empty", "rejected", "empty body"),
        (108, "forbidden", "failed", "http 403"),
    ],
)
def test_unusable_answers(mirror: SimpleNamespace, book_id: int, scenario: str, status: str, expected: str) -> None:
    result = fetch_book(book_id, f"{mirror.url}/fault/{scenario}", **SITE)
    assert result.status == status
    assert result.reason.endswith(expected)
    assert len(result.attempts) == 1  # neither retried nor passed on to the next template
    assert result.text is None


def test_user_agent_and_session(mirror: SimpleNamespace) -> None:
    fetch_book(2, mirror.url, **SITE)
    assert mirror.server.user_agents["/cache/epub/2/pg2.txt"] == DEFAULT_USER_AGENT
    with requests.Session() as session:
        result = fetch_book(3, mirror.url, user_agent="test-agent/1.0", session=session, **SITE)
    assert result.status == "ok" and result.user_agent == "test-agent/1.0"
    assert mirror.server.user_agents["/cache/epub/3/pg3.txt"] == "test-agent/1.0"


# --------------------------------------------------------------------------------------------
# file:// and the catalog


def test_file_url(mirror: SimpleNamespace) -> None:
    base = mirror.root.as_uri()
    result = fetch_book(1, base, **SITE)
    assert result.status == "ok" and result.text == TEXT
    assert _outcomes(result) == ["not found", "not found", "ok"]
    assert result.url == f"{base}/files/1/1-0.zip"
    assert fetch_book(9, base, **SITE).status == "unavailable"
    assert fetch_book(2, base, **SITE).encoding == "latin-1"
    assert "unsafe path" in fetch_book(4, base, **SITE).reason


def test_fetch_catalog_http_and_file(mirror: SimpleNamespace, tmp_path: Path) -> None:
    for base in (mirror.url, mirror.root.as_uri()):
        dest = tmp_path / base.split(":")[0] / "pg_catalog.csv"
        got = fetch_catalog(base, dest, **FAST)
        assert dest.read_text(encoding="utf-8") == CATALOG
        assert got.path == dest and got.n_bytes == len(CATALOG)
        assert got.sha256 == hashlib.sha256(CATALOG.encode()).hexdigest()
        assert got.url == f"{base}/cache/epub/feeds/pg_catalog.csv"
    assert mirror.server.user_agents["/cache/epub/feeds/pg_catalog.csv"] == DEFAULT_USER_AGENT


@pytest.mark.parametrize("where", ["http-missing", "file-missing", "truncated", "html", "down"])
def test_fetch_catalog_failures_leave_nothing(mirror: SimpleNamespace, tmp_path: Path, where: str) -> None:
    base = {
        "http-missing": f"{mirror.url}/nowhere",
        "file-missing": (mirror.root / "nowhere").as_uri(),
        "truncated": f"{mirror.url}/fault/truncated",
        "html": f"{mirror.url}/fault/html",
        "down": f"{mirror.url}/fault/down",
    }[where]
    dest = tmp_path / "out" / "pg_catalog.csv"
    with pytest.raises(DownloadError, match="catalog download failed") as info:
        fetch_catalog(base, dest, retries=1, **FAST)
    assert f"{base}/cache/epub/feeds/pg_catalog.csv" in str(info.value)
    assert not dest.exists()
    assert not dest.parent.exists() or list(dest.parent.iterdir()) == []


# --------------------------------------------------------------------------------------------
# Storage and provenance


def test_write_book_round_trip(mirror: SimpleNamespace, tmp_path: Path) -> None:
    result = fetch_book(1, mirror.url, **SITE)
    text_path, prov_path = tmp_path / "books/1.txt.gz", tmp_path / "books/1.json"
    write_book(result, text_path, prov_path)
    assert read_gzip_text(text_path) == TEXT
    record = read_provenance(prov_path)
    assert set(record) == set(PROVENANCE_KEYS)
    assert record["book_id"] == 1 and record["status"] == "ok"
    assert record["url"] == result.url and record["sha256"] == result.sha256
    assert record["n_bytes"] == result.n_bytes and record["encoding"] == "utf-8"
    assert record["attempts"] == result.attempts
    assert record["user_agent"] == DEFAULT_USER_AGENT
    assert record["punctstyle_version"] == __version__
    assert record["fetched_at"] == result.fetched_at
    assert record["n_chars"] == len(TEXT)
    assert record["text_sha256"] == hashlib.sha256(TEXT.encode()).hexdigest()
    assert sorted(p.name for p in text_path.parent.iterdir()) == ["1.json", "1.txt.gz"]


def test_write_book_unavailable_stores_empty_text(mirror: SimpleNamespace, tmp_path: Path) -> None:
    result = fetch_book(9, mirror.url, **SITE)
    write_book(result, tmp_path / "9.txt.gz", tmp_path / "9.json")
    assert gzip.decompress((tmp_path / "9.txt.gz").read_bytes()) == b""
    record = read_provenance(tmp_path / "9.json")
    assert record["status"] == "unavailable" and record["url"] is None and record["encoding"] is None
    assert record["reason"] == result.reason and len(record["attempts"]) == 5


def _ok_result(text: str = "Hi, there.") -> FetchResult:
    return FetchResult(
        book_id=7, status="ok", text=text, url="file:///x/7.txt", n_bytes=len(text),
        sha256=hashlib.sha256(text.encode()).hexdigest(), encoding="utf-8", reason=None,
        attempts=(("file:///x/7.txt", "ok"),), fetched_at="2024-01-01T00:00:00Z",
    )


def test_text_write_failure_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(src: object, dst: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(pio.os, "replace", refuse)
    with pytest.raises(OSError, match="disk full"):
        write_book(_ok_result(), tmp_path / "7.txt.gz", tmp_path / "7.json")
    assert list(tmp_path.iterdir()) == []


def test_provenance_write_failure_leaves_no_provenance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text_path, prov_path = tmp_path / "7.txt.gz", tmp_path / "7.json"
    write_book(_ok_result("Old text."), text_path, prov_path)  # a previous, complete run

    def half_written(path: os.PathLike[str], obj: object) -> None:
        with pio.atomic_open(path, "w", encoding="utf-8") as handle:
            handle.write('{"book_id": 7, "sta')
            raise OSError("killed mid-write")

    monkeypatch.setattr(download_provenance, "write_json_atomic", half_written)
    with pytest.raises(OSError, match="killed mid-write"):
        write_book(_ok_result("New text."), text_path, prov_path)
    assert not prov_path.exists()  # the old provenance no longer vouches for the new text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["7.txt.gz"]  # no temporary files
    assert read_gzip_text(text_path) == "New text."


def test_read_provenance_errors_name_the_file(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    write_book(_ok_result(), tmp_path / "good.txt.gz", good)
    record = json.loads(good.read_text())

    cases = {
        "missing.json": None,
        "badjson.json": "{not json",
        "list.json": "[1, 2]",
        "nokeys.json": json.dumps({k: v for k, v in record.items() if k not in ("sha256", "attempts")}),
        "badstatus.json": json.dumps({**record, "status": "done"}),
        "badattempts.json": json.dumps({**record, "attempts": [["only-a-url"]]}),
        "badid.json": json.dumps({**record, "book_id": "7"}),
        "okwithouturl.json": json.dumps({**record, "url": None}),
    }
    messages = {}
    for name, content in cases.items():
        if content is not None:
            (tmp_path / name).write_text(content)
        with pytest.raises(InputError) as info:
            read_provenance(tmp_path / name)
        message = str(info.value)
        assert str(tmp_path / name) in message and "\n" not in message
        messages[name] = message
    assert "missing key(s) sha256, attempts" in messages["nokeys.json"]
    assert "not valid JSON" in messages["badjson.json"]
    assert "'status'" in messages["badstatus.json"]


def test_write_book_refuses_inconsistent_results(tmp_path: Path) -> None:
    bad = FetchResult(1, "done", None, None, 0, None, None, None, ())
    with pytest.raises(ValueError, match="unknown status"):
        write_book(bad, tmp_path / "1.txt.gz", tmp_path / "1.json")
    assert list(tmp_path.iterdir()) == []


# --------------------------------------------------------------------------------------------
# Real data (the shared development mirror), when present


@pytest.mark.skipif(
    not (SHARED_MIRROR / "files" / "11" / "11-0.zip").is_file(),
    reason=f"the shared Gutenberg mirror is not at {SHARED_MIRROR}",
)
def test_real_mirror_book_11_via_zip_fallback(tmp_path: Path) -> None:
    with _serve(SHARED_MIRROR) as server:
        base = f"http://127.0.0.1:{server.server_address[1]}"
        result = fetch_book(11, base, **SITE)
    assert result.status == "ok", result.reason
    assert result.url == f"{base}/files/11/11-0.zip"
    assert _outcomes(result) == ["http 404", "http 404", "ok"]
    assert result.encoding == "utf-8"
    assert "*** START OF" in result.text and "*** END OF" in result.text
    raw = (SHARED_MIRROR / "files/11/11-0.zip").read_bytes()
    assert result.sha256 == hashlib.sha256(raw).hexdigest()
    write_book(result, tmp_path / "11.txt.gz", tmp_path / "11.json")
    assert read_provenance(tmp_path / "11.json")["sha256"] == result.sha256


COMMENTED_PAGES = [
    b"<!-- cache error -->\n<html><body>Service unavailable</body></html>",
    b"\xef\xbb\xbf  <!--a--><!-- b\n c -->\r\n<!DOCTYPE html><p>Gone</p>",
    "<!-- x -->\n<head><title>Moved</title></head>".encode("utf-16"),
]


@pytest.mark.parametrize("page", COMMENTED_PAGES)
def test_an_html_page_opening_with_comments_is_refused_by_download_and_cli(capsys, tmp_path, page):
    """Issue 33: comments before the markup do not hide an HTML page (one shared check, so the
    command line refuses it as the download route does)."""
    from punctstyle import cli
    from punctstyle.sources.decoding import html_start

    assert html_start(page) in ("<html", "<!doctype", "<head")
    with pytest.raises(Exception, match="HTML page, not a text"):
        from punctstyle.sources.decoding import _text_from_body

        _text_from_body(page, "http://mirror/1.txt", "text/plain", 1 << 20)
    path = tmp_path / "page.txt"
    path.write_bytes(page)
    code = cli.main(["extract", str(path)])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert "an HTML page, not a text (starts with <" in captured.err


@pytest.mark.parametrize("text", [b"<!-- a note -->\nIt was a dark night, he said.", b"<!-- never closed\n<html>"])
def test_a_text_with_a_comment_but_no_markup_after_it_is_kept(text):
    from punctstyle.sources.decoding import html_start

    assert html_start(text) is None
