"""Word counts of the corpus for the word-based baselines (issue 12), written and read here.

A book's words are the tokens the punctuation extraction counts as words (class ``WORD`` of
:mod:`punctstyle.text.extract`, lower-cased by :func:`punctstyle.text.extract.word_key`); each
extraction job writes them to ``words/{id}.parquet`` (:func:`punctstyle.book.sequence_file.write_words`).

The corpus word matrix (``corpus/words.npz``, :func:`write_word_matrix` /
:func:`read_word_matrix`) holds, for the corpus books, the counts of a *pool* of words:

* pool of a book: its ``pool_per_book`` most frequent words (decreasing count, ties by
  word); the book's ``cutoff`` is the relative frequency of its most frequent word left out
  (0 when none is left out). The pool of the corpus is the union of the books' pools: each
  book decides alone, so no label and no split is involved;
* counts: a sparse (n_books, n_pool) matrix of the *exact* count ``c_d(w)`` of every pool
  word ``w`` in every book ``d`` (from the book's complete word list, so also where ``w`` is
  below the book's own top ``pool_per_book``; 0 only where the book lacks ``w``), built in two
  passes over the books (:func:`build_word_matrix`: the pool, then each book's counts of the
  pool words); ``n_words``: every word of the book (the denominator of the relative
  frequencies, words outside the pool included).

Documents cut into excerpts (``extraction.excerpt_marks``) are rows of their own: an excerpt of
marks ``[f, s)`` counts the words ``[W_f, W_s)`` of its text's word stream, ``W_i`` the words
before mark ``i`` (:func:`punctstyle.corpus.sequences.excerpt_word_spans`, :func:`excerpt_word_counts`,
:mod:`punctstyle.corpus.word_matrix_job`); the analyses' word streams of excerpts are those
slices too (:func:`document_word_files`).

Inside each recognition row the vocabulary is chosen on the training documents only
(:func:`select_vocabulary`): the ``k`` words with the largest mean relative frequency over
the training documents, ``score(w) = (1/|T|) sum_{d in T} c_d(w) / n_d``, ties by word. It
equals the choice over the full vocabulary whenever the ``k``-th pool score exceeds
``(1/|T|) sum_{d in T} cutoff_d`` (a word outside the pool has ``c_d(w)/n_d <= cutoff_d``
in every document): :func:`select_vocabulary` says whether this bound proves it. As every cell
of a pool word is exact, a proven choice makes the whole word block of a row (the chosen words'
``c_d(w) / n_d`` of every book, training and test) equal to the full-vocabulary computation.

The length curve's word methods (:mod:`punctstyle.training.length_curve`, ``words<k>``) count the words
of excerpts of marks, so they need each book's words in extraction order: the extraction job keeps
them in the book's words file (column ``positions``, :func:`punctstyle.book.sequence_file.read_word_stream`),
so that :class:`CorpusWordFiles` reads each book's stream and whole-book counts from one file
(a book is tokenized once; re-tokenizing cost 86-94 CPU s of a length-curve row, issue 26), and
:func:`training_vocabulary` chooses a row's words over every word of its training books (no pool).
A words file without the stream (written by an older punctstyle) is re-tokenized from the book's
text (:class:`BookWordStreams`, cleaned as extraction cleans them; the marks and gaps must equal
the sequence file's).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import pairwise
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

from punctstyle.io import InputError, atomic_path
from punctstyle.corpus.sequences import SequenceFiles, book_paths

if TYPE_CHECKING:
    import pandas as pd

    from punctstyle.text.chunk_cache import ChunkCachedExtractor
    from punctstyle.text.extract import PunctuationSequence
    from punctstyle.text.tokenizer import TokenizerRules
from punctstyle.text.clean import clean_pieces
from punctstyle.text.chunk_cache import concatenate_sequences
from punctstyle.text.chunk_cache import ChunkCachedExtractor
from punctstyle.io import read_gzip_text
from punctstyle.book.sequence_file import read_word_stream, read_words, words_file_has_stream

MATRIX_FORMAT = "punctstyle-words/1"


@dataclass(frozen=True)
class WordMatrix:
    """Exact counts of the pool words in the corpus books (module docstring)."""

    book_ids: np.ndarray
    """(n_books,) int64."""
    n_words: np.ndarray
    """(n_books,) int64: every word of each book."""
    vocabulary: np.ndarray
    """(n_pool,) object array of str, sorted: the word of each column."""
    counts: sp.csr_matrix
    """(n_books, n_pool) int32: exact count of each pool word in each book (0: the book lacks it)."""
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
    # each stored count times its row's scale, in place on one float64 copy (no diags @ product:
    # at 15,000 books the counts hold tens of millions of values)
    freqs = sp.csr_matrix(counts, dtype=np.float64, copy=True)
    freqs.data *= np.repeat(scale, np.diff(freqs.indptr))
    return freqs


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
    """The corpus matrix from ``(book_id, words, counts, n_words)`` per book (module docstring).

    ``books`` is read twice (a list, or an object whose ``__iter__`` reads the books anew, in
    the same order): first the pool (each book's top ``pool_per_book`` words and cutoff), then
    each book's complete word list restricted to the pool, so that every stored count is exact.
    An iterator (a generator) is first read into a list, holding every book's words at once:
    for a large corpus pass a re-iterable that reads each book from its file.
    ``words``: a book's distinct words (each once), ``counts`` their counts, ``n_words`` every
    word of the book."""
    import pandas as pd  # Index.get_indexer: a book's words -> pool columns without a Python loop

    if pool_per_book < 1:
        raise ValueError(f"pool_per_book must be at least 1, got {pool_per_book}")
    if isinstance(books, Iterator):  # one pass only: held in memory
        books = list(books)
    # pass 1: the pool (a set of str: no fixed-width array of every pool word's text, whose
    # copies would take gigabytes at 15,000 books), the totals and the cutoffs
    pool: set[str] = set()
    ids, totals, cutoffs = [], [], []
    for book_id, words, counts, n_words in books:
        kept, _, cutoff = book_pool(words, counts, int(n_words), pool_per_book)
        pool.update(kept.tolist())
        ids.append(int(book_id))
        totals.append(int(n_words))
        cutoffs.append(cutoff)
    vocabulary = np.array(sorted(pool), dtype=object)
    del pool
    index = pd.Index(vocabulary)
    # pass 2: every pool word of every book, its exact count
    columns, data, n_read = [], [], 0
    for book_id, words, counts, n_words in books:
        if n_read >= len(ids) or (int(book_id), int(n_words)) != (ids[n_read], totals[n_read]):
            raise ValueError(f"the second pass over the books differs from the first at book {int(book_id)}")
        found = index.get_indexer(np.asarray(words, dtype=object))
        inside = found >= 0
        columns.append(found[inside].astype(np.int32))
        data.append(np.asarray(counts, dtype=np.int64)[inside].astype(np.int32))
        n_read += 1
    if n_read != len(ids):
        raise ValueError(f"the second pass over the books read {n_read} books, the first {len(ids)}")
    indptr = np.cumsum([0] + [c.size for c in columns], dtype=np.int64)
    indices = np.concatenate(columns) if columns else np.zeros(0, np.int32)
    values = np.concatenate(data) if data else np.zeros(0, np.int32)
    del columns, data
    matrix = sp.csr_matrix((values, indices, indptr), shape=(len(ids), vocabulary.size))
    matrix.sum_duplicates()  # sorts the column indices of each row too
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
            indices=counts.indices.astype(np.int32, copy=False),
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


# ------------------------------------------------- word streams (the length curve's excerpts)


def excerpt_word_counts(stream: np.ndarray, spans: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """``(words, counts)`` of each word range ``spans`` (``(k, 2)`` ``[start, stop)``,
    :func:`punctstyle.corpus.sequences.excerpt_word_spans`) of a text's word ``stream``
    (extraction order): ``c_e(w) = #{j in [start_e, stop_e): stream_j = w}``, the words distinct and sorted, counts int64
    (summing to ``stop_e - start_e``). A ``ValueError`` when a range passes the stream's end."""
    import pandas as pd  # factorize: one code per distinct word of the text, sorted

    spans = np.asarray(spans, dtype=np.int64).reshape(-1, 2)
    if spans.size and spans[:, 1].max() > len(stream):
        raise ValueError(f"word range up to {int(spans[:, 1].max())} beyond the stream's {len(stream)} words")
    codes, vocabulary = pd.factorize(np.asarray(stream, dtype=object), sort=True)
    vocabulary = np.asarray(vocabulary, dtype=object)
    result = []
    for start, stop in spans.tolist():
        counts = np.bincount(codes[start:stop], minlength=vocabulary.size)
        present = np.flatnonzero(counts)
        result.append((vocabulary[present], counts[present].astype(np.int64)))
    return result



def training_vocabulary(books: Iterable[tuple[Sequence[str], np.ndarray]], k: int) -> list[str]:
    """The ``k`` words of a row, best first, from the whole-book counts of its *training*
    books only: :func:`select_vocabulary` over every word of those books (no pool, so the
    choice is exact: bound 0), i.e. the largest ``score(w) = (1/|T|) sum_{d in T} c_d(w) / n_d``
    with ``n_d = sum_w c_d(w)``, ties by word (``str`` order, as the corpus matrix's columns),
    positive scores only (fewer than ``k`` words when the books have fewer).

    ``books``: ``(words, counts)`` of each training book (e.g. :func:`punctstyle.book.sequence_file.read_words`
    of ``words/{id}.parquet``, whose counts sum to the book's words)."""
    import pandas as pd  # factorize: sorted unique words and codes, without a Python loop

    words_of, counts_of = [], []
    for words, counts in books:
        words_of.append(np.asarray(words, dtype=object))
        counts_of.append(np.asarray(counts, dtype=np.float64))
    if not words_of:
        raise ValueError("no training document to choose the vocabulary from")
    codes, vocabulary = pd.factorize(np.concatenate(words_of), sort=True)
    lengths = np.array([w.size for w in words_of], dtype=np.int64)
    indptr = np.concatenate(([0], np.cumsum(lengths)))
    counts = sp.csr_matrix((np.concatenate(counts_of), codes, indptr), shape=(lengths.size, len(vocabulary)))
    counts.sum_duplicates()
    totals = np.asarray(counts.sum(axis=1)).ravel()
    chosen = select_vocabulary(relative_frequencies(counts, totals), k)
    return [str(vocabulary[c]) for c in chosen.columns.tolist()]


def book_word_stream(text: str, extractor: ChunkCachedExtractor) -> tuple[PunctuationSequence, list[str]]:
    """The punctuation sequence and the word stream of a raw book text, cleaned and extracted
    as the extraction rule does (:func:`punctstyle.book.steps.clean_and_extract_with_word_ids`: cleaned
    piece by piece, :func:`punctstyle.text.clean.clean_pieces`), with
    :meth:`punctstyle.text.chunk_cache.ChunkCachedExtractor.extract_with_word_stream`: word ``j`` of the
    stream is word ``j`` of the gap stream (``n_words`` words, those after the last mark
    included)."""

    parts, stream = [], []
    for piece in clean_pieces(extractor.normalise(text), extractor.piece_chars):
        sequence, words = extractor.extract_with_word_stream(piece)
        parts.append(sequence)
        stream.extend(words)
    return concatenate_sequences(parts), stream


class BookWordStreams:
    """Word streams of books, re-tokenized from their downloaded texts (``books/{id}.txt.gz``)
    by one :class:`punctstyle.text.chunk_cache.ChunkCachedExtractor` (its chunk cache serves every book)
    on the workflow's tokenizer rules (no spaCy import), so that the length curve can count the
    words of an excerpt of marks. :meth:`read` checks the alignment: the re-tokenized marks and
    gaps must be the book's sequence file's."""

    def __init__(self, rules: TokenizerRules | None = None) -> None:

        self.extractor = ChunkCachedExtractor(rules=rules)

    def read(self, text_path: str | os.PathLike[str], marks: np.ndarray, gaps: np.ndarray) -> np.ndarray:
        """The book's words (lower-cased, extraction order) as an object array; an
        :class:`InputError` naming the file when its sequence is not ``(marks, gaps)``."""

        sequence, stream = book_word_stream(read_gzip_text(text_path), self.extractor)
        if not (np.array_equal(sequence.marks, marks) and np.array_equal(sequence.gaps, gaps)):
            raise InputError(
                f"{text_path}: its re-tokenized marks and gaps differ from the book's sequence file "
                "(another tokenizer rules file or cleaning?)"
            )
        return np.array(stream, dtype=object)


class CorpusWordFiles:
    """The word inputs of the length curve for the corpus books ``book_ids`` (indexed like
    them): the word stream of book ``i`` and its whole-book word counts, both from its words
    file (``words/{id}.parquet``, :func:`punctstyle.book.sequence_file.read_word_stream` and
    :func:`punctstyle.book.sequence_file.read_words`), read on access. A words file without
    the stream (written by an older punctstyle) is re-tokenized from the book's text in
    ``texts`` on the tokenizer ``rules`` (:class:`BookWordStreams`).

    Excerpts (``extraction.excerpt_marks``): ``book_ids`` name each document's *text* and
    ``spans(i)`` gives document ``i``'s word range ``[start, stop)`` in its text's stream
    (:meth:`punctstyle.corpus.sequences.SequenceFiles.word_span`, None for a whole text); its
    stream and counts are then those of ``stream[start:stop]`` (:func:`excerpt_word_counts`),
    read from the stored stream only (the last text read is kept: consecutive excerpts of one
    text read it once). Build it with :func:`document_word_files`."""

    def __init__(
        self,
        book_ids: Sequence[int],
        texts: Iterable[str | os.PathLike[str]],
        words: Iterable[str | os.PathLike[str]],
        rules: TokenizerRules | None = None,
        spans: Callable[[int], tuple[int, int] | None] | None = None,
    ) -> None:
        self.words = book_paths(words, book_ids, "words")
        texts = list(texts)
        self.texts = book_paths(texts, book_ids, "text") if texts else None
        self.rules = rules
        self.spans = spans
        self._streams: BookWordStreams | None = None
        self._last: tuple[str, np.ndarray] | None = None

    def span(self, i: int) -> tuple[int, int] | None:
        """Document ``i``'s word range in its text's stream; None for a whole text."""
        return None if self.spans is None else self.spans(i)

    def _text_stream(self, i: int) -> np.ndarray:
        """The stored stream of document ``i``'s text (the last one read is kept)."""
        path = self.words[i]
        if self._last is None or self._last[0] != path:
            self._last = (path, read_word_stream(path))
        return self._last[1]

    def _excerpt(self, i: int, span: tuple[int, int]) -> np.ndarray:
        stream = self._text_stream(i)
        start, stop = span
        if stop > stream.size:
            raise InputError(f"{self.words[i]}: its word stream is shorter than the excerpt's words [{start}, {stop})")
        return stream[start:stop]

    def stream(self, i: int, marks: np.ndarray, gaps: np.ndarray) -> np.ndarray:
        """Words of document ``i`` in extraction order (an object array of ``str``); an
        :class:`InputError` naming the file when the stream cannot hold ``(marks, gaps)``: it
        must have at least ``sum(gaps)`` words."""
        path = self.words[i]
        span = self.span(i)
        if span is not None:
            return self._excerpt(i, span)
        if words_file_has_stream(path) or self.texts is None:
            stream = read_word_stream(path)
            if int(np.asarray(gaps, dtype=np.int64).sum()) > stream.size:
                raise InputError(f"{path}: its word stream is shorter than the book's gaps (another extraction?)")
            return stream
        if self._streams is None:
            self._streams = BookWordStreams(self.rules)
        return self._streams.read(self.texts[i], marks, gaps)

    def counts(self, i: int) -> tuple[list[str], np.ndarray]:
        """``(words, counts)`` of document ``i`` (its words file; an excerpt's own words)."""
        span = self.span(i)
        if span is not None:
            words, counts = excerpt_word_counts(self._excerpt(i, span), np.array([[0, span[1] - span[0]]]))[0]
            return words.tolist(), counts
        words, counts, _ = read_words(self.words[i])
        return words, counts


def document_word_files(
    documents: SequenceFiles,
    table: pd.DataFrame,
    book_ids: Sequence[int],
    texts: Iterable[str | os.PathLike[str]],
    words: Iterable[str | os.PathLike[str]],
    rules: TokenizerRules | None = None,
) -> CorpusWordFiles:
    """:class:`CorpusWordFiles` of the corpus documents ``book_ids`` of the corpus table
    ``table``, read as ``documents`` reads their sequences
    (:func:`punctstyle.corpus.sequences.document_sequences`): whole texts by their ids;
    excerpts by their text's id (``source_id``) and their word span (``documents.word_span``)."""
    ids = np.asarray(book_ids, dtype=np.int64)
    if "source_id" not in table.columns:
        return CorpusWordFiles(ids.tolist(), texts, words, rules)
    source = table.set_index(table["book_id"].astype(np.int64))["source_id"].astype(np.int64)
    return CorpusWordFiles(source.loc[ids].tolist(), texts, words, rules, spans=documents.word_span)
