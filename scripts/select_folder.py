"""Checkpoint select_books for a folder corpus (:func:`punctstyle.sources.folder_job.select_folder_job`)."""

from punctstyle.logs import configure_logging
from punctstyle.sources.folder_job import select_folder_job

log = configure_logging(snakemake.log[0])
select_folder_job(snakemake.params, snakemake.input, snakemake.output, log)
