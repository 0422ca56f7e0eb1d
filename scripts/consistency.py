"""Rule consistency: one (task, feature): class consistency, baseline, KS, top-k KL matrices.

When the documents are excerpts of texts (``source_id`` in the corpus table), pairs of excerpts
of one text are left out of the within-class pairs and of the baseline's population, and the
summary counts them (:mod:`punctstyle.consistency`)."""

import sys

import pandas as pd

from punctstyle.analysis import ConsistencyResult, labelled_rows, task_column
from punctstyle.consistency import consistency_run, pair_counts
from punctstyle.consistency_files import (
    skipped_summary,
    write_consistency_table,
    write_heatmaps,
    write_summary,
    write_values,
)
from punctstyle.corpus import feature_matrix, text_groups
from punctstyle.logs import configure_logging

log = configure_logging(snakemake.log[0])
task, feature = snakemake.wildcards.task, snakemake.wildcards.feature
params = snakemake.params
output = snakemake.output

table = pd.read_parquet(snakemake.input[0])
rows = labelled_rows(table, task)
labels = rows[task_column(task)].to_numpy(dtype=object)
groups = text_groups(rows)  # None: whole texts
n_classes = pd.Series(labels).nunique()
counts = pair_counts(labels, groups)
reason = None
if n_classes < 2:
    reason = f"skipped: the corpus has {n_classes} {task} class(es) with documents, at least 2 are needed"
elif counts.within == 0:
    reason = (
        f"skipped: no {task} has documents from two texts "
        f"({counts.within_same_text} pairs of excerpts of one text are left out)"
    )
if reason is not None:
    log.warning("%s %s %s", task, feature, reason)
    write_consistency_table(output.table, pd.DataFrame(columns=["class", "n_docs", "consistency"]))
    write_summary(output.summary, skipped_summary(task, feature, reason))
    write_values(output.values)
    write_heatmaps(output.heatmaps, {})
    sys.exit(0)

report, n_pairs, heatmaps = consistency_run(
    feature_matrix(rows, feature),
    labels,
    groups=groups,
    baseline_pairs=params.baseline_pairs,
    seed=params.seed,
    top_k=params.top_k if task == "author" else (),
)
result = ConsistencyResult(task, feature, report, n_pairs, heatmaps)
write_consistency_table(output.table, result.report.table)
write_values(output.values, result.report.within, result.report.cross)
write_heatmaps(output.heatmaps, result.heatmaps)
summary = result.summary()
write_summary(output.summary, summary)
log.info("%s", summary)
