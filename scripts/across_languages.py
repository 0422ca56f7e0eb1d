"""Rule across_languages: several TEI collections compared across languages
(:func:`punctstyle.jobs.across_languages.across_languages_job`)."""

from punctstyle.jobs.across_languages import across_languages_job
from punctstyle.logs import configure_logging, job_cost_line

log = configure_logging(snakemake.log[0])
across_languages_job(snakemake.params.block, dict(snakemake.output.items()), log)
log.info("%s", job_cost_line())
