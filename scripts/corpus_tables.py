"""Checkpoint corpus_tables (:func:`punctstyle.corpus.tables_job.corpus_tables_job`)."""

from punctstyle.logs import configure_logging, job_cost_line
from punctstyle.corpus.tables_job import corpus_tables_job

log = configure_logging(snakemake.log[0])
corpus_tables_job(snakemake.params, snakemake.input, snakemake.output, log)
log.info("%s", job_cost_line())
