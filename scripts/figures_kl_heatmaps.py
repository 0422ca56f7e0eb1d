"""Rule figures_kl_heatmaps: one feature's KL heat maps of the k most consistent authors."""

from punctstyle.analyses.consistency_files import heatmap_key, read_heatmaps, read_summary
from punctstyle.logs import configure_logging
from punctstyle.report.plots import plot_kl_heatmap, save_figure
from punctstyle.report.plots.base import placeholder_figure

log = configure_logging(snakemake.log[0])
feature = snakemake.wildcards.feature
output = snakemake.output
summary = read_summary(snakemake.input.summary)
heatmaps = read_heatmaps(snakemake.input.heatmaps)
for k, png, pdf in zip(snakemake.params.top_k, output.heatmaps, output.heatmaps_pdf, strict=True):
    key = heatmap_key(k, heatmaps)
    if key is None:
        reason = summary.get("skipped", "no author has a consistency value")
        figure = placeholder_figure(f"No heat map: {reason}", title=f"{feature}, {k} most consistent authors")
        save_figure(figure, png, pdf)
        log.info("no heat map for k = %d: %s", k, reason)
        continue
    heatmap = heatmaps[key]
    title = f"{feature}: {key} most consistent authors, {heatmap.labels.size} documents"
    if key < k:
        title += f"\n(the corpus has {key} authors with a consistency, fewer than {k})"
    save_figure(plot_kl_heatmap(heatmap.matrix, heatmap.edges, title=title), png, pdf)
    log.info("heat map of %d authors, %d documents", key, heatmap.labels.size)
