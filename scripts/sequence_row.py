"""Rule sequence_row: the classifier on raw punctuation sequences for one (class size, seed) row of
the author task (:func:`punctstyle.jobs.sequence.sequence_row_job`)."""

import pandas as pd

from punctstyle.classifiers.options import classifier_options
from punctstyle.jobs.sequence import SEQUENCE_METHOD, sequence_row_job
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
    options=classifier_options(snakemake.config, SEQUENCE_METHOD, snakemake.threads, params.model),
    lengths=params.lengths,
    short_documents=params.short_documents,
    log=log,
)
log.info("%s", job_cost_line())
