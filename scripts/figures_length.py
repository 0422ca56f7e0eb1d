"""Rule figures_length_curve (:func:`punctstyle.report.figure_jobs.length_figures`)."""

from punctstyle.logs import configure_logging
from punctstyle.report.figure_jobs import length_figures

length_figures(snakemake.input, snakemake.output, configure_logging(snakemake.log[0]))
