"""Rule f3_importance_row: permutation importance of the f3 entries and top-k accuracies of one
(class size, seed) row of the author task (:func:`punctstyle.jobs.importance.importance_job`)."""

import pandas as pd

from punctstyle.classifiers.options import options_by_classifier
from punctstyle.jobs.importance import importance_job
from punctstyle.logs import configure_logging, job_cost_line

log = configure_logging(snakemake.log[0])
params, wildcards = snakemake.params, snakemake.wildcards
importance_job(
    pd.read_parquet(snakemake.input[0]),
    snakemake.output[0],
    class_size=int(wildcards.classes),
    seed=int(wildcards.seed),
    test_fraction=params.test_fraction,
    top_k=params.top_k,
    repeats=params.repeats,
    holdout_fraction=params.holdout_fraction,
    classifier_options=options_by_classifier(snakemake.config, params.classifiers, snakemake.threads),
    fitted=snakemake.input.get("fitted", []),
    log=log,
)
log.info("%s", job_cost_line())
