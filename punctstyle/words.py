"""Word counts of the corpus for the word-based baselines (issue 12), written and read here.

A book's words are the tokens the punctuation extraction counts as words (class ``WORD`` of
:mod:`punctstyle.extract`, lower-cased by :func:`punctstyle.extract.word_key`); each
extraction job writes them to ``words/{id}.parquet`` (:func:`punctstyle.book.write_words`).

The corpus word matrix (``corpus/words.npz``, :func:`write_word_matrix` /
:func:`read_word_matrix`) holds, for the corpus books, the counts of a *pool* of words:

* pool of a book: its ``pool_per_book`` most frequent words (decreasing count, ties by
  word); the book's ``cutoff`` is the relative frequency of its most frequent word left out
  (0 when none is left out). The pool of the corpus is the union of the books' pools: each
  book decides alone, so no label and no split is involved;
* counts: a sparse (n_books, n_pool) matrix; ``n_words``: every word of the book (the
  denominator of the relative frequencies, words outside the pool included).

Inside each recognition row the vocabulary is chosen on the training documents only
(:func:`select_vocabulary`): the ``k`` words with the largest mean relative frequency over
the training documents, ``score(w) = (1/|T|) sum_{d in T} c_d(w) / n_d``, ties by word. It
equals the choice over the full vocabulary whenever the ``k``-th pool score exceeds
``(1/|T|) sum_{d in T} cutoff_d`` (a word outside the pool has ``c_d(w)/n_d <= cutoff_d``
in every document): :func:`select_vocabulary` says whether this bound proves it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from itertools import pairwise
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from punctstyle.io import InputError, atomic_path

MATRIX_FORMAT = "punctstyle-words/1"


@dataclass(frozen=True)
class WordMatrix:
    """Pool word counts of the corpus books (module docstring)."""

    book_ids: np.ndarray
    """(n_books,) int64."""
    n_words: np.ndarray
    """(n_books,) int64: every word of each book."""
    vocabulary: np.ndarray
    """(n_pool,) object array of str, sorted: the word of each column."""
    counts: sp.csr_matrix
    """(n_books, n_pool) int32 counts."""
    cutoff: np.ndarray
    """(n_books,) float64: relative frequency of each book's most frequent word outside its pool."""
    pool_per_book: int

    def relative_frequencies(self, book_ids: Sequence[int]) -> sp.csr_matrix:
        """Rows of ``book_ids`` (in that order): ``c_d(w) / n_d`` (0 for a book without words)."""
        rows = self.rows_of(book_ids)
        return relative_frequencies(self.counts[rows], self.n_words[rows])

    def rows_of(self, book_ids: Sequence[int]) -> np.ndarray:
        """Row index of each book id; ``KeyError`` naming a book the matrix lacks."""
        index = {b: i for i, b in enumerate(self.book_ids.tolist())}
        try:
            return np.array([index[int(b)] for b in book_ids], dtype=np.int64)
        except KeyError as exc:
            raise KeyError(f"book {exc.args[0]} is not in the word matrix") from None


def relative_frequencies(counts: sp.spmatrix, n_words: np.ndarray) -> sp.csr_matrix:
    """``counts[d, w] / n_words[d]`` as a CSR float64 matrix (rows with ``n_words = 0`` stay 0)."""
    n = np.asarray(n_words, dtype=np.float64)
    scale = np.divide(1.0, n, out=np.zeros_like(n), where=n > 0)
    return sp.csr_matrix(sp.diags(scale) @ sp.csr_matrix(counts, dtype=np.float64))


def book_pool(
    words: Sequence[str], counts: np.ndarray, n_words: int, pool_per_book: int
) -> tuple[np.ndarray, np.ndarray, float]:
    """A book's pool: its ``pool_per_book`` most frequent words (decreasing count, ties by
    word), their counts, and the cutoff ``max count left out / n_words`` (0 if none)."""
    counts = np.asarray(counts, dtype=np.int64)
    words = np.asarray(words, dtype=str)
    order = np.lexsort((words, -counts))
    kept, left = order[:pool_per_book], order[pool_per_book:]
    cutoff = float(counts[left[0]]) / n_words if left.size and n_words > 0 else 0.0
    return words[kept], counts[kept], cutoff


def build_word_matrix(books: Iterable[tuple[int, Sequence[str], np.ndarray, int]], pool_per_book: int) -> WordMatrix:
    """The corpus matrix from ``(book_id, words, counts, n_words)`` per book (module docstring)."""
    if pool_per_book < 1:
        raise ValueError(f"pool_per_book must be at least 1, got {pool_per_book}")
    # word -> column in order of first appearance (a dict: no array of every pool word's
    # text, whose fixed-width copies would take gigabytes at 15,000 books); sorted at the end
    column: dict[str, int] = {}
    ids, totals, cutoffs, columns, data = [], [], [], [], []
    for book_id, words, counts, n_words in books:
        kept, kept_counts, cutoff = book_pool(words, counts, int(n_words), pool_per_book)
        ids.append(int(book_id))
        totals.append(int(n_words))
        cutoffs.append(cutoff)
        columns.append(np.fromiter((column.setdefault(w, len(column)) for w in kept.tolist()), np.int32, kept.size))
        data.append(kept_counts.astype(np.int32))
    words_seen = list(column)
    order = np.array(sorted(range(len(words_seen)), key=words_seen.__getitem__), dtype=np.int64)
    vocabulary = np.array([words_seen[i] for i in order.tolist()], dtype=object)
    alphabetical = np.empty(order.size, np.int32)
    alphabetical[order] = np.arange(order.size, dtype=np.int32)
    indptr = np.cumsum([0] + [c.size for c in columns], dtype=np.int64)
    indices = alphabetical[np.concatenate(columns)] if columns else np.zeros(0, np.int32)
    values = np.concatenate(data) if data else np.zeros(0, np.int32)
    matrix = sp.csr_matrix((values, indices, indptr), shape=(len(ids), vocabulary.size))
    matrix.sort_indices()
    return WordMatrix(
        book_ids=np.asarray(ids, np.int64),
        n_words=np.asarray(totals, np.int64),
        vocabulary=vocabulary,
        counts=matrix,
        cutoff=np.asarray(cutoffs, np.float64),
        pool_per_book=int(pool_per_book),
    )


def write_word_matrix(path: str | os.PathLike[str], matrix: WordMatrix) -> None:
    """Write the matrix atomically as a NumPy ``.npz`` (CSR arrays, no pickled objects)."""
    counts = matrix.counts.tocsr()
    with atomic_path(path) as tmp, open(tmp, "wb") as handle:
        np.savez_compressed(
            handle,
            format=np.array(MATRIX_FORMAT),
            book_ids=matrix.book_ids,
            n_words=matrix.n_words,
            # UTF-8 bytes and offsets: a fixed-width str array is as wide as the longest word
            vocabulary_utf8=np.frombuffer("".join(matrix.vocabulary.tolist()).encode("utf-8"), np.uint8),
            vocabulary_offsets=np.cumsum([0] + [len(w.encode("utf-8")) for w in matrix.vocabulary.tolist()]),
            indptr=counts.indptr.astype(np.int64),
            indices=counts.indices.astype(np.int32),
            data=counts.data.astype(np.uint32),
            cutoff=matrix.cutoff,
            pool_per_book=np.array(matrix.pool_per_book),
        )


def read_word_matrix(path: str | os.PathLike[str]) -> WordMatrix:
    """Read a matrix written by :func:`write_word_matrix`."""
    try:
        with np.load(path, allow_pickle=False) as data:
            if str(data["format"]) != MATRIX_FORMAT:
                raise InputError(f"{path}: not a {MATRIX_FORMAT} file (format {data['format']})")
            book_ids, n_words = data["book_ids"].astype(np.int64), data["n_words"].astype(np.int64)
            text, offsets = data["vocabulary_utf8"].tobytes(), data["vocabulary_offsets"].tolist()
            vocabulary = np.array([text[a:b].decode("utf-8") for a, b in pairwise(offsets)], dtype=object)
            counts = sp.csr_matrix(
                (data["data"].astype(np.int32), data["indices"], data["indptr"]),
                shape=(book_ids.size, vocabulary.size),
            )
            return WordMatrix(
                book_ids, n_words, vocabulary, counts, data["cutoff"].astype(np.float64), int(data["pool_per_book"])
            )
    except (OSError, KeyError, ValueError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: not a readable word matrix ({exc})") from exc


@dataclass(frozen=True)
class Vocabulary:
    """The words chosen on a row's training documents (:func:`select_vocabulary`)."""

    columns: np.ndarray
    """Pool columns, best first (length ``min(k, words with a positive score)``)."""
    scores: np.ndarray
    """Their training scores (mean relative frequency)."""
    bound: float
    """Largest possible score of a word outside the pool: mean training cutoff."""
    proven: bool
    """Whether the bound proves the choice equals the full-vocabulary choice."""


def select_vocabulary(train_freqs: sp.spmatrix, k: int, train_cutoff: np.ndarray | None = None) -> Vocabulary:
    """The ``k`` most frequent words of the training documents (module docstring).

    ``train_freqs``: relative frequencies of the training documents only (n_train, n_pool),
    columns in vocabulary (alphabetical) order, so ties go to the alphabetically first word;
    only words with a positive score are chosen. ``train_cutoff``: the documents' cutoffs
    (None: the pool is the full vocabulary, bound 0).
    """
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")
    n_train = train_freqs.shape[0]
    if n_train == 0:
        raise ValueError("no training document to choose the vocabulary from")
    scores = np.asarray(train_freqs.sum(axis=0)).ravel() / n_train
    order = np.lexsort((np.arange(scores.size), -scores))
    order = order[scores[order] > 0][:k]
    bound = float(np.mean(train_cutoff)) if train_cutoff is not None and len(train_cutoff) else 0.0
    chosen = scores[order]
    # k words: the k-th must beat any word outside the pool; fewer: no word may lie outside
    proven = bool(chosen[-1] > bound) if chosen.size == k else bound == 0.0
    return Vocabulary(columns=order, scores=chosen, bound=bound, proven=proven)
