"""Text -> punctuation sequence and word gaps (section 2.2 of the paper).

The definition (spaCy's English tokenizer, ``spacy.blank("en")``, no model):

* a token made only of quotation characters (``" ' “ ” ‘ ’ „ « »`` and the backtick) is one
  quotation mark ``"``;
* ``…`` or a token of three or more periods is an ellipsis ``...``;
* a token equal to one of ``! ( ) , . : ; ?`` is that mark;
* any other token with at least one letter or digit is a word (``don't`` -> ``do`` ``n't``:
  two words; ``Mr.`` is a word and emits no period);
* anything else (dashes, ``$``, ``*``, ``&``, whitespace) is neither.

Output: the mark codes ``theta_1..theta_n`` (:mod:`punctstyle.marks` order) and the gaps
``w_0..w_{n-1}``, where ``w_0`` is the number of words before the first mark and ``w_l``
the number of words between marks ``l`` and ``l+1``; words after the last mark are dropped.

Two implementations give identical output:

* :func:`extract_with_spacy` tokenises the whole text: the reference definition;
* :class:`ChunkCachedExtractor` (the default) classifies each distinct whitespace-separated
  chunk once and reuses the result, so a book costs one dictionary lookup per chunk and a
  few vectorised numpy passes. ``benchmarks/bench_extract.py`` proves the identity on every
  book of the shared mirror.

Why chunks are (almost) independent. spaCy splits the text on ``str.isspace`` characters
(the same set as ``str.split()``: NBSP, ``\\u2028``, ``\\u3000``, ``\\x1c``... but not the
zero-width space) and tokenises each chunk alone (prefixes, suffixes, infixes, special
cases). One step looks across chunks: the special-case ``PhraseMatcher`` runs over the
whole token sequence, and a pattern of several tokens (``: )`` of the emoticon ``:)``,
``' '`` of ``''``, ``Mr .`` of ``Mr.``) can match across a single space between two
chunks. Such a match is never applied (its text contains the space), but it claims its
tokens and can thereby suppress an overlapping special case inside a chunk: ``' ''x``
gives three quotation marks, while ``'`` and ``''x`` alone give two. The fast path
therefore knows, for every cached chunk, whether its first and last tokens occur in such a
pattern; where two neighbours separated by exactly one space could form one, it
tokenises them together as one chunk.

How new chunks are classified. A chunk of ASCII letters with at most one opening
``" ' (``, single hyphens between words, a possessive ``'s``, one stop ``, ; : ! ? .`` and
one closing ``" ' )`` splits into exactly those pieces: spaCy's prefix, suffix and infix
rules split off each of those characters on its own and never split ASCII letters. The
fast path classifies such a chunk by a regular expression unless a special case could
apply (the chunk less some outer pieces, or a word, is a special case such as ``Mr.``,
``he's``, ``cannot``; or two neighbouring pieces are a pattern pair such as ``; )``), or
the period follows a capital not preceded by another capital (``I.`` stays one token).
Every such form is checked against the tokenizer on probe words once (when the rules are
exported, :func:`export_extraction_rules`, else once per process). These chunks are over
90 % of the distinct chunks of a book; every other chunk goes through the tokenizer, chunk
by chunk (as if separated by newlines, which no pattern can cross).

The tokenizer. The fast path does not run spaCy: it replays spaCy's algorithm on spaCy's
rules exported as data (:mod:`punctstyle.text.tokenizer`; the workflow exports them once per
spaCy version, rule ``tokenizer_rules``), so a job needs no ``import spacy`` (about one CPU
second). :func:`extract_with_spacy` still runs spaCy itself: it is the definition the fast
path is checked against.

Word counts. :meth:`ChunkCachedExtractor.extract_with_words` also counts the words (the
tokens of class ``WORD``, the ones the gaps count) by :func:`word_key` (lower-cased): each
cached chunk keeps its words (a simple chunk's from the regular expression, the others' from
the tokenizer), so the counts cost one ``np.bincount`` of the chunk ids per piece;
:func:`words_with_spacy` is the reference they are tested against.
:meth:`ChunkCachedExtractor.extract_with_word_stream` gives the words themselves, in text order
(word ``j`` is word ``j`` of the gap stream), for the length curve's word methods.

Memory. A long text is extracted in pieces of about :data:`PIECE_CHARS` characters, cut
inside whitespace that no token and no pattern spans (:func:`text_pieces`); the pieces'
sequences are concatenated (:func:`concatenate_sequences`), identical to the whole text's.
A raw text is cleaned in pieces too, cut where both cleaning and extraction may cut
(:func:`punctstyle.text.clean.clean_pieces`, :func:`punctstyle.book.steps.clean_and_extract`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from punctstyle.marks import ELLIPSIS, MARK_CODE, QUOTE, QUOTE_CHARACTERS

WORD: int = -1
"""Token class of a word."""
OTHER: int = -2
"""Token class of a token that is neither a word nor a mark."""

_SINGLE_MARKS: dict[str, int] = {m: c for m, c in MARK_CODE.items() if m not in ('"', "...")}


@dataclass(frozen=True)
class PunctuationSequence:
    """The marks (uint8 codes) of a text and the word gaps before each mark (uint32)."""

    marks: np.ndarray
    gaps: np.ndarray
    n_words: int = 0
    """All words of the text, those after the last mark included."""

    def __post_init__(self) -> None:
        if self.marks.shape != self.gaps.shape:
            raise ValueError(f"marks and gaps differ in length: {self.marks.shape} vs {self.gaps.shape}")

    def __len__(self) -> int:
        return int(self.marks.shape[0])


@lru_cache(maxsize=1)
def english_tokenizer() -> Any:
    """spaCy's rule-based English tokenizer (``spacy.blank("en")``; no model download)."""
    import spacy  # lazy: spacy is slow to import

    return spacy.blank("en").tokenizer


def classify_token(token: str) -> int:
    """A token's class: a mark code 0..9, :data:`WORD` or :data:`OTHER` (module docstring)."""
    if not token:
        return OTHER
    if all(ch in QUOTE_CHARACTERS for ch in token):
        return QUOTE
    if token == "…" or (len(token) >= 3 and token.count(".") == len(token)):
        return ELLIPSIS
    code = _SINGLE_MARKS.get(token)
    if code is not None:
        return code
    if any(ch.isalnum() for ch in token):
        return WORD
    return OTHER


def word_key(token: str) -> str:
    """How a word token is counted: lower-cased (``str.lower``: ``The`` -> ``the``,
    ``N'T`` -> ``n't``). A word token is a token of class :data:`WORD` (module docstring):
    ``don't`` counts ``do`` and ``n't``, ``Mr.`` counts ``mr.``, ``1885`` counts ``1885``,
    ``well-known`` counts ``well`` and ``known`` (the hyphen is a token of class ``OTHER``),
    ``Alice's`` counts ``alice`` and ``'s``."""
    return token.lower()


def words_with_spacy(text: str) -> Counter[str]:
    """The reference word counts: spaCy's tokens of class ``WORD``, by :func:`word_key`."""
    return Counter(word_key(t.text) for t in english_tokenizer()(text) if classify_token(t.text) == WORD)


def sequence_from_classes(classes: np.ndarray) -> PunctuationSequence:
    """Token classes (mark codes, WORD, OTHER) in text order -> marks and gaps.

    With ``c_t`` the cumulative number of words up to token ``t`` and ``t_1 < ... < t_n`` the
    positions of the marks: ``w_0 = c_{t_1}``, ``w_l = c_{t_{l+1}} - c_{t_l}``.
    """
    classes = np.asarray(classes, dtype=np.int64)
    words_so_far = np.cumsum(classes == WORD)
    is_mark = classes >= 0
    marks = classes[is_mark].astype(np.uint8)
    words_at_marks = words_so_far[is_mark]
    gaps = np.diff(words_at_marks, prepend=0).astype(np.uint32)
    n_words = int(words_so_far[-1]) if words_so_far.size else 0
    return PunctuationSequence(marks=marks, gaps=gaps, n_words=n_words)


def extract_with_spacy(text: str) -> PunctuationSequence:
    """The reference definition: tokenise the whole text with spaCy and classify each token."""
    tokens = english_tokenizer()(text)
    classes = np.fromiter((classify_token(t.text) for t in tokens), dtype=np.int64, count=len(tokens))
    return sequence_from_classes(classes)
