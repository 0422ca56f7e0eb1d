"""Rule recognition: one row of Tables 2-4 (a task, a class size, a seed), every configured
classifier; and the word baselines of the row (same split) when configured for the task
(:func:`punctstyle.jobs.recognition.recognition_job`)."""

import pandas as pd

from punctstyle.classifiers.options import options_by_classifier
from punctstyle.jobs.recognition import RecognitionSettings, recognition_job
from punctstyle.plan.fitted_models import consumer_class_sizes, stored_views
from punctstyle.logs import configure_logging, job_cost_line
from punctstyle.marks import FEATURES

log = configure_logging(snakemake.log[0])
wildcards, params = snakemake.wildcards, snakemake.params
recognition_job(
    {name: pd.read_parquet(path) for name, path in zip(FEATURES, snakemake.input.tables, strict=True)},
    wildcards.task,
    "all" if wildcards.classes == "all" else int(wildcards.classes),
    int(wildcards.seed),
    dict(snakemake.output.items()),
    RecognitionSettings(
        methods=params.methods,
        test_fraction=params.test_fraction,
        classifier_options=options_by_classifier(snakemake.config, params.classifiers, snakemake.threads),
        all_configured=params.all_configured,
        word_methods=params.word_methods,
        word_options=options_by_classifier(snakemake.config, params.word_classifiers, snakemake.threads),
        # the fits later analyses read: from the config, not params (switching one on reruns no row)
        store_views=stored_views(snakemake.config, wildcards.task),
        store_class_sizes=consumer_class_sizes(snakemake.config),
    ),
    word_matrix=snakemake.input.get("words"),
    log=log,
)
log.info("%s", job_cost_line())
