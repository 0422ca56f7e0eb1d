"""Checkpoint corpus_tables' body: gather per-book rows into one Parquet table per feature."""

from __future__ import annotations

from typing import Any

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
from punctstyle.marks import FEATURES


def corpus_tables_job(params: Any, inputs: Any, output: Any, log: Any) -> None:
    """Checkpoint corpus_tables: the selection and the per-book feature rows (``inputs``) -> one table
    per feature, the exclusions (a folder corpus' left-out metadata rows first) and the corpus
    summary (``output``); ``params``: the selection and genre settings and ``excerpt_marks``."""
    selection = pd.read_parquet(inputs.selection)
    with discarding_unreadable(inputs.rows):  # a corrupt row: deleted, remade next run
        rows = read_feature_rows(list(inputs.rows))
    corpus, exclusions = build_corpus(
        selection,
        rows,
        min_docs_per_author=params.min_docs_per_author,
        genre_shelves=params.genre_shelves,
        genre_min_docs=params.genre_min_docs,
        genre_multi_shelf_rule=params.genre_multi_shelf_rule,
        excerpt_marks=params.excerpt_marks,
    )
    for feature, path in zip(FEATURES, output.tables, strict=True):
        write_parquet_atomic(feature_table(corpus, feature), path)
    if hasattr(inputs, "metadata_exclusions"):  # a folder corpus' left-out rows first
        left_out = read_exclusions(inputs.metadata_exclusions).astype({"book_id": "Int64"})
        exclusions = pd.concat([left_out, exclusions.astype({"book_id": "Int64"})], ignore_index=True)
    write_exclusions(output.exclusions, exclusions)
    summary = corpus_summary(selection, corpus, exclusions)
    write_corpus_summary(output.summary, summary)
    log.info("corpus: %s", json.dumps(summary))
