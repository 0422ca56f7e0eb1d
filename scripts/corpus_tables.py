"""Rule corpus_tables: gather per-book rows into one Parquet table per feature."""

import json

import pandas as pd

from punctstyle.corpus.tables import (
    build_corpus,
    feature_table,
    read_feature_rows,
)
from punctstyle.corpus.summary import (
    corpus_summary,
    write_corpus_summary,
)
from punctstyle.corpus.exclusions import (
    read_exclusions,
    write_exclusions,
)
from punctstyle.io import discarding_unreadable, write_parquet_atomic
from punctstyle.logs import configure_logging
from punctstyle.marks import FEATURES

log = configure_logging(snakemake.log[0])
params = snakemake.params
selection = pd.read_parquet(snakemake.input.selection)
with discarding_unreadable(snakemake.input.rows):  # a corrupt row: deleted, remade next run
    rows = read_feature_rows(list(snakemake.input.rows))
corpus, exclusions = build_corpus(
    selection,
    rows,
    min_docs_per_author=params.min_docs_per_author,
    genre_shelves=params.genre_shelves,
    genre_min_docs=params.genre_min_docs,
    genre_multi_shelf_rule=params.genre_multi_shelf_rule,
    excerpt_marks=params.excerpt_marks,
)
for feature, path in zip(FEATURES, snakemake.output.tables, strict=True):
    write_parquet_atomic(feature_table(corpus, feature), path)
if hasattr(snakemake.input, "metadata_exclusions"):  # a folder corpus' left-out rows first
    left_out = read_exclusions(snakemake.input.metadata_exclusions).astype({"book_id": "Int64"})
    exclusions = pd.concat([left_out, exclusions.astype({"book_id": "Int64"})], ignore_index=True)
write_exclusions(snakemake.output.exclusions, exclusions)
summary = corpus_summary(selection, corpus, exclusions)
write_corpus_summary(snakemake.output.summary, summary)
log.info("corpus: %s", json.dumps(summary))
