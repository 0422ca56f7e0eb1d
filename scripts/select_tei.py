"""Checkpoint select_books for a TEI corpus (:func:`punctstyle.sources.tei_job.select_tei_job`)."""

from punctstyle.logs import configure_logging
from punctstyle.sources.tei_job import select_tei_job

log = configure_logging(snakemake.log[0])
select_tei_job(snakemake.params, snakemake.output, log)
