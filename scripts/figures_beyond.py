"""Rules figures_f3_importance and figures_parts (:func:`punctstyle.report.beyond_figures.beyond_figures`)."""

from punctstyle.logs import configure_logging
from punctstyle.report.beyond_figures import beyond_figures

beyond_figures(snakemake.rule, snakemake.input, snakemake.output, configure_logging(snakemake.log[0]))
