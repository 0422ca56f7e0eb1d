"""Rule verification: General Imposters calibrated on held-out corpus texts; the PAN measures
and the bundle's verification files (punctstyle.attribution.verification_run)."""

import pandas as pd

from punctstyle.attribution.verification_run import VerificationSettings, verification_job
from punctstyle.logs import configure_logging, job_cost_line
from punctstyle.rule_names import FEATURES

log = configure_logging(snakemake.log[0])
inputs = snakemake.input
tables = {name: pd.read_parquet(path) for name, path in zip(FEATURES, inputs.tables, strict=True)}
settings = VerificationSettings.from_config(dict(snakemake.params.settings))
summary = verification_job(
    tables,
    list(inputs.sequences),
    dict(snakemake.output.items()),
    settings,
    word_matrix=inputs.get("word_matrix"),
    texts=list(inputs.get("texts", [])),
    words=list(inputs.get("words", [])),
    rules=inputs.get("rules"),
    log=log.info,
)
log.info("verification: %d family-length rows", len(summary))
log.info("%s", job_cost_line())
