"""Rule figures_verification: the PAN measures against text length
(:func:`punctstyle.report.verification_figures.figures_verification_job`)."""

from punctstyle.logs import configure_logging, job_cost_line
from punctstyle.report.verification_figures import figures_verification_job

log = configure_logging(snakemake.log[0])
figures_verification_job(summary=snakemake.input.summary, output=snakemake.output, log=log)
log.info("%s", job_cost_line())
