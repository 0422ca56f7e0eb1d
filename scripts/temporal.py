"""Rule temporal: the temporal analysis of section 5 (:func:`punctstyle.jobs.temporal.temporal_job`)."""

from punctstyle.logs import configure_logging, job_cost_line
from punctstyle.jobs.temporal import temporal_job

log = configure_logging(snakemake.log[0])
params = snakemake.params
temporal_job(params.temporal, params.publication_years_csv, snakemake.input, snakemake.output, log)
log.info("%s", job_cost_line())
