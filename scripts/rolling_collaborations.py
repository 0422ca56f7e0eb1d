"""Rule rolling_collaborations: rolling attribution on synthetic collaborations of held-out books
(:func:`punctstyle.jobs.collaborations.rolling_collaborations_job`)."""

from punctstyle.jobs.collaborations import rolling_collaborations_job
from punctstyle.logs import configure_logging, job_cost_line

log = configure_logging(snakemake.log[0])

inputs = snakemake.input
rolling_collaborations_job(
    tables=inputs.tables, sequences=inputs.sequences, output=snakemake.output, settings=snakemake.params.settings,
    log=log, texts=inputs.get("texts"), word_files=inputs.get("word_files"),
    words=inputs.get("words"), rules=inputs.get("rules"),
)  # fmt: skip
log.info("%s", job_cost_line())
