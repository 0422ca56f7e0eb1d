"""Rule corpus_map_kl: the KL map of one distribution family (:func:`punctstyle.jobs.maps.kl_map_job`)."""

from punctstyle.jobs.maps import kl_map_job
from punctstyle.logs import configure_logging, job_cost_line

log = configure_logging(snakemake.log[0])

kl_map_job(coordinates=snakemake.input.coordinates, output=snakemake.output,
           family_name=snakemake.params.family_name, settings=snakemake.params.settings, log=log)
log.info("%s", job_cost_line())
