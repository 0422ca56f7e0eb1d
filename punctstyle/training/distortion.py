"""Text distortion (Stamatatos 2017, "Authorship attribution using text distortion", EACL):
the words that are not among the ``k`` most frequent words are masked, the rest of the text
(the frequent words, punctuation, spaces and line breaks) is kept, and the distorted text is
represented by its character n-grams.

* **Words** (:data:`WORD`): maximal runs of letters and digits (``[^\\W_]+``); everything between
  them is kept as it is. A word is kept when its lower-cased form is among the ``k`` most
  frequent words of the *training* texts (:func:`top_words`: the largest mean relative
  frequency over the training texts, ties to the smaller word id).
* **DV-MA** (multiple asterisks, :data:`DV_MA`): every character of a masked word becomes ``*``,
  every digit ``#`` (its length is kept): ``"Mr. Holmes paid 250 pounds."`` with ``k`` words
  ``{mr, paid}`` -> ``"Mr. ****** paid ### ******."`` (the ASCII digits are :data:`DIGITS`)
* **DV-SA** (single asterisk, :data:`DV_SA`): every masked word becomes one ``*``, a masked word
  of digits only one ``#``: -> ``"Mr. * paid # *."``
* **Vectors** (:func:`ngram_vectors`): the character ``n``-grams of each distorted text
  (overlapping, ``n`` = 3 by default, code points packed 21 bits each); the ``n_features`` most
  frequent n-grams of the training texts (largest mean relative frequency; ties to the smaller
  code), and each text's relative frequencies ``c_t(g) / (L_t - n + 1)`` of them.

:func:`distort` is the string form (the definition); :func:`distorted_codes` computes the same
text as an array of code points from a :class:`PreparedText`, vectorised, so that one text can be
distorted for many vocabularies without re-reading it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from punctstyle.training.distortion_modes import DV_MA, DV_SA, MODES

WORD = re.compile(r"[^\W_]+")
"""A word of the distortion: a maximal run of letters and digits."""
MASK, DIGIT = "*", "#"
DIGITS = "0123456789"
"""The digits masked as ``#`` (other characters of a masked word, other digits included, ``*``)."""
_BITS = 21  # a Unicode code point fits in 21 bits
MAX_N = 3  # 3 * 21 bits fit an int64


def _check_mode(mode: str) -> None:
    if mode not in MODES:
        raise ValueError(f"unknown text distortion {mode!r}: expected one of {list(MODES)}")


def distort(text: str, kept: set[str] | frozenset[str], mode: str) -> str:
    """The distorted text (module docstring): each word whose lower-cased form is not in
    ``kept`` masked, DV-MA character by character (digits ``#``, other characters ``*``),
    DV-SA as one ``*`` (``#`` for a word of digits only)."""
    _check_mode(mode)

    def mask(match: re.Match[str]) -> str:
        word = match.group(0)
        if word.lower() in kept:
            return word
        if mode == DV_SA:
            return DIGIT if all(c in DIGITS for c in word) else MASK
        return "".join(DIGIT if c in DIGITS else MASK for c in word)

    return WORD.sub(mask, text)


@dataclass(frozen=True)
class PreparedText:
    """One text ready for :func:`distorted_codes`: ``codes`` (its code points; 16 bits when they
    fit), per word
    ``starts`` and ``stops`` (character offsets) and ``types`` (word ids of the lower-cased
    forms in the caller's word list)."""

    codes: np.ndarray
    starts: np.ndarray
    stops: np.ndarray
    types: np.ndarray


def prepare_text(text: str, word_ids: dict[str, int]) -> PreparedText:
    """Code points and words of ``text``; ``word_ids`` (lower-cased word -> id) gains the words
    it did not hold, numbered in order of first appearance."""
    codes = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    codes = codes.astype(np.uint16 if codes.size == 0 or codes.max() < 1 << 16 else np.int32)
    starts, stops, types = [], [], []
    for match in WORD.finditer(text):
        starts.append(match.start())
        stops.append(match.end())
        types.append(word_ids.setdefault(match.group(0).lower(), len(word_ids)))
    as_array = lambda values: np.asarray(values, dtype=np.int32)  # noqa: E731
    return PreparedText(codes, as_array(starts), as_array(stops), as_array(types))


def word_counts(texts: Sequence[PreparedText], n_words: int) -> sp.csr_matrix:
    """(n_texts, n_words): how often each word id occurs in each text."""
    rows = np.repeat(np.arange(len(texts)), [t.types.size for t in texts])
    columns = np.concatenate([t.types for t in texts]) if texts else np.zeros(0, np.int64)
    matrix = sp.csr_matrix((np.ones(columns.size), (rows, columns)), shape=(len(texts), n_words))
    matrix.sum_duplicates()
    return matrix


def top_words(counts: sp.csr_matrix, k: int) -> np.ndarray:
    """The ids of the ``k`` words of largest mean relative frequency ``mean_t c_t(w) / n_t`` over
    the rows of ``counts`` (the training texts; a text without words counts 0), ties to the
    smaller id; fewer when fewer words occur."""
    totals = np.asarray(counts.sum(axis=1), dtype=np.float64).ravel()
    scale = sp.diags(np.divide(1.0, totals, out=np.zeros_like(totals), where=totals > 0))
    mean = np.asarray((scale @ counts).mean(axis=0)).ravel()
    order = np.lexsort((np.arange(mean.size), -mean))
    return order[: min(int(k), int(np.count_nonzero(mean)))]


def distorted_codes(text: PreparedText, kept: np.ndarray, mode: str) -> np.ndarray:
    """The code points of :func:`distort` of the text, with ``kept`` (booleans over the word
    ids) the words kept: per character, ``word[i]`` its word (or none), masked when that word
    is not kept; DV-MA replaces each masked character, DV-SA keeps the first character of each
    masked word (replaced) and drops the others."""
    _check_mode(mode)
    codes = text.codes.astype(np.int64)
    masked_word = ~np.asarray(kept, dtype=bool)[text.types]
    lengths = text.stops - text.starts
    inside = np.zeros(codes.size + 1, dtype=np.int64)  # +1 at a masked word's start, -1 after it
    np.add.at(inside, text.starts[masked_word], 1)
    np.add.at(inside, text.stops[masked_word], -1)
    in_masked = np.cumsum(inside[:-1]) > 0
    digit = (codes >= ord("0")) & (codes <= ord("9"))
    if mode == DV_MA:
        return np.where(in_masked, np.where(digit, ord(DIGIT), ord(MASK)), codes)
    first = np.zeros(codes.size, dtype=bool)
    first[text.starts[masked_word]] = True
    all_digits = np.add.reduceat(digit.astype(np.int64), text.starts, axis=0) == lengths if text.starts.size else \
        np.zeros(0, dtype=bool)
    symbol = np.full(codes.size, ord(MASK), dtype=np.int64)
    symbol[text.starts[masked_word & all_digits]] = ord(DIGIT)
    keep = ~in_masked | first
    return np.where(in_masked, symbol, codes)[keep]


def ngram_codes(codes: np.ndarray, n: int) -> np.ndarray:
    """The overlapping character ``n``-grams of a code-point array, each packed into one integer
    ``sum_j codes[i + j] << (21 (n - 1 - j))`` (``1 <= n <= 3``)."""
    if not 1 <= n <= MAX_N:
        raise ValueError(f"character n-grams of n = 1..{MAX_N}, got {n}")
    m = codes.size - n + 1
    if m <= 0:
        return np.zeros(0, dtype=np.int64)
    codes = np.asarray(codes, dtype=np.int64)
    packed = np.zeros(m, dtype=np.int64)
    for j in range(n):
        packed = (packed << _BITS) | codes[j : j + m]
    return packed


def ngram_string(code: int, n: int) -> str:
    """The n-gram of a packed code (:func:`ngram_codes`), for reading the features."""
    mask = (1 << _BITS) - 1
    return "".join(chr((int(code) >> (_BITS * (n - 1 - j))) & mask) for j in range(n))


def text_ngrams(texts: Sequence[PreparedText], kept: np.ndarray, mode: str, n: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per text: the distinct packed n-grams of its distortion (sorted) and their counts."""
    return [np.unique(ngram_codes(distorted_codes(t, kept, mode), n), return_counts=True) for t in texts]


def ngram_vectors(
    train: Sequence[tuple[np.ndarray, np.ndarray]], test: Sequence[tuple[np.ndarray, np.ndarray]], n_features: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(X_train, X_test, features): relative frequencies ``c_t(g) / sum_g' c_t(g')`` of the
    ``n_features`` n-grams of largest mean relative frequency over the training texts (ties to
    the smaller code), from :func:`text_ngrams`' counts."""
    frequencies = [(codes, counts / max(int(counts.sum()), 1)) for codes, counts in train]
    every = np.concatenate([c for c, _ in frequencies]) if frequencies else np.zeros(0, np.int64)
    weights = np.concatenate([f for _, f in frequencies]) if frequencies else np.zeros(0)
    distinct, where = np.unique(every, return_inverse=True)
    mean = np.bincount(where, weights=weights, minlength=distinct.size) / max(len(train), 1)
    order = np.lexsort((distinct, -mean))[: int(n_features)]
    features = np.sort(distinct[order])

    def vectors(texts: Sequence[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
        out = np.zeros((len(texts), features.size))
        for row, (codes, counts) in enumerate(texts):
            column = np.searchsorted(features, codes)
            hit = (column < features.size) & (features[np.minimum(column, features.size - 1)] == codes)
            out[row, column[hit]] = counts[hit] / max(int(counts.sum()), 1)
        return out

    return vectors(train), vectors(test), features
