"""Rule config_used (:func:`punctstyle.report.figure_jobs.config_page`)."""

from punctstyle.logs import configure_logging
from punctstyle.report.figure_jobs import config_page

config_page(snakemake.params.config, snakemake.output, configure_logging(snakemake.log[0]))
