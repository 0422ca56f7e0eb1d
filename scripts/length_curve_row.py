"""Rule length_curve_row: accuracy against the excerpt length for one (class size, seed) row of
the author task (:func:`punctstyle.jobs.length_curve.length_curve_job`)."""

import pandas as pd

from punctstyle.classifiers.options import options_by_classifier
from punctstyle.jobs.length_curve import LengthCurveSettings, length_curve_job
from punctstyle.logs import configure_logging, job_cost_line

log = configure_logging(snakemake.log[0])
params, wildcards = snakemake.params, snakemake.wildcards
length_curve_job(
    pd.read_parquet(snakemake.input.table),
    snakemake.input.sequences,
    dict(snakemake.output.items()),
    LengthCurveSettings(
        test_fraction=params.test_fraction,
        lengths=params.lengths,
        methods=params.methods,
        training=params.training,
        short_documents=params.short_documents,
        classifier_options=options_by_classifier(snakemake.config, params.classifiers, snakemake.threads),
    ),
    n_classes=int(wildcards.classes),
    seed=int(wildcards.seed),
    texts=snakemake.input.get("texts", []),
    words=snakemake.input.get("words", []),
    rules=snakemake.input.get("rules"),
    fitted=snakemake.input.get("fitted", []),
    log=log,
)
log.info("%s", job_cost_line())
