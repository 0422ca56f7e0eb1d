"""Rule corpus_tables: gather per-book rows into one Parquet table per feature."""

import json

import pandas as pd

from punctstyle.corpus import build_corpus, corpus_summary, feature_table, read_feature_rows
from punctstyle.io import atomic_path, write_json_atomic, write_parquet_atomic
from punctstyle.logs import configure_logging
from punctstyle.marks import FEATURES

log = configure_logging(snakemake.log[0])
genres = snakemake.params.genres
selection = pd.read_parquet(snakemake.input.selection)
rows = read_feature_rows(list(snakemake.input.rows))
corpus, exclusions = build_corpus(
    selection,
    rows,
    min_docs_per_author=snakemake.params.min_docs_per_author,
    genre_shelves=genres["shelves"],
    genre_min_docs=genres["min_docs"],
    genre_multi_shelf_rule=genres["multi_shelf_rule"],
)
for feature, path in zip(FEATURES, snakemake.output.tables):
    write_parquet_atomic(feature_table(corpus, feature), path)
with atomic_path(snakemake.output.exclusions) as tmp:
    exclusions.to_csv(tmp, index=False)
summary = corpus_summary(selection, corpus, exclusions)
write_json_atomic(snakemake.output.summary, summary)
log.info("corpus: %s", json.dumps(summary))
