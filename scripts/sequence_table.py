"""Rule sequence_table (:func:`punctstyle.report.sequence_table.sequence_table_job`)."""

from punctstyle.logs import configure_logging, job_cost_line
from punctstyle.report.sequence_table import sequence_table_job

log = configure_logging(snakemake.log[0])
sequence_table_job(snakemake.input, snakemake.output, log)
log.info("%s", job_cost_line())
