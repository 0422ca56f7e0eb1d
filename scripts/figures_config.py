"""Rule config_used (:func:`punctstyle.report.figure_jobs.config_page`)."""

from punctstyle.logs import configure_logging, job_cost_line
from punctstyle.report.figure_jobs import config_page

log = configure_logging(snakemake.log[0])
config_page(snakemake.params.config, snakemake.output, log)
log.info("%s", job_cost_line())
