"""Rule consistency: one (task, feature): class consistency, baseline, KS, top-k KL matrices
(:func:`punctstyle.analyses.consistency_files.consistency_job`)."""

import pandas as pd

from punctstyle.analyses.consistency_files import consistency_job
from punctstyle.logs import configure_logging, job_cost_line

log = configure_logging(snakemake.log[0])
consistency_job(
    pd.read_parquet(snakemake.input[0]),
    snakemake.wildcards.task,
    snakemake.wildcards.feature,
    dict(snakemake.output.items()),
    baseline_pairs=snakemake.params.baseline_pairs,
    seed=snakemake.params.seed,
    top_k=snakemake.params.top_k,
    log=log,
)
log.info("%s", job_cost_line())
