"""Rule recognition: one row of Tables 2-4 (a task, a class size, a seed), every configured
classifier; and the word baselines of the row (same split) when configured for the task."""

from pathlib import Path

import pandas as pd

from punctstyle.analysis import (
    duplicates_full_corpus_row,
    labelled_rows,
    recognition_run,
    task_column,
    word_baseline_run,
)
from punctstyle.classifiers.options import options_by_classifier
from punctstyle.logs import configure_logging, job_cost_line
from punctstyle.marks import FEATURES
from punctstyle.recognition_files import write_row_files, write_word_results
from punctstyle.words import read_word_matrix

log = configure_logging(snakemake.log[0])
wildcards, params, output = snakemake.wildcards, snakemake.params, snakemake.output
task, seed = wildcards.task, int(wildcards.seed)
class_size = "all" if wildcards.classes == "all" else int(wildcards.classes)

tables = {name: pd.read_parquet(path) for name, path in zip(FEATURES, snakemake.input.tables, strict=True)}
Path(output.models).mkdir(parents=True, exist_ok=True)
n_available = labelled_rows(tables["f1"], task)[task_column(task)].nunique()
run = None
if n_available < 2:
    log.warning("skipped: the corpus has %d %s class(es), at least 2 are needed", n_available, task)
elif duplicates_full_corpus_row(class_size, n_available, params.all_configured):
    log.info(
        "skipped: %s classes cap to all %d %ss, the row computed by class size 'all'", class_size, n_available, task
    )
else:
    options = options_by_classifier(snakemake.config, {"mlp": params.mlp}, snakemake.threads)
    run = recognition_run(
        tables,
        task,
        class_size,
        seed,
        methods=params.methods,
        test_fraction=params.test_fraction,
        classifier_options=options,
    )

word_results = None
if run and params.word_methods:
    word_results = word_baseline_run(
        tables,
        task,
        class_size,
        seed,
        matrix=read_word_matrix(snakemake.input.words),
        methods=params.word_methods,
        test_fraction=params.test_fraction,
        classifier_options=options_by_classifier(snakemake.config, {"mlp": params.word_mlp}, snakemake.threads),
    )
    log.info("word baselines:\n%s", word_results.to_string())
write_word_results(output.words, word_results)
write_row_files(
    output.results,
    output.per_class,
    output.confusion,
    run.results if run else None,
    run.per_class if run else None,
    run.confusion if run else None,
)
for experiment in run.experiments if run else []:
    if experiment.model is not None and hasattr(experiment.model, "save"):
        name = f"{experiment.method}_{experiment.feature_set}_{experiment.n_classes}classes.pt"
        experiment.model.save(Path(output.models) / name)
if run:
    log.info("\n%s", run.results.to_string())
log.info("%s", job_cost_line())
