"""Rule figures_kl_heatmaps: every feature (:func:`punctstyle.report.figure_jobs.kl_heatmap_figures`)."""

from punctstyle.logs import configure_logging, job_cost_line
from punctstyle.report.figure_jobs import kl_heatmap_figures

log = configure_logging(snakemake.log[0])
params = snakemake.params
kl_heatmap_figures(params.features, params.top_k, snakemake.input, snakemake.output, log)
log.info("%s", job_cost_line())
