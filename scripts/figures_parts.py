"""Rule figures_parts: the parts' KL distributions, their closeness by size and their table
(:func:`punctstyle.report.parts_figures.parts_figures_job`)."""

from punctstyle.logs import configure_logging, job_cost_line
from punctstyle.report.parts_figures import parts_figures_job

log = configure_logging(snakemake.log[0])
parts_figures_job(snakemake.input, snakemake.output, log)
log.info("%s", job_cost_line())
