"""Rule book_parts: KL of each part of each corpus book to three references (:func:`punctstyle.descriptive.parts.book_parts_job`)."""

from punctstyle.logs import configure_logging, job_cost_line
from punctstyle.descriptive.parts import book_parts_job

log = configure_logging(snakemake.log[0])
book_parts_job(snakemake.params, snakemake.input, snakemake.output, log)
log.info("%s", job_cost_line())
