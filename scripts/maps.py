"""Rule corpus_map: the maps of one family of features (:func:`punctstyle.jobs.maps.corpus_map_job`)."""

from punctstyle.jobs.maps import corpus_map_job
from punctstyle.logs import configure_logging, job_cost_line

log = configure_logging(snakemake.log[0])

params = snakemake.params
corpus_map_job(
    family=snakemake.wildcards.family, tables=snakemake.input.tables, words=snakemake.input.words,
    output=snakemake.output, features=params.features, words_k=params.words_k, family_name=params.family_name,
    settings=params.settings, label_policy=params.label_policy, log=log,
)  # fmt: skip
log.info("%s", job_cost_line())
