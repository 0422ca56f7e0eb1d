"""Rule figures_kl: one task, every feature (:func:`punctstyle.report.figure_jobs.kl_figures`)."""

from punctstyle.logs import configure_logging, job_cost_line
from punctstyle.report.figure_jobs import kl_figures

log = configure_logging(snakemake.log[0])
kl_figures(snakemake.wildcards.task, snakemake.params.features, snakemake.input, snakemake.output, log)
log.info("%s", job_cost_line())
