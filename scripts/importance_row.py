"""Rule f3_importance_row: permutation importance of the f3 entries and top-k accuracies of one
(class size, seed) row of the author task (the sample and split of Tables 2-3)."""

import pandas as pd

from punctstyle.analysis import labelled_rows
from punctstyle.classifiers import build_classifier
from punctstyle.classifiers.options import options_by_classifier
from punctstyle.corpus import feature_matrix, text_groups
from punctstyle.importance import capped_class_size, importance_row, write_importance_row
from punctstyle.logs import configure_logging, job_cost_line

log = configure_logging(snakemake.log[0])
params, wildcards = snakemake.params, snakemake.wildcards
seed = int(wildcards.seed)
options = options_by_classifier(snakemake.config, {"mlp": params.mlp}, snakemake.threads)


def make(method):
    return build_classifier(method, seed=seed, feature_set=("f3",), **options.get(method, {}))


table = labelled_rows(pd.read_parquet(snakemake.input[0]), "author")
labels = table["author"].to_numpy(dtype=object)
n_available = len(set(labels))
n_classes = capped_class_size(int(wildcards.classes), n_available)
if n_classes is None:
    reason = f"the corpus has {n_available} author(s) with f3 rows, at least 2 are needed"
    log.warning("f3 importance skipped: %s", reason)
    write_importance_row(snakemake.output[0], None, reason)
else:
    row = importance_row(
        feature_matrix(table, "f3"), labels, n_classes=n_classes, seed=seed, task="author",
        test_fraction=params.test_fraction, top_k=params.top_k, repeats=params.repeats,
        holdout_fraction=params.holdout_fraction, make=make, groups=text_groups(table),
    )
    if row.ranking is None:
        log.info("%d classes, seed %d: no training book could be held out, no top-k rows", n_classes, seed)
    write_importance_row(snakemake.output[0], row)
    log.info("f3 importance: %d classes (requested %s), seed %d", n_classes, wildcards.classes, seed)
log.info("%s", job_cost_line())
