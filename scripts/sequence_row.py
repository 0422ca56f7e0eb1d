"""Rule sequence_row: the classifier on raw punctuation sequences for one (class size, seed) row of
the author task, on the class sample and split of Tables 2-3."""

import pandas as pd

from punctstyle.sequence_files import document_sequences
from punctstyle.classifiers import build_sequence_classifier
from punctstyle.classifiers.options import classifier_options
from punctstyle.logs import configure_logging, job_cost_line
from punctstyle.sequence_recognition import (
    excerpt_accuracies,
    fit_and_score,
    sequence_row_split,
    write_length_rows,
    write_sequence_row,
)

METHOD = "sequence_cnn"

log = configure_logging(snakemake.log[0])
params, wildcards = snakemake.params, snakemake.wildcards
seed, task = int(wildcards.seed), "author"
options = classifier_options(snakemake.config, METHOD, snakemake.threads, params.model)
device = options["device"]

table = pd.read_parquet(snakemake.input.table)  # book_id, author (and an excerpt's text and marks)
try:
    data = sequence_row_split(table, task, int(wildcards.classes), seed, params.test_fraction)
except ValueError as exc:
    log.warning("sequence classifier skipped: %s", exc)
    write_sequence_row(snakemake.output.row, None)
    write_length_rows(snakemake.output.lengths, None)
else:
    documents = document_sequences(snakemake.input.sequences, table, data.book_ids)

    def make():
        return build_sequence_classifier(METHOD, seed=seed, **options)

    model, row = fit_and_score(data, documents, task=task, seed=seed, method=METHOD, make=make, device=device)
    # the test books cut to the length curve's excerpts (none when length_curve is off)
    lengths = excerpt_accuracies(model, data, documents, task=task, seed=seed, method=METHOD,
                                 lengths=params.lengths, short_documents=params.short_documents)
    write_sequence_row(snakemake.output.row, row)
    write_length_rows(snakemake.output.lengths, lengths)
    log.info("\n%s\n%s", row.T.to_string(), lengths.to_string())
log.info("%s", job_cost_line())
