"""One text in, its marks and features out: reading, the refusals, extraction.

The command line and the app call these, so a text is refused with the same one-line message
everywhere. Every refusal is an :class:`punctstyle.io.InputError` (the CLI prints it and exits
with status 2); its subclass says which refusal it is, for callers that want to tell them apart:

=====================  ===============================================================
:class:`EmptyText`      nothing but white space
:class:`NoMarks`        no punctuation mark at all
:class:`TooLarge`       more bytes than the reading limit (``--max-mb``)
:class:`HtmlText`       an HTML or XML page (the download route's check)
:class:`BinaryText`     binary content (NUL characters after decoding)
:class:`ManyBooks`      several Project Gutenberg books in one text (a start marker after an end marker)
=====================  ===============================================================

A text handed to the API that is not a ``str`` (``None``, bytes, a path, a list) raises
:class:`TypeError` naming the argument and the accepted type.

Nothing here imports torch or spaCy (the shipped tokenizer rules spare spaCy).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from typing import Any

from punctstyle.book.steps import clean_and_extract
from punctstyle.features import compute_features
from punctstyle.io import InputError
from punctstyle.marks import MARKS
from punctstyle.sources.decoding import html_start
from punctstyle.sources.folder import decode_document
from punctstyle.text.clean import END_MARKER, START_MARKER
from punctstyle.text.chunk_cache import ChunkCachedExtractor

READ_CHUNK = 1024 * 1024
MEGABYTE = 1024 * 1024
TEXT_NAME = "<text>"
"""The name a refusal gives a text handed over as a string."""


class TextRefused(InputError):
    """A text that cannot be read, extracted or attributed (one line naming it)."""


class EmptyText(TextRefused):
    """Nothing but white space."""


class NoMarks(TextRefused):
    """Not one punctuation mark."""


class TooLarge(TextRefused):
    """More bytes than the reading limit."""


class HtmlText(TextRefused):
    """An HTML or XML page, not a plain text."""


class BinaryText(TextRefused):
    """Binary content (NUL characters)."""


class ManyBooks(TextRefused):
    """Several Project Gutenberg books in one text: cleaning would keep only the first."""


def too_large(name: str, max_bytes: int, hint: str = "raise it with --max-mb") -> TooLarge:
    """The refusal of an input larger than ``max_bytes``."""
    return TooLarge(f"{name}: larger than {max_bytes / MEGABYTE:.4g} MB, the most this command reads ({hint})")


def read_bounded(handle: Any, name: str, max_bytes: int) -> bytearray:
    """At most ``max_bytes`` bytes of ``handle``, read in chunks; one more byte is refused."""
    data = bytearray()
    while len(data) <= max_bytes:
        chunk = handle.read(min(READ_CHUNK, max_bytes + 1 - len(data)))
        if not chunk:
            return data
        data += chunk
    raise too_large(name, max_bytes)


def read_text(path: str, max_bytes: int) -> str:
    """The text of ``path`` (``-``: standard input), decoded by :func:`decoded_text`.

    Reads at most ``max_bytes`` bytes (chunk by chunk, so a device such as ``/dev/zero``
    costs bounded memory). Raises :class:`InputError` with a one-line message naming the file.
    """
    name = "<stdin>" if path == "-" else path
    return decoded_text(name, read_input_bytes(path, max_bytes))


def read_input_bytes(path: str, max_bytes: int) -> bytes:
    """The bytes of ``path`` (``-``: standard input), at most ``max_bytes`` (:func:`read_bounded`);
    a missing, unreadable or too large file raises :class:`InputError` naming it."""
    name = "<stdin>" if path == "-" else path
    try:
        if path == "-":
            data = read_bounded(sys.stdin.buffer, name, max_bytes)
        else:
            with open(path, "rb") as handle:
                data = read_bounded(handle, name, max_bytes)
    except FileNotFoundError:
        raise InputError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{name}: is a folder, not a text file") from None
    except PermissionError:
        raise InputError(f"{name}: cannot read the file (permission denied)") from None
    except OSError as exc:
        raise InputError(f"{name}: cannot read the file ({exc.strerror or exc})") from None
    return bytes(data)


TEI_START = re.compile(
    r"\A\s*(?:<\?xml[^>]*\?>\s*)?(?:(?:<!--.*?-->|<\?.*?\?>|<!DOCTYPE[^>\[]*(?:\[.*?\])?\s*>)\s*)*"
    r"<(?:[A-Za-z_][\w.-]*:)?TEI[\s/>]",
    re.DOTALL,
)
"""A TEI file's start: an XML declaration, comments, processing instructions or a doctype, then
the root element ``TEI`` (any namespace prefix)."""


@dataclass(frozen=True)
class Document:
    """A text to attribute, verify or roll over: its ``text`` (a TEI file's body, as the TEI
    source reads it) and ``language``, the TEI header's (spaCy's code; ``""`` for a plain text or
    a header without one)."""

    text: str
    language: str = ""
    tei: bool = False


def is_tei(data: bytes) -> bool:
    """Whether ``data`` starts as a TEI file does (:data:`TEI_START`, on its first 64 kB decoded
    as a folder corpus decodes a document)."""
    head, _ = decode_document(data[:65536])
    return TEI_START.match(head.lstrip("\ufeff")) is not None


def tei_document(name: str, data: bytes) -> Document:
    """A TEI file's body (``<body>`` without notes: :func:`punctstyle.sources.tei.parse_tei`, the
    TEI source's own function) and its header's language; a refused file (not well-formed,
    entities, no body, ...) raises :class:`TextRefused` with the TEI source's reason."""
    from punctstyle.sources.tei import TeiRefusal, parse_tei

    try:
        parsed = parse_tei(data)
    except TeiRefusal as exc:
        raise TextRefused(f"{name}: {exc}") from None
    return Document(parsed.text, str(parsed.metadata.get("language") or ""), tei=True)


def document_of(name: str, data: bytes) -> Document:
    """A file's bytes as a :class:`Document`: a TEI file (:func:`is_tei`) by
    :func:`tei_document`, anything else by :func:`decoded_text` (its refusals)."""
    if is_tei(data):
        return tei_document(name, data)
    return Document(decoded_text(name, data))


def read_document(path: str, max_bytes: int) -> Document:
    """:func:`read_text`'s reading (``-``: standard input, at most ``max_bytes``), then
    :func:`document_of`: a TEI file gives its body and header language."""
    name = "<stdin>" if path == "-" else path
    return document_of(name, read_input_bytes(path, max_bytes))


def checked_document(text: Any, name: str = TEXT_NAME) -> Document:
    """A text handed over as a string: a TEI file's content (:func:`is_tei`) gives its body and
    header language, anything else is :func:`checked_text`."""
    if isinstance(text, str) and TEI_START.match(text[:65536]):
        return tei_document(name, text.encode("utf-8"))
    return Document(checked_text(text, name))


def decoded_text(name: str, data: bytes) -> str:
    """The text of a file's bytes, decoded as a folder corpus decodes its documents
    (:func:`punctstyle.sources.folder.decode_document`: a UTF-8 or UTF-16 byte-order mark
    decides, else UTF-8, else Latin-1). Refused: an HTML or XML page (:class:`HtmlText`, the
    download route's check, :func:`punctstyle.sources.decoding.html_start`) and binary content
    (:class:`BinaryText`, NUL characters after decoding)."""

    if (tag := html_start(data)) is not None:
        raise HtmlText(f"{name}: an HTML page, not a text (starts with {tag})")
    text, _ = decode_document(data)
    if "\x00" in text:
        raise BinaryText(f"{name}: not a plain text file (binary content, NUL bytes)")
    return one_book(name, text)


def one_book(name: str, text: str) -> str:
    """``text`` unless it holds several Project Gutenberg books (a ``*** START OF`` line after an
    ``*** END OF`` line): cleaning keeps the text between the first start and end markers, so the
    other books would be dropped without a word (:class:`ManyBooks`). A book whose header repeats
    its start line (ebook 148) is one book."""
    books = gutenberg_books(text)
    if books > 1:
        raise ManyBooks(f"{name}: {books} Project Gutenberg books in one text (a '*** START OF' line after an "
                        "'*** END OF' line); only the first would be read: give one book at a time")
    return text


def gutenberg_books(text: str) -> int:
    """1 + the number of times a start marker follows an end marker (0 start markers: 1)."""
    events = sorted([(m.start(), "start") for m in START_MARKER.finditer(text)]
                    + [(m.start(), "end") for m in END_MARKER.finditer(text)])
    kinds = [kind for _, kind in events]
    return 1 + sum(1 for before, after in zip(kinds, kinds[1:]) if (before, after) == ("end", "start"))


def checked_text(text: Any, name: str = TEXT_NAME) -> str:
    """A text handed over as a string, refused as a file's bytes would be (HTML, NUL bytes,
    several Gutenberg books); anything but a ``str`` raises :class:`TypeError` naming ``text``."""
    if not isinstance(text, str):
        raise TypeError(f"text: expected a str (the text itself; read a file with punctstyle.api.read_text(path, "
                        f"max_bytes)), got {type(text).__name__}")
    if "\x00" in text:
        raise BinaryText(f"{name}: not a plain text file (binary content, NUL bytes)")
    if (tag := html_start(text[:4096].encode("utf-8", "replace"))) is not None:
        raise HtmlText(f"{name}: an HTML page, not a text (starts with {tag})")
    return one_book(name, text)


def sequence_of_text(text: str) -> Any:
    """Clean a text (Gutenberg header/footer, the paper's repairs) and extract its marks, piece
    by piece as the workflow's extraction does (bounded memory, same output as whole-text
    cleaning and extraction). An empty or mark-less text gives the empty sequence."""

    return clean_and_extract(text, ChunkCachedExtractor())[0]


def sequence_with_marks(name: str, text: str, purpose: str = "attribute") -> Any:
    """The marks of a text to attribute (or to compute features of); an empty text raises
    :class:`EmptyText`, a mark-less one :class:`NoMarks` ("nothing to <purpose>")."""
    if not text.strip():
        raise EmptyText(f"{name}: empty text, nothing to {purpose}")
    sequence = sequence_of_text(text)
    if len(sequence) == 0:
        raise NoMarks(f"{name}: no punctuation mark in the text, nothing to {purpose}")
    return sequence


def sequence_and_words(name: str, text: str, purpose: str = "attribute",
                       extractor: ChunkCachedExtractor | None = None) -> tuple[Any, list[str]]:
    """:func:`sequence_with_marks` and the text's word stream (word ``j`` of the gap stream,
    lower-cased, as the workflow's extraction keeps them:
    :func:`punctstyle.corpus.words.book_word_stream`), for the bundle's word methods;
    ``extractor``: the language's (default: the paper's English rules)."""
    from punctstyle.corpus.words import book_word_stream

    if not text.strip():
        raise EmptyText(f"{name}: empty text, nothing to {purpose}")
    sequence, stream = book_word_stream(text, extractor or ChunkCachedExtractor())
    if len(sequence) == 0:
        raise NoMarks(f"{name}: no punctuation mark in the text, nothing to {purpose}")
    return sequence, stream


def extract(text: str, name: str = TEXT_NAME) -> Any:
    """The punctuation sequence of ``text``: ``.marks`` (codes 0..9, :data:`punctstyle.marks.MARKS`),
    ``.gaps`` (words before each mark), ``.n_words``. An empty or mark-less text gives the empty
    sequence; HTML and binary text are refused."""
    return sequence_of_text(checked_text(text, name))


def features(text: str, name: str = TEXT_NAME) -> dict[str, Any]:
    """Every punctuation feature of ``text`` (``{"f1": array(10), "f3": array(100), ...}``,
    :func:`punctstyle.features.compute_features`); empty and mark-less texts are refused."""
    sequence = sequence_with_marks(name, checked_text(text, name), purpose="compute features of")
    return compute_features(sequence.marks, sequence.gaps)


def extraction_json(sequence: Any) -> dict[str, list]:
    """``{"marks": [mark strings], "gaps": [ints]}``."""

    return {
        "marks": [MARKS[int(code)] for code in sequence.marks],
        "gaps": [int(gap) for gap in sequence.gaps],
    }


def features_json(sequence: Any) -> dict[str, list[float]]:
    """``{"f1": [...], ..., "f6": [...]}`` (flattened row-major as in the corpus tables)."""

    values = compute_features(sequence.marks, sequence.gaps)
    return {name: [float(v) for v in vector] for name, vector in values.items()}
