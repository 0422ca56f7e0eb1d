"""Rule config_used (:func:`punctstyle.report.config_page.config_page`)."""

from punctstyle.logs import configure_logging, job_cost_line
from punctstyle.report.config_page import config_page

log = configure_logging(snakemake.log[0])
config_page(snakemake.params.config, snakemake.output, log)
log.info("%s", job_cost_line())
