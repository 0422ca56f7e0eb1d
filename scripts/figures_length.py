"""Rule figures_length_curve (:func:`punctstyle.report.figure_jobs.length_figures`)."""

from punctstyle.logs import configure_logging, job_cost_line
from punctstyle.report.figure_jobs import length_figures

log = configure_logging(snakemake.log[0])
length_figures(snakemake.input, snakemake.output, log)
log.info("%s", job_cost_line())
