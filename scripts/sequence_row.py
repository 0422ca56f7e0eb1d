"""Rule sequence_row: the classifier on raw punctuation sequences for one (class size, seed) row of
the author task (:func:`punctstyle.jobs.sequence.sequence_row_job`)."""

import pandas as pd

from punctstyle.classifiers.options import options_by_classifier
from punctstyle.jobs.sequence import sequence_row_job
from punctstyle.logs import configure_logging, job_cost_line

log = configure_logging(snakemake.log[0])
params, wildcards = snakemake.params, snakemake.wildcards
sequence_row_job(
    pd.read_parquet(snakemake.input.table),  # book_id, author (and an excerpt's text and marks)
    snakemake.input.sequences,
    dict(snakemake.output.items()),
    class_size=int(wildcards.classes),
    seed=int(wildcards.seed),
    test_fraction=params.test_fraction,
    classifier_options=options_by_classifier(snakemake.config, params.classifiers, snakemake.threads),
    lengths=params.lengths,
    short_documents=params.short_documents,
    log=log,
)
log.info("%s", job_cost_line())
