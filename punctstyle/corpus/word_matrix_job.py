"""Rule corpus_words' body: the corpus documents' word counts -> one sparse word matrix
(:func:`punctstyle.corpus.words.build_word_matrix`). Whole texts: their words files' counts.
Excerpts (``extraction.excerpt_marks``): each excerpt's own counts, the words of its mark range
in its text's word stream (:func:`punctstyle.corpus.sequences.excerpt_word_spans`), so that the
matrix has one row per corpus document, keyed by the excerpt's ``book_id``."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pandas as pd

from punctstyle.book.sequence_file import read_sequence, read_word_stream, read_words
from punctstyle.corpus.sequences import book_paths, excerpt_word_spans
from punctstyle.corpus.tables import is_excerpt_table
from punctstyle.corpus.words import build_word_matrix, excerpt_word_counts, write_word_matrix
from punctstyle.io import InputError


class CorpusBooks:
    """(book_id, words, counts, n_words) of each corpus book (``corpus_ids``) among the words files
    ``paths``, in their order; each iteration reads the files anew (build_word_matrix makes two
    passes: pool, then counts)."""

    def __init__(self, paths: Sequence[str], corpus_ids: set[int]) -> None:
        self.paths, self.corpus_ids = list(paths), corpus_ids

    def __iter__(self) -> Iterator[tuple[int, Any, Any, int]]:
        for path in self.paths:
            words, counts, metadata = read_words(path)
            book_id = int(metadata["book_id"])
            if book_id in self.corpus_ids:
                yield book_id, words, counts, int(metadata["n_words"])


class CorpusExcerpts:
    """(excerpt id, words, counts, n_words) of each excerpt of the corpus table ``table``
    (``book_id``, ``source_id``, ``first_mark``, ``stop_mark``), text by text in ``source_id``
    order and by ``book_id`` within a text: the words of its mark range in the text's word
    stream (words file ``words``) cut by the text's gaps (sequence file ``sequences``):
    :func:`punctstyle.corpus.sequences.excerpt_word_spans`, then
    :func:`punctstyle.corpus.words.excerpt_word_counts`. Each iteration reads the files anew."""

    def __init__(self, table: pd.DataFrame, words: Sequence[str], sequences: Sequence[str]) -> None:
        self.table = table.sort_values(["source_id", "book_id"], kind="mergesort")
        texts = self.table["source_id"].astype(int).unique().tolist()
        self.words = dict(zip(texts, book_paths(words, texts, "words"), strict=True))
        self.sequences = dict(zip(texts, book_paths(sequences, texts, "sequence"), strict=True))

    def __iter__(self) -> Iterator[tuple[int, Any, Any, int]]:
        for text, rows in self.table.groupby("source_id", sort=True):
            sequence, _ = read_sequence(self.sequences[int(text)])
            bounds = rows[["first_mark", "stop_mark"]].to_numpy(dtype="int64")
            try:
                spans = excerpt_word_spans(sequence.gaps, bounds)
                counted = excerpt_word_counts(read_word_stream(self.words[int(text)]), spans)
            except ValueError as exc:
                raise InputError(f"{self.words[int(text)]}: {exc} (another extraction?)") from exc
            for book_id, (a, b), (words, counts) in zip(rows["book_id"].tolist(), spans.tolist(), counted, strict=True):
                yield int(book_id), words, counts, int(b - a)


def corpus_documents(corpus: str, words: Sequence[str], sequences: Sequence[str]) -> CorpusBooks | CorpusExcerpts:
    """The documents of the corpus table ``corpus`` for :func:`build_word_matrix`: its texts'
    words files (:class:`CorpusBooks`), or its excerpts cut from them (:class:`CorpusExcerpts`)."""
    table = pd.read_parquet(corpus)
    if is_excerpt_table(table):
        return CorpusExcerpts(table, words, sequences)
    return CorpusBooks(words, set(table["book_id"].astype(int)))


def corpus_words_job(
    corpus: str, words: Sequence[str], output: str, pool_per_book: int, log: Any, sequences: Sequence[str] = ()
) -> None:
    """The word matrix of the documents of the corpus table ``corpus`` (texts, or excerpts of
    them read with their texts' ``sequences``) from their ``words`` files, written to
    ``output``; a corpus document without a words file stops the job in one line."""
    corpus_ids = set(pd.read_parquet(corpus, columns=["book_id"])["book_id"].astype(int))
    matrix = build_word_matrix(corpus_documents(corpus, words, sequences), pool_per_book)
    missing = corpus_ids - set(matrix.book_ids.tolist())
    if missing:
        raise ValueError(f"{len(missing)} corpus books have no words file, e.g. book {min(missing)}")
    write_word_matrix(output, matrix)
    log.info(
        "word matrix: %d books, pool of %d words (%d per book), %d non-zero exact counts",
        matrix.book_ids.size,
        matrix.vocabulary.size,
        matrix.pool_per_book,
        matrix.counts.nnz,
    )
