"""Rule consistency: one (task, feature): class consistency, baseline, KS, top-k KL matrices."""

import sys

import numpy as np
import pandas as pd

from punctstyle.analysis import consistency_analysis, labelled_rows, task_column
from punctstyle.io import atomic_open, write_json_atomic
from punctstyle.logs import configure_logging

log = configure_logging(snakemake.log[0])
task, feature = snakemake.wildcards.task, snakemake.wildcards.feature
options = snakemake.params.consistency
output = snakemake.output

table = pd.read_parquet(snakemake.input[0])
n_classes = labelled_rows(table, task)[task_column(task)].nunique()
if n_classes < 2:
    reason = f"skipped: the corpus has {n_classes} {task} class(es) with documents, at least 2 are needed"
    log.warning("%s %s %s", task, feature, reason)
    pd.DataFrame(columns=["class", "n_docs", "consistency"]).to_csv(output.table, index=False)
    write_json_atomic(output.summary, {"task": task, "feature": feature, "skipped": reason})
    for path in (output.values, output.heatmaps):
        with atomic_open(path, "wb") as handle:
            np.savez_compressed(handle)
    sys.exit(0)

result = consistency_analysis(
    table,
    task,
    feature,
    baseline_pairs=options["baseline_pairs"],
    seed=options["seed"],
    top_k=options["top_k"] if task == "author" else (),
)
with atomic_open(output.table, "w", newline="") as handle:
    result.report.table.to_csv(handle, index=False)
with atomic_open(output.values, "wb") as handle:
    np.savez_compressed(handle, within=result.report.within, cross=result.report.cross)
heatmaps = {}
for k, (matrix, labels, edges) in result.heatmaps.items():
    heatmaps[f"matrix_top{k}"] = matrix.astype(np.float32)
    heatmaps[f"labels_top{k}"] = np.asarray(labels, dtype=str)
    heatmaps[f"edges_top{k}"] = edges
with atomic_open(output.heatmaps, "wb") as handle:
    np.savez_compressed(handle, **heatmaps)
summary = result.summary()
write_json_atomic(output.summary, summary)
log.info("%s", summary)
