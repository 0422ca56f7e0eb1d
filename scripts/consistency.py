"""Rule consistency: one (task, feature): class consistency, baseline, KS, top-k KL matrices."""

import sys

import pandas as pd

from punctstyle.analysis import consistency_analysis, labelled_rows, task_column
from punctstyle.consistency_files import (
    skipped_summary,
    write_consistency_table,
    write_heatmaps,
    write_summary,
    write_values,
)
from punctstyle.logs import configure_logging

log = configure_logging(snakemake.log[0])
task, feature = snakemake.wildcards.task, snakemake.wildcards.feature
params = snakemake.params
output = snakemake.output

table = pd.read_parquet(snakemake.input[0])
n_classes = labelled_rows(table, task)[task_column(task)].nunique()
if n_classes < 2:
    reason = f"skipped: the corpus has {n_classes} {task} class(es) with documents, at least 2 are needed"
    log.warning("%s %s %s", task, feature, reason)
    write_consistency_table(output.table, pd.DataFrame(columns=["class", "n_docs", "consistency"]))
    write_summary(output.summary, skipped_summary(task, feature, reason))
    write_values(output.values)
    write_heatmaps(output.heatmaps, {})
    sys.exit(0)

result = consistency_analysis(
    table,
    task,
    feature,
    baseline_pairs=params.baseline_pairs,
    seed=params.seed,
    top_k=params.top_k if task == "author" else (),
)
write_consistency_table(output.table, result.report.table)
write_values(output.values, result.report.within, result.report.cross)
write_heatmaps(output.heatmaps, result.heatmaps)
summary = result.summary()
write_summary(output.summary, summary)
log.info("%s", summary)
