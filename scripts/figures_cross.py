"""Rule figures_cross: the figures and the report table of issue 25
(:func:`punctstyle.report.cross_figures.figures_cross_job`)."""

from punctstyle.logs import configure_logging, job_cost_line
from punctstyle.report.cross_figures import figures_cross_job

log = configure_logging(snakemake.log[0])
figures_cross_job(tables=snakemake.input, output=snakemake.output, log=log)
log.info("%s", job_cost_line())
