"""From downloaded bytes to text: zip safety, encodings, HTML sniffing.

(Split from the former download.py.)"""

from __future__ import annotations

import io
import zipfile
import zlib
from pathlib import PurePosixPath
from urllib.parse import urlparse

from punctstyle.sources.transport import _CHUNK, _one_line, _Rejected

__all__ = [
    "decode_text",
]
ENCODINGS: tuple[str, ...] = ("utf-8", "latin-1", "utf-16")
"""Source encodings a provenance may record (the stored text is always UTF-8): a mirror gives
UTF-8 or Latin-1, a folder corpus (:mod:`punctstyle.sources.folder`) also UTF-16 with its BOM."""
_UTF8_BOM = b"\xef\xbb\xbf"
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
_HTML_STARTS = (b"<!doctype", b"<html", b"<?xml", b"<head", b"<body")
_ZIP_MAGIC = b"PK\x03\x04"
_HTML_TYPES = ("text/html", "application/xhtml+xml")


# --------------------------------------------------------------------------------------------
# Content checks


def html_start(data: bytes) -> str | None:
    """The markup an HTML or XML page starts with (``<!doctype``, ``<html``, ``<?xml``,
    ``<head``, ``<body``), after whitespace, a UTF-8 or UTF-16 byte-order mark and any complete
    ``<!-- ... -->`` comments (within the first 1,024 bytes); else None.

    The one check of "this is a web page, not a text": the download route and the command
    line (:func:`punctstyle.cli.read_text`) both refuse what it flags."""
    head = data[:1024]
    if head.startswith(_UTF8_BOM):
        head = head[len(_UTF8_BOM) :]
    elif head.startswith(_UTF16_BOMS):
        head = head[: len(head) // 2 * 2].decode("utf-16", errors="replace").encode("ascii", errors="replace")
    head = head.lstrip().lower()
    while head.startswith(b"<!--") and (end := head.find(b"-->", 4)) != -1:
        head = head[end + 3 :].lstrip()  # comments before the markup (a cache's error page)
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
