"""Rule appendix_table (:func:`punctstyle.report.appendix.appendix_job`)."""

from punctstyle.logs import configure_logging, job_cost_line
from punctstyle.report.appendix import appendix_job

log = configure_logging(snakemake.log[0])
appendix_job(snakemake.wildcards.task, snakemake.params, snakemake.input, snakemake.output, log)
log.info("%s", job_cost_line())
