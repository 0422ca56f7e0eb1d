"""Rule corpus_words: the corpus books' word counts -> one sparse word matrix (punctstyle.corpus.words)."""

import pandas as pd

from punctstyle.book.sequence_file import read_words
from punctstyle.logs import configure_logging
from punctstyle.corpus.words import build_word_matrix, write_word_matrix

log = configure_logging(snakemake.log[0])
corpus_ids = set(pd.read_parquet(snakemake.input.corpus, columns=["book_id"])["book_id"].astype(int))


class CorpusBooks:
    """(book_id, words, counts, n_words) of each corpus book, in the order of the inputs; each
    iteration reads the words files anew (build_word_matrix makes two passes: pool, then counts)."""

    def __iter__(self):
        for path in snakemake.input.words:
            words, counts, metadata = read_words(path)
            book_id = int(metadata["book_id"])
            if book_id in corpus_ids:
                yield book_id, words, counts, int(metadata["n_words"])


matrix = build_word_matrix(CorpusBooks(), snakemake.params.pool_per_book)
missing = corpus_ids - set(matrix.book_ids.tolist())
if missing:
    raise ValueError(f"{len(missing)} corpus books have no words file, e.g. book {min(missing)}")
write_word_matrix(snakemake.output[0], matrix)
log.info(
    "word matrix: %d books, pool of %d words (%d per book), %d non-zero exact counts",
    matrix.book_ids.size,
    matrix.vocabulary.size,
    matrix.pool_per_book,
    matrix.counts.nnz,
)
