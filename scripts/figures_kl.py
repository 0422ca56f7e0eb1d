"""Rule figures_kl: one task's consistency curve and KL distributions for one feature."""

from punctstyle.analyses.consistency_files import read_consistency_table, read_summary, read_values
from punctstyle.logs import configure_logging
from punctstyle.report.plots import plot_consistency, plot_kl_distributions, save_figure
from punctstyle.report.plots.base import placeholder_figure

log = configure_logging(snakemake.log[0])
task, feature = snakemake.wildcards.task, snakemake.wildcards.feature
inputs, output = snakemake.input, snakemake.output
summary = read_summary(inputs.summary)
if "skipped" in summary:
    # classes without two documents each: the workflow plans a genre analysis only for a corpus
    # with two genres, so this is a corpus whose classes have no pairs (said on the figure)
    message = f"No {task} consistency for {feature}: {summary['skipped']}"
    save_figure(placeholder_figure(message), output.consistency, output.consistency_pdf)
    save_figure(placeholder_figure(message), output.distribution, output.distribution_pdf)
    log.info("%s", message)
else:
    table = read_consistency_table(inputs.table)
    table = table[table["consistency"].notna()]
    figure = plot_consistency(table["consistency"], table["ci_low"], table["ci_high"], summary["baseline_mean"],
                              label=task, title=f"{task} consistency, feature {feature} ({len(table)} {task}s)")
    save_figure(figure, output.consistency, output.consistency_pdf)
    within, cross = read_values(inputs.kl_values)
    figure = plot_kl_distributions(within, cross, label=task, title=f"KL divergence of {feature}, {task}s",
                                   ks=(summary["ks_statistic"], summary["ks_pvalue"]))
    save_figure(figure, output.distribution, output.distribution_pdf)
    log.info("%s %s: %d classes, baseline %.4g, KS %.3f", task, feature, len(table), summary["baseline_mean"],
             summary["ks_statistic"])
