"""A downloaded book's provenance record (books/{id}.json), written and read here.

(Split from the former download.py.)"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from punctstyle import __version__
from punctstyle.io import InputError, write_gzip_text_atomic, write_json_atomic
from punctstyle.sources.decoding import ENCODINGS
from punctstyle.sources.download import STATUSES, FetchResult, _utc_now
from punctstyle.sources.transport import _one_line

__all__ = [
    "PROVENANCE_KEYS",
    "provenance_record",
    "read_provenance",
    "write_book",
]

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
