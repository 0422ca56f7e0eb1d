"""Cleaning a Project Gutenberg text before extraction (section 2.1 of the paper).

Steps, in order (:func:`clean_text`):

1. strip the Project Gutenberg header and licence footer with gutenbergpy's
   ``strip_headers`` (:func:`strip_headers`: its result, computed faster) when the text has the
   ``*** START OF`` / ``*** END OF`` markers (with or without the space: 158 of the
   development mirror's 1,027 texts write ``***START OF``);
2. normalise line endings to ``\\n``;
3. the paper's repairs:

   * quotation marks written as unicode or typewriter variants become ASCII: the double
     quotes ``“ ” „ ‟ « »`` and the LaTeX-style pairs ````` and ``''`` become ``"``; the single
     quotes ``‘ ’ ‚ ‛`` become ``'`` (so that ``don’t`` tokenises like ``don't``);
   * a missing space between a word and a punctuation mark: dashes (``—``, ``–``, ``--``)
     glue words and marks together (``said—‘no’—(maybe``), so they are surrounded with
     spaces; a comma, semicolon, colon, question or exclamation mark directly followed by a
     letter or a quotation mark (``said:"Hi``, ``yes;no``) gets a space after it (digits are
     left alone: ``5:30``, ``1,000``);
   * spaced periods ``. . .`` (three or more) are an ellipsis written with spaces: they
     become ``...``.

Everything else is left to the tokenizer, which stays the definition of marks and words.

Long texts are cleaned in pieces (:func:`clean_pieces`), each cut just after a line break
between two characters that are neither whitespace nor dashes: no repair pattern spans such
a line break or looks across it, so the cleaned pieces joined are :func:`clean_text`, and the
cut (after a lone ``\\n``) is one where extraction may cut too
(:func:`punctstyle.text.chunk_cache.text_pieces`). Memory then holds the text once, not its copies.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import re
from collections.abc import Iterator
from functools import lru_cache

GUTENBERGPY_MARKER_SETS = ("TEXT_START_MARKERS", "TEXT_END_MARKERS", "LEGALESE_START_MARKERS", "LEGALESE_END_MARKERS")
"""The marker sets of ``gutenbergpy.textget`` that its ``strip_headers`` reads."""


@lru_cache(maxsize=1)
def gutenbergpy_markers() -> dict[str, tuple[bytes, ...]]:
    """The installed gutenbergpy's marker sets (:data:`GUTENBERGPY_MARKER_SETS`), UTF-8 encoded,
    read from ``gutenbergpy/textget.py``'s source without importing the module: it imports
    chardet, ``http.client`` and ``urllib.request`` for its own downloads, about 0.05 CPU s of every
    extraction job (docs/performance.md, "A book's CPU"). Each set is a ``frozenset((...))`` of
    string literals there; a module written otherwise is imported as usual."""
    try:
        spec = importlib.util.find_spec("gutenbergpy.textget")
        tree = ast.parse(spec.loader.get_source(spec.name), spec.origin)
        found = {
            node.targets[0].id: ast.literal_eval(node.value.args[0])
            for node in tree.body
            if isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and getattr(node.targets[0], "id", None) in GUTENBERGPY_MARKER_SETS
            and isinstance(node.value, ast.Call)
            and getattr(node.value.func, "id", None) == "frozenset"
            and len(node.value.args) == 1
        }
        if set(found) != set(GUTENBERGPY_MARKER_SETS):
            raise LookupError(f"marker sets not found as literals: {set(GUTENBERGPY_MARKER_SETS) - set(found)}")
    except Exception:  # noqa: BLE001 - any surprise: the module itself, always right
        import gutenbergpy.textget as textget

        found = {name: getattr(textget, name) for name in GUTENBERGPY_MARKER_SETS}
    return {name: tuple(sorted(marker.encode("utf-8") for marker in found[name])) for name in GUTENBERGPY_MARKER_SETS}


def strip_headers(text: bytes) -> bytes:
    """gutenbergpy's ``strip_headers`` (``gutenbergpy.textget``, from c-w/Gutenberg), line for
    line the same result, with its marker sets (:func:`gutenbergpy_markers`) encoded once and
    matched by one ``bytes.startswith`` per line and set: gutenbergpy encodes every marker again
    for every line, 0.07 CPU s for a typical book against 0.006 here (a unit test compares the
    two; all 1,027 texts of the development mirror give the same bytes).

    The text's lines (``bytes.splitlines``) up to the last start marker among its first 600
    kept lines are dropped; from its 100th kept line on, an end marker ends the text; lines
    between a legalese start and end marker (and those markers) are dropped; the kept lines
    lose trailing ``os.linesep`` characters and are joined by ``os.linesep``."""
    markers = gutenbergpy_markers()
    start, end = markers["TEXT_START_MARKERS"], markers["TEXT_END_MARKERS"]
    legalese_start, legalese_end = markers["LEGALESE_START_MARKERS"], markers["LEGALESE_END_MARKERS"]
    sep = os.linesep.encode("utf-8")
    out: list[bytes] = []
    kept = 0
    ignore_section = False
    for line in text.splitlines():
        if kept <= 600 and line.startswith(start):
            out = []
            continue
        if kept >= 100 and line.startswith(end):
            break
        if line.startswith(legalese_start):
            ignore_section = True
            continue
        if line.startswith(legalese_end):
            ignore_section = False
            continue
        if not ignore_section:
            out.append(line.rstrip(sep))
            kept += 1
    return sep.join(out)


START_MARKER = re.compile(r"\*\*\*[ \t]*START OF")
END_MARKER = re.compile(r"\*\*\*[ \t]*END OF")
"""Project Gutenberg's markers ``*** START OF`` / ``*** END OF``, also spelled ``***START OF`` /
``***END OF``."""
_END_MARKER_LINE = re.compile(r"\n\*\*\*[ \t]*END OF")

_DOUBLE_QUOTES = re.compile("[“”„‟«»]|``|''")
_SINGLE_QUOTES = re.compile("[‘’‚‛]")
_DASHES = re.compile(r"[\s—–-](?:(?<=\s)\s*(?:—|–|-{2,})|(?<=[—–])|(?<=-)-+)\s*")
r"""A dash (``—``, ``–`` or two hyphens or more) with the whitespace around it: the matches of
``\s*(?:—|–|-{2,})\s*``, written to start with a character class (whitespace or a dash) so
that ``re`` skips to the candidates instead of trying ``\s*`` at every character (a quarter
less CPU; ``tests/unit/test_clean_pieces.py`` checks the matches against that pattern)."""
_GLUED_MARK = re.compile(r"([,;:?!])(?<=[^\W\d_][,;:?!])(?=[^\W\d_]|[\"'])")
r"""A comma, semicolon, colon, question or exclamation mark after a letter and before a letter
or a quotation mark (group 1: the mark): the matches of
``(?<=[^\W\d_])([,;:?!])(?=[^\W\d_]|[\"'])``, written to start with the mark so that ``re``
skips to the marks instead of trying the look-behind at every character (a fifth of the
CPU; checked against that pattern by the same test)."""
_SPACED_PERIODS = re.compile(r"\.(?: \.){2,}")
_PIECE_CUT = re.compile(r"[^\s\-—–](?:\r\n?|\n)(?=[^\s\-—–])")
"""A line break (``\\r\\n``, ``\\r`` or ``\\n``) between two characters that are neither
whitespace nor dashes: no cleaning pattern (dashes with their surrounding whitespace, glued
marks with their one-character look-arounds, quote pairs, spaced periods) spans it."""


def has_gutenberg_markers(text: str) -> bool:
    """True when the text carries Project Gutenberg's start and end markers
    (:data:`START_MARKER`, :data:`END_MARKER`)."""
    return START_MARKER.search(text) is not None and END_MARKER.search(text) is not None


def strip_gutenberg_header(text: str) -> str:
    """Remove the Project Gutenberg header and licence footer (gutenbergpy ``strip_headers``).

    Texts without the ``*** START OF`` / ``*** END OF`` markers (or ``***START OF`` /
    ``***END OF``) are returned unchanged.
    """
    if not has_gutenberg_markers(text):
        return text
    stripped = strip_headers(text.encode("utf-8")).decode("utf-8")
    # strip_headers looks for the footer only after 100 lines of text: cut a short text's
    # footer at its end marker too.
    end = _END_MARKER_LINE.search(stripped)
    return stripped if end is None else stripped[: end.start()]


def normalise_line_endings(text: str) -> str:
    """``\\r\\n`` and lone ``\\r`` -> ``\\n``."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def normalise_quotes(text: str) -> str:
    """Unicode and typewriter quotation-mark variants -> ASCII ``"`` and ``'``."""
    text = _DOUBLE_QUOTES.sub('"', text)
    return _SINGLE_QUOTES.sub("'", text)


def repair_missing_spaces(text: str) -> str:
    """Put spaces where words and marks are glued together (see the module docstring)."""
    text = _DASHES.sub(" — ", text)
    text = _GLUED_MARK.sub(r"\1 ", text)
    return _SPACED_PERIODS.sub("...", text)


def clean_text(text: str) -> str:
    """Header/footer stripping, line endings, then the paper's repairs (module docstring)."""
    text = normalise_line_endings(text)
    text = strip_gutenberg_header(text)
    text = normalise_line_endings(text)
    text = normalise_quotes(text)
    return repair_missing_spaces(text)


def raw_pieces(text: str, piece_chars: int) -> Iterator[str]:
    """``text`` cut into pieces of at least ``piece_chars`` characters (the last may be
    shorter), each cut just after the first line break of :data:`_PIECE_CUT` past the piece
    length (a text with none after that point stays one piece)."""
    start = 0
    while len(text) - start > piece_chars:
        cut = _PIECE_CUT.search(text, start + piece_chars)
        if cut is None:
            break
        yield text[start : cut.end()]
        start = cut.end()
    yield text[start:] if start else text


def clean_pieces(text: str, piece_chars: int) -> Iterator[str]:
    """:func:`clean_text` in consecutive pieces of about ``piece_chars`` characters:
    ``"".join(clean_pieces(text, n)) == clean_text(text)`` for every ``n``, and each piece
    but the last ends with ``\\n`` followed by a character that is not whitespace.

    A text with Project Gutenberg markers is stripped whole first (gutenbergpy works on
    the whole text); the repairs, the costly copies, always run piece by piece."""
    if has_gutenberg_markers(text):
        text = strip_gutenberg_header(normalise_line_endings(text))
    for piece in raw_pieces(text, piece_chars):
        yield repair_missing_spaces(normalise_quotes(normalise_line_endings(piece)))
