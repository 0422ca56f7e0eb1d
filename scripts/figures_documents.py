"""Rule figures_documents (:func:`punctstyle.report.document_figures.document_figures`)."""

from punctstyle.logs import configure_logging, job_cost_line
from punctstyle.report.document_figures import document_figures

log = configure_logging(snakemake.log[0])
params = snakemake.params
document_figures(params.sequence_books, params.sequence_length, snakemake.input, snakemake.output, log)
log.info("%s", job_cost_line())
