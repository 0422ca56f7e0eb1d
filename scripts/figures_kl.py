"""Rule figures_kl (:func:`punctstyle.report.figure_jobs.kl_figures`)."""

from punctstyle.logs import configure_logging
from punctstyle.report.figure_jobs import kl_figures

log = configure_logging(snakemake.log[0])
wildcards = snakemake.wildcards
kl_figures(wildcards.task, wildcards.feature, snakemake.input, snakemake.output, log)
