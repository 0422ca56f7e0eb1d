"""Rule figures_temporal (:func:`punctstyle.report.temporal_figures.temporal_figures`)."""

from punctstyle.logs import configure_logging, job_cost_line
from punctstyle.report.temporal_figures import temporal_figures

log = configure_logging(snakemake.log[0])
temporal_figures(snakemake.params.temporal, snakemake.input, snakemake.output, log)
log.info("%s", job_cost_line())
