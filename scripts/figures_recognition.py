"""Rule figures_recognition (:func:`punctstyle.report.figure_jobs.recognition_figures`)."""

from punctstyle.logs import configure_logging, job_cost_line
from punctstyle.report.figure_jobs import recognition_figures

log = configure_logging(snakemake.log[0])
recognition_figures(snakemake.wildcards.task, snakemake.input, snakemake.output, log, snakemake.params.class_sizes)
log.info("%s", job_cost_line())
