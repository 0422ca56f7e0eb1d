"""Rule figures_kl_heatmaps (:func:`punctstyle.report.figure_jobs.kl_heatmap_figures`)."""

from punctstyle.logs import configure_logging
from punctstyle.report.figure_jobs import kl_heatmap_figures

log = configure_logging(snakemake.log[0])
feature, top_k = snakemake.wildcards.feature, snakemake.params.top_k
kl_heatmap_figures(feature, top_k, snakemake.input, snakemake.output, log)
