"""Rule figures_f3_importance: the f3 importance heat maps, top-k accuracies and their table
(:func:`punctstyle.report.importance_figures.importance_figures_job`)."""

from punctstyle.logs import configure_logging, job_cost_line
from punctstyle.report.importance_figures import importance_figures_job

log = configure_logging(snakemake.log[0])
importance_figures_job(snakemake.input, snakemake.output, log)
log.info("%s", job_cost_line())
