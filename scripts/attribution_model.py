"""Rule attribution_model: the bundle of `punctstyle attribute` (network, signatures, threshold)
(:func:`punctstyle.attribution.bundle_build.attribution_model_job`)."""

from punctstyle.attribution.bundle_build import attribution_model_job
from punctstyle.logs import configure_logging, job_cost_line

log = configure_logging(snakemake.log[0])
params = snakemake.params
attribution_model_job(snakemake.config, params, snakemake.threads, snakemake.input, snakemake.output, log)
log.info("%s", job_cost_line())
