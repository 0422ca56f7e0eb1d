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
* :class:`ChunkCachedExtractor` (the default) uses the fact that spaCy tokenises each
  whitespace-separated chunk independently of its neighbours: it classifies each distinct
  chunk once (tokenising all unseen chunks of a text in one spaCy call) and reuses the
  result, so a book costs one dictionary lookup per chunk. ``benchmarks/bench_extract.py``
  proves the identity on real books.
"""

from __future__ import annotations

from dataclasses import dataclass, field
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
    import spacy

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


@dataclass
class ChunkCachedExtractor:
    """Fast, identical extraction: classify each distinct whitespace chunk once.

    ``cache`` maps a chunk to the tuple of its token classes with ``OTHER`` dropped. It is
    owned by the instance (no global state); ``max_cache`` bounds its size.
    """

    max_cache: int = 2_000_000
    cache: dict[str, tuple[int, ...]] = field(default_factory=dict)

    def _classify_new_chunks(self, chunks: list[str]) -> None:
        """Tokenise all unseen chunks in one spaCy call (joined by single spaces)."""
        doc = english_tokenizer()(" ".join(chunks))
        starts = np.cumsum([0] + [len(c) + 1 for c in chunks[:-1]])
        per_chunk: list[list[int]] = [[] for _ in chunks]
        chunk_index = np.searchsorted(starts, [t.idx for t in doc], side="right") - 1
        for token, k in zip(doc, chunk_index):
            cls = classify_token(token.text)
            if cls != OTHER:
                per_chunk[k].append(cls)
        for chunk, classes in zip(chunks, per_chunk):
            self.cache[chunk] = tuple(classes)

    def __call__(self, text: str) -> PunctuationSequence:
        chunks = text.split()
        cache = self.cache
        unseen = list(dict.fromkeys(c for c in chunks if c not in cache))
        if len(cache) + len(unseen) > self.max_cache:
            cache.clear()
            unseen = list(dict.fromkeys(chunks))
        if unseen:
            self._classify_new_chunks(unseen)
        flat: list[int] = []
        extend = flat.extend
        for chunk in chunks:
            extend(cache[chunk])
        return sequence_from_classes(np.array(flat, dtype=np.int64))


def extract(text: str, extractor: ChunkCachedExtractor | None = None) -> PunctuationSequence:
    """Marks and gaps of an already cleaned text, with the fast extractor."""
    return (extractor or ChunkCachedExtractor())(text)
