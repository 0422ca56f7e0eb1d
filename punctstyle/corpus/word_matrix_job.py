"""Rule corpus_words' body: the corpus books' word counts -> one sparse word matrix
(:func:`punctstyle.corpus.words.build_word_matrix`)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pandas as pd

from punctstyle.book.sequence_file import read_words
from punctstyle.corpus.words import build_word_matrix, write_word_matrix


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


def corpus_words_job(corpus: str, words: Sequence[str], output: str, pool_per_book: int, log: Any) -> None:
    """The word matrix of the books of the corpus table ``corpus`` from their ``words`` files,
    written to ``output``; a corpus book without a words file stops the job in one line."""
    corpus_ids = set(pd.read_parquet(corpus, columns=["book_id"])["book_id"].astype(int))
    matrix = build_word_matrix(CorpusBooks(words, corpus_ids), pool_per_book)
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
