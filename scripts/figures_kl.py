"""Rule figures_kl: one feature's KL heat maps, consistency curves and KL distributions."""

from punctstyle.consistency_files import (
    heatmap_key,
    read_consistency_table,
    read_heatmaps,
    read_summary,
    read_values,
)
from punctstyle.logs import configure_logging
from punctstyle.plots import plot_consistency, plot_kl_distributions, plot_kl_heatmap, save_figure
from punctstyle.plots.base import placeholder_figure

log = configure_logging(snakemake.log[0])
feature = snakemake.wildcards.feature
params = snakemake.params
inputs = snakemake.input
output = snakemake.output
summaries = {task: read_summary(inputs[f"{task}_summary"]) for task in params.tasks}

if output.heatmaps:
    heatmaps = read_heatmaps(inputs["author_heatmaps"])
    for k, png, pdf in zip(params.top_k, output.heatmaps, output.heatmaps_pdf, strict=True):
        key = heatmap_key(k, heatmaps)
        if key is None:
            reason = summaries["author"].get("skipped", "no author has a consistency value")
            figure = placeholder_figure(f"No heat map: {reason}", title=f"{feature}, {k} most consistent authors")
            save_figure(figure, png, pdf)
            continue
        heatmap = heatmaps[key]
        title = f"{feature}: {key} most consistent authors, {heatmap.labels.size} documents"
        if key < k:
            title += f"\n(the corpus has {key} authors with a consistency, fewer than {k})"
        save_figure(plot_kl_heatmap(heatmap.matrix, heatmap.edges, title=title), png, pdf)

for task, png, pdf, png_d, pdf_d in zip(params.tasks, output.consistency, output.consistency_pdf,
                                        output.distributions, output.distributions_pdf, strict=True):
    summary = summaries[task]
    if "skipped" in summary:
        message = f"No {task} consistency for {feature}: {summary['skipped']}"
        save_figure(placeholder_figure(message), png, pdf)
        save_figure(placeholder_figure(message), png_d, pdf_d)
        continue
    table = read_consistency_table(inputs[f"{task}_table"])
    table = table[table["consistency"].notna()]
    figure = plot_consistency(table["consistency"], table["ci_low"], table["ci_high"], summary["baseline_mean"],
                              label=task, title=f"{task} consistency, feature {feature} ({len(table)} {task}s)")
    save_figure(figure, png, pdf)
    within, cross = read_values(inputs[f"{task}_values"])
    figure = plot_kl_distributions(within, cross, label=task,
                                   title=f"KL divergence of {feature}, {task}s",
                                   ks=(summary["ks_statistic"], summary["ks_pvalue"]))
    save_figure(figure, png_d, pdf_d)
    log.info("%s %s: %d classes, baseline %.4g, KS %.3f", task, feature, len(table), summary["baseline_mean"],
             summary["ks_statistic"])
