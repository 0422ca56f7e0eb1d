"""Rule figures_corpus (:func:`punctstyle.report.figure_jobs.corpus_figures`)."""

from punctstyle.logs import configure_logging, job_cost_line
from punctstyle.report.figure_jobs import corpus_figures

log = configure_logging(snakemake.log[0])
corpus_figures(snakemake.input, snakemake.output, log)
log.info("%s", job_cost_line())
