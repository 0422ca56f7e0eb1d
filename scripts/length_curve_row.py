"""Rule length_curve_row: accuracy against the excerpt length for one (class size, seed) row of
the author task (the sample and split of Tables 2-3), every configured method and training mode.

Word methods (feature sets with words<k>) also read the corpus books' texts (re-tokenized on the
tokenizer rules file, for each excerpt's words) and words files (whole-book counts, for the
row's training vocabulary)."""

import time

import numpy as np
import pandas as pd

from punctstyle.sequence_files import document_sequences
from punctstyle.corpus import text_groups
from punctstyle.featuresets import matrices_from_tables
from punctstyle.io import atomic_open
from punctstyle.length_curve import (
    EXCERPT_COLUMNS,
    RESULT_COLUMNS,
    WORD_STREAM,
    Document,
    length_curve_row,
    uses_word_features,
)
from punctstyle.classifiers.options import options_by_classifier
from punctstyle.logs import configure_logging, job_cost_line

log = configure_logging(snakemake.log[0])
params, wildcards, output = snakemake.params, snakemake.wildcards, snakemake.output
seed, requested = int(wildcards.seed), int(wildcards.classes)
# labels and ids in the corpus tables' order, exactly as the recognition rule reads them
table = pd.read_parquet(snakemake.input.table)
_, labels, book_ids = matrices_from_tables({"f1": table}, "author")
groups = text_groups(table, book_ids)  # None: whole texts
n_available = int(np.unique(labels).size)
results = pd.DataFrame(columns=RESULT_COLUMNS)
excerpts = pd.DataFrame(columns=EXCERPT_COLUMNS)
if n_available < 2:
    log.warning("skipped: the corpus has %d author(s), at least 2 are needed", n_available)
else:
    files = document_sequences(snakemake.input.sequences, table, book_ids)
    words = None
    if uses_word_features(params.methods):
        from punctstyle.tokenizer import TokenizerRules
        from punctstyle.words import CorpusWordFiles

        rules = TokenizerRules.load(snakemake.input.rules)
        words = CorpusWordFiles(book_ids.tolist(), snakemake.input.texts, snakemake.input.words, rules)

    def document(i):
        marks, gaps = files[i]
        streams = {} if words is None else {WORD_STREAM: words.stream(i, marks, gaps)}
        return Document(int(book_ids[i]), marks, gaps, streams)

    options = options_by_classifier(snakemake.config, {"mlp": params.mlp}, snakemake.threads)
    start = time.process_time()
    row = length_curve_row(
        document,
        labels,
        task="author",
        n_classes=min(requested, n_available),
        seed=seed,
        test_fraction=params.test_fraction,
        lengths=params.lengths,
        methods=params.methods,
        training=params.training,
        short_documents=params.short_documents,
        classifier_options=options,
        word_counts=None if words is None else words.counts,
        groups=groups,
    )
    results, excerpts = row.results, row.excerpts
    if row.vocabulary:
        log.info("the row's %d words (training books only), first 20: %s", len(row.vocabulary), row.vocabulary[:20])
    log.info(
        "length curve, %d authors, seed %d (%.1f CPU s):\n%s",
        min(requested, n_available),
        seed,
        time.process_time() - start,
        results.to_string(),
    )
for frame, path in ((results, output.results), (excerpts, output.excerpts)):
    with atomic_open(path, "w", newline="") as handle:
        frame.to_csv(handle, index=False)
log.info("%s", job_cost_line())
