"""Where each mark ends in the input text, in characters, so that rolling attribution's changes
and segments (:mod:`punctstyle.attribution.rolling`, in marks) can be given in characters of the
text the user handed over.

Extraction reads a cleaned text (:func:`punctstyle.text.clean.clean_pieces`: the Project
Gutenberg header and footer stripped, line endings, quotes, dashes, glued marks and spaced
periods repaired). The cleaning is replayed here on the text while every character of the
cleaned text keeps ``e_i``, the end (exclusive offset) in the input of the input characters it
comes from:

* a character left as it is: its own offset + 1;
* a match ``[a, b)`` replaced by ``r`` characters: character ``j`` (0-based) of the replacement
  ends at ``e[a + ceil((j + 1)(b - a) / r) - 1]`` (the replacement spread evenly over the match:
  ``''`` -> ``"`` ends after both quotes, ``. . .`` -> ``...`` after the last period);
* the header and footer: the lines ``strip_headers`` keeps, each with its input line's offsets
  (the input lines are tagged with their number where ``strip_headers`` cannot see it, at the
  line's end).

The replayed cleaning must give the cleaned text itself (checked: a mismatch raises
ValueError). Each mark's token is then found in the cleaned text: the whitespace-separated
chunks in order, each split into its tokens by the extraction's tokenizer rules
(:class:`punctstyle.text.tokenizer.RuleTokenizer` on the chunk alone, special cases such as the
emoticon ``;)`` included; tokens of a chunk are consecutive pieces of it), classified as extraction classifies them
(:func:`punctstyle.text.extract.classify_token`). ``mark_ends(text)[k]`` is ``e`` of the last
character of mark ``k``'s token.

A change of hand before mark ``k`` (``0 < k < n``) is at character ``mark_ends[k - 1]``: the
words before mark ``k`` belong to the new segment (as its slices count them,
:func:`punctstyle.attribution.rolling.slice_word_spans`); a change at ``p`` marks (a real
number, :func:`punctstyle.attribution.rolling.change_positions`) is before mark
``k = ceil(p)``; the first segment starts at character 0, the last ends at the text's length.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from punctstyle.marks import QUOTE_CHARACTERS
from punctstyle.text import clean
from punctstyle.text.extract import OTHER, WORD, classify_token

MARK_CHARACTERS = "".join(sorted(set(QUOTE_CHARACTERS) | set("!(),.:;?\u2026")))
"""Every character a mark's token can hold (:func:`punctstyle.text.extract.classify_token`): the
quotation characters, the ellipsis, and ``! ( ) , . : ; ?``."""
_MARK_CHUNK = re.compile(rf"(?<!\S)\S*[{re.escape(MARK_CHARACTERS)}]\S*")
"""A whitespace-separated chunk with at least one of :data:`MARK_CHARACTERS` (no other chunk
holds a mark)."""

_TAG = "\x00"
"""Appended with a line's number to each line before ``strip_headers`` (NUL is refused in texts,
:func:`punctstyle.api.text.decoded_text`, so it cannot occur in one)."""


def replaced(text: str, ends: np.ndarray, pattern: re.Pattern[str],
             replacement: str | Callable[[re.Match[str]], str]) -> tuple[str, np.ndarray]:
    """``pattern.sub(replacement, text)`` and the input ends of its characters (module
    docstring: a match ``[a, b)`` replaced by ``r`` characters, character ``j`` ends at
    ``ends[a + ceil((j + 1)(b - a) / r) - 1]``)."""
    pieces: list[str] = []
    index: list[np.ndarray] = []
    at = 0
    for match in pattern.finditer(text):
        a, b = match.span()
        new = replacement(match) if callable(replacement) else match.expand(replacement)
        pieces.append(text[at:a])
        index.append(np.arange(at, a))
        r = len(new)
        if r:
            j = np.arange(r)
            source = a + np.ceil((j + 1) * (b - a) / r).astype(np.int64) - 1
            index.append(source if b > a else np.full(r, a - 1))
        pieces.append(new)
        at = b
    pieces.append(text[at:])
    index.append(np.arange(at, len(text)))
    positions = np.concatenate(index).astype(np.int64)
    lookup = np.concatenate([[0], ends])  # position -1 (before the text) ends at 0
    return "".join(pieces), lookup[positions + 1]


def _line_endings(text: str, ends: np.ndarray) -> tuple[str, np.ndarray]:
    """:func:`punctstyle.text.clean.normalise_line_endings` with the ends."""
    return replaced(text, ends, re.compile(r"\r\n?"), "\n")


def _stripped(text: str, ends: np.ndarray) -> tuple[str, np.ndarray]:
    """:func:`punctstyle.text.clean.strip_gutenberg_header` with the ends: the input's lines are
    tagged with their number at their end, stripped, and each kept line takes its input line's
    ends (and the line break after it, the ends of the input's line break or its last character)."""
    if not clean.has_gutenberg_markers(text):
        return text, ends
    lines = text.split("\n")
    starts = np.concatenate([[0], np.cumsum([len(line) + 1 for line in lines])])
    tagged = "\n".join(f"{line}{_TAG}{k}" for k, line in enumerate(lines))
    kept = clean.strip_gutenberg_header(tagged).split("\n")
    out_text: list[str] = []
    out_ends: list[np.ndarray] = []
    for piece in kept:
        line, _, number = piece.rpartition(_TAG)
        k = int(number)
        out_text.append(line)
        out_ends.append(ends[starts[k] : starts[k] + len(line)])
        out_ends.append(ends[min(starts[k] + len(line), len(text) - 1)][None] if len(text) else np.zeros(1, np.int64))
    joined = "\n".join(out_text)
    result = np.concatenate(out_ends)[: len(joined)] if out_ends else np.zeros(0, np.int64)
    expected = clean.strip_gutenberg_header(text)
    if joined != expected:  # strip_headers drops a last empty line the tags keep
        if not joined.startswith(expected):
            raise ValueError("the header and footer stripping could not be replayed")
        joined, result = expected, result[: len(expected)]
    return joined, result


def cleaned_with_ends(text: str, normalise: Callable[[str], str] = lambda t: t) -> tuple[str, np.ndarray]:
    """The cleaned text extraction reads (``"".join(clean_pieces(normalise(text)))``) and each of
    its characters' end in ``text`` (module docstring). ``normalise`` (the extractor's mapping of
    a language's marks) must leave ``text`` as it is: the character offsets of other languages'
    mark mappings are not replayed (ValueError)."""
    if normalise(text) != text:
        raise ValueError("character offsets are replayed for texts the language mapping leaves as they are")
    ends = np.arange(1, len(text) + 1, dtype=np.int64)
    if clean.has_gutenberg_markers(text):
        text, ends = _stripped(*_line_endings(text, ends))
    text, ends = _line_endings(text, ends)
    text, ends = replaced(text, ends, clean._DOUBLE_QUOTES, '"')
    text, ends = replaced(text, ends, clean._SINGLE_QUOTES, "'")
    text, ends = replaced(text, ends, clean._DASHES, " — ")
    text, ends = replaced(text, ends, clean._GLUED_MARK, r"\1 ")
    text, ends = replaced(text, ends, clean._SPACED_PERIODS, "...")
    return text, ends


def mark_token_ends(cleaned: str, chunk_tokens: Callable[[str], Sequence[str]]) -> tuple[np.ndarray, np.ndarray]:
    """(mark codes, end offset in ``cleaned`` of each mark's token): every whitespace-separated
    chunk split by ``chunk_tokens`` (the tokens of one chunk, consecutive pieces of it), each
    token classified by :func:`punctstyle.text.extract.classify_token`; a distinct chunk is
    split once, and only chunks with one of :data:`MARK_CHARACTERS` are split."""
    seen: dict[str, tuple[list[int], list[int]]] = {}
    codes: list[int] = []
    ends: list[int] = []
    for match in _MARK_CHUNK.finditer(cleaned):
        chunk = match.group()
        if chunk not in seen:
            chunk_codes, chunk_ends, at = [], [], 0
            for token in chunk_tokens(chunk):
                at += len(token)
                kind = classify_token(token)
                if kind not in (WORD, OTHER):
                    chunk_codes.append(kind)
                    chunk_ends.append(at)
            seen[chunk] = (chunk_codes, chunk_ends)
        chunk_codes, chunk_ends = seen[chunk]
        codes.extend(chunk_codes)
        ends.extend(match.start() + e for e in chunk_ends)
    return np.asarray(codes, dtype=np.int64), np.asarray(ends, dtype=np.int64)


def mark_ends(text: str, marks: np.ndarray, extractor: Any) -> np.ndarray | None:
    """The end in ``text`` (characters) of each of its extracted ``marks`` (module docstring),
    ``extractor`` the :class:`punctstyle.text.chunk_cache.ChunkCachedExtractor` that extracted
    them; None where the offsets cannot be replayed (a language whose marks are mapped, or mark
    tokens that differ from ``marks``, as when a special case spans two chunks)."""
    from punctstyle.text.tokenizer import RuleTokenizer

    try:
        cleaned, ends = cleaned_with_ends(text, extractor.normalise)
    except ValueError:
        return None
    if cleaned != "".join(clean.clean_pieces(text, extractor.piece_chars)):
        return None
    codes, token_ends = mark_token_ends(cleaned, RuleTokenizer(extractor.rules))
    if not np.array_equal(codes, np.asarray(marks, dtype=np.int64)):
        return None
    return ends[token_ends - 1] if token_ends.size else np.zeros(0, np.int64)


def change_characters(change_marks: Sequence[float], ends: np.ndarray) -> np.ndarray:
    """The character of each change at ``p`` marks: ``ends[ceil(p) - 1]`` (module docstring;
    ``ceil(p)`` clipped to ``1 .. n - 1``)."""
    n = len(ends)
    k = np.clip(np.ceil(np.asarray(change_marks, dtype=np.float64)).astype(np.int64), 1, max(1, n - 1))
    return np.asarray(ends, dtype=np.int64)[k - 1] if len(change_marks) else np.zeros(0, np.int64)


def segment_characters(change_chars: Sequence[int], n_chars: int) -> list[tuple[int, int]]:
    """``(start_char, end_char)`` of each segment: from 0 or a change to the next change or
    ``n_chars`` (the input's length)."""
    edges = [0, *(int(c) for c in change_chars), int(n_chars)]
    return list(zip(edges[:-1], edges[1:], strict=True))


__all__ = ["change_characters", "cleaned_with_ends", "mark_ends", "mark_token_ends", "replaced",
           "segment_characters"]

