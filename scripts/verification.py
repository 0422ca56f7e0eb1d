"""Rule verification: General Imposters calibrated on held-out corpus texts
(:func:`punctstyle.jobs.verification.verification_job`)."""

from punctstyle.jobs.verification import verification_job
from punctstyle.logs import configure_logging, job_cost_line

log = configure_logging(snakemake.log[0])

inputs = snakemake.input
verification_job(
    tables=inputs.tables, sequences=inputs.sequences, output=dict(snakemake.output.items()),
    settings=snakemake.params.settings, log=log, word_matrix=inputs.get("word_matrix"),
    texts=inputs.get("texts", []), words=inputs.get("words", []), rules=inputs.get("rules"),
)  # fmt: skip
log.info("%s", job_cost_line())
