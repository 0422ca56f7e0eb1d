"""Rules figures_f3_importance and figures_parts (:func:`punctstyle.report.beyond_figures.beyond_figures`)."""

from punctstyle.logs import configure_logging, job_cost_line
from punctstyle.report.beyond_figures import beyond_figures

log = configure_logging(snakemake.log[0])
beyond_figures(snakemake.rule, snakemake.input, snakemake.output, log)
log.info("%s", job_cost_line())
