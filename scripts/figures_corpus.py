"""Rule figures_corpus (:func:`punctstyle.report.figure_jobs.corpus_figures`)."""

from punctstyle.logs import configure_logging
from punctstyle.report.figure_jobs import corpus_figures

corpus_figures(snakemake.input, snakemake.output, configure_logging(snakemake.log[0]))
