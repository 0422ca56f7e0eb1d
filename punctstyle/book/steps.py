"""Per-book steps of the workflow: raw text -> sequence file -> feature row.

Each step reads what the previous one wrote and writes one file atomically. A book that
cannot go further (not downloadable, too few marks, no quotation mark) is not an error: its
files carry a ``status`` and a ``reason``, and the corpus step turns them into
``exclusions.csv``.

File formats:

* ``sequences/{id}.parquet``: columns ``mark`` (uint8 codes, :mod:`punctstyle.marks` order)
  and ``gap`` (uint32 words before the mark); schema metadata ``book_id``, ``status``,
  ``reason``, ``n_words``, ``encoding``, ``n_double_quotes`` (the ``"`` characters of the
  cleaned text: every double quotation mark, straight, curly, low, guillemet or LaTeX-style,
  since cleaning turns them all into ``"``; the sequence amalgamates them with the single
  ones, so the paper's rule needs this count).
* ``words/{id}.parquet``: the book's word counts (:func:`write_words`): columns ``word``
  (string: a token of class WORD, lower-cased, :func:`punctstyle.text.extract.word_key`) and
  ``count`` (uint32), most frequent first (ties by word); schema metadata ``book_id``,
  ``status``, ``n_words`` (the sum of the counts, the sequence's ``n_words``); column
  ``positions``: each word's positions in the book's word stream (list of uint32), from which
  :func:`punctstyle.book.sequence_file.read_word_stream` gives the words in extraction order
  (the length curve's word methods) without re-tokenizing the text.
* ``features/{id}.parquet``: one row: ``book_id``, ``status`` (``included`` or
  ``excluded``), ``stage``, ``reason``, ``n_marks``, ``n_words``, then one column per feature
  (``f1`` ... ``f7``), each a fixed-size list of float64 in the order of
  :func:`punctstyle.marks.feature_column_names` (:func:`write_feature_row`). One Parquet column
  per feature entry (1,550 with f7) made every file about 480 kB, two thirds of it column
  metadata, and cost about 0.09 CPU s to read; packed, a file is a few kB.
  With ``extraction.excerpt_marks`` N (:func:`excerpt_feature_rows`), the file of an included
  text holds one row per excerpt (:func:`excerpt_bounds`), with the extra columns of
  :data:`EXCERPT_ROW_COLUMNS` after ``n_words``; an excluded text one row, excerpt ``-1``.
"""

from __future__ import annotations

import os

import numpy as np

from punctstyle.book.feature_rows import book_features, write_book_features  # noqa: F401 (book_features: importable here)
from punctstyle.book.inclusion import STATUS_OK, InclusionRule, count_double_quotes
from punctstyle.book.sequence_file import _read_json, ranked_word_ids, write_sequence, write_words
from punctstyle.io import read_gzip_text
from punctstyle.text.chunk_cache import ChunkCachedExtractor, concatenate_sequences
from punctstyle.text.extract import PunctuationSequence
from punctstyle.text.clean import clean_pieces


def clean_and_extract_with_word_ids(
    text: str, extractor: ChunkCachedExtractor, vocabulary: dict[str, int]
) -> tuple[PunctuationSequence, int, np.ndarray]:
    """:func:`clean_and_extract` plus the words of the cleaned text in extraction order, as ids
    of ``vocabulary`` (word -> id, extended with each new word:
    :meth:`punctstyle.text.chunk_cache.ChunkCachedExtractor.extract_with_word_ids`); word ``j``
    of the gap stream is ``ids[j]``, and ``np.bincount(ids)`` are the word counts."""

    parts, n_double_quotes, streams = [], 0, []
    for piece in clean_pieces(extractor.normalise(text), extractor.piece_chars):
        sequence, ids = extractor.extract_with_word_ids(piece, vocabulary)
        parts.append(sequence)
        streams.append(ids)
        n_double_quotes += count_double_quotes(piece)
    stream = np.concatenate(streams) if streams else np.zeros(0, np.int64)
    return concatenate_sequences(parts), n_double_quotes, stream


def clean_and_extract(text: str, extractor: ChunkCachedExtractor) -> tuple[PunctuationSequence, int]:
    """(sequence, double quotation marks) of a raw text: ``extractor(clean_text(text))`` and
    :func:`count_double_quotes` of the cleaned text, computed piece by piece
    (:func:`punctstyle.text.clean.clean_pieces` of ``extractor.piece_chars``, cut where extraction
    may cut too) so that memory holds the raw text and one cleaned piece, not whole cleaned
    copies."""

    parts, n_double_quotes = [], 0
    for piece in clean_pieces(extractor.normalise(text), extractor.piece_chars):
        parts.append(extractor(piece))
        n_double_quotes += count_double_quotes(piece)
    return concatenate_sequences(parts), n_double_quotes


def extract_book(
    text_path: str | os.PathLike[str],
    provenance_path: str | os.PathLike[str],
    sequence_path: str | os.PathLike[str],
    book_id: int,
    extractor: ChunkCachedExtractor | None = None,
    words_path: str | os.PathLike[str] | None = None,
) -> PunctuationSequence:
    """Clean and extract one downloaded book; a book not downloaded gets an empty sequence.

    ``extractor``: e.g. one built on the workflow's tokenizer rules file (no spaCy import);
    by default one on rules exported from spaCy in this process. ``words_path``: where to
    write the book's word counts and word stream (:func:`write_words`, the stream as
    :func:`ranked_word_ids`; empty for a book not downloaded)."""
    return _extract_and_write(text_path, provenance_path, sequence_path, book_id, extractor, words_path)[0]


def _extract_and_write(
    text_path: str | os.PathLike[str],
    provenance_path: str | os.PathLike[str],
    sequence_path: str | os.PathLike[str],
    book_id: int,
    extractor: ChunkCachedExtractor | None,
    words_path: str | os.PathLike[str] | None,
) -> tuple[PunctuationSequence, dict[str, str]]:
    """:func:`extract_book`; returns the sequence as written and the file's metadata (what
    :func:`punctstyle.book.sequence_file.read_sequence` would read back)."""
    provenance = _read_json(provenance_path)
    empty = PunctuationSequence(np.zeros(0, np.uint8), np.zeros(0, np.uint32))
    if provenance["status"] != STATUS_OK:
        reason = f"download {provenance['status']}: {provenance.get('reason') or 'no reason given'}"
        if words_path is not None:
            write_words(words_path, book_id, {}, status=str(provenance["status"]), stream=np.zeros(0, np.int64))
        return write_sequence(sequence_path, book_id, empty, status=str(provenance["status"]), reason=reason)
    text = read_gzip_text(text_path)
    if words_path is None:
        sequence, n_double_quotes = clean_and_extract(text, extractor or ChunkCachedExtractor())
    else:
        vocabulary: dict[str, int] = {}
        sequence, n_double_quotes, stream = clean_and_extract_with_word_ids(
            text, extractor or ChunkCachedExtractor(), vocabulary
        )
        words, counts, ranked = ranked_word_ids(vocabulary, stream)
        write_words(words_path, book_id, dict(zip(words, counts.tolist())), stream=ranked)
    return write_sequence(
        sequence_path,
        book_id,
        sequence,
        status=STATUS_OK,
        encoding=str(provenance.get("encoding", "")),
        n_double_quotes=n_double_quotes,
    )


def extract_book_files(
    text_path: str | os.PathLike[str],
    provenance_path: str | os.PathLike[str],
    book_id: int,
    *,
    sequence_path: str | os.PathLike[str],
    words_path: str | os.PathLike[str],
    features_path: str | os.PathLike[str],
    rule: InclusionRule,
    excerpt_marks: int | None = None,
    extractor: ChunkCachedExtractor | None = None,
) -> tuple[PunctuationSequence, dict[str, object]]:
    """Rule ``extract_book``: a downloaded book's three files in one pass, the sequence file,
    the words file (counts and stream) and the feature row(s), each written atomically; returns
    the sequence and the features record (:func:`punctstyle.book.feature_rows.write_book_features`).

    The same files as :func:`extract_book` followed by
    :func:`punctstyle.book.feature_rows.book_features` on the sequence file just written, value
    for value: the features are computed from the sequence and metadata as stored, without
    reading the file back."""
    sequence, metadata = _extract_and_write(text_path, provenance_path, sequence_path, book_id, extractor, words_path)
    record = write_book_features(sequence, metadata, features_path, book_id, rule, excerpt_marks)
    return sequence, record
