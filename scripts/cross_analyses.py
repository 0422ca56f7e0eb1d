"""Rule cross_analyses (issue 25): across genres and forms, through translators, the shape of the
gaps (:func:`punctstyle.jobs.cross.cross_analyses_job`)."""

from punctstyle.jobs.cross import cross_analyses_job
from punctstyle.logs import configure_logging, job_cost_line

log = configure_logging(snakemake.log[0])

inputs, params = snakemake.input, snakemake.params
cross_analyses_job(
    table=inputs.table, selection=inputs.selection, catalog=inputs.catalog, sequences=inputs.sequences,
    output=snakemake.output, cross=params.cross, classifiers=params.classifiers, min_docs_per_author=params.min_docs_per_author,
    config=snakemake.config, threads=snakemake.threads, log=log, texts=inputs.get("texts", []),
)  # fmt: skip
log.info("%s", job_cost_line())
