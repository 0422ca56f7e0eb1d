"""Rule f3_importance: permutation importance of the f3 entries and top-k accuracy (author task)."""

import pandas as pd

from punctstyle.analysis import labelled_rows
from punctstyle.classifiers import build_classifier
from punctstyle.corpus import feature_matrix
from punctstyle.importance import importance_analysis, importance_table, top_k_table, top_transitions
from punctstyle.io import atomic_open, write_json_atomic, write_text_atomic
from punctstyle.logs import configure_logging
from punctstyle.render import markdown_table

log = configure_logging(snakemake.log[0])
params, output = snakemake.params, snakemake.output
# the device decides where the network runs, not what it computes: read at run time, not a param
device = snakemake.config["recognition"]["mlp"]["device"]
options = {"mlp": {"params": params.mlp, "device": device, "num_threads": snakemake.threads}}


def make_for_seed(seed):
    def make(method):
        return build_classifier(method, seed=seed, feature_set=("f3",), **options.get(method, {}))

    return make


table = labelled_rows(pd.read_parquet(snakemake.input[0]), "author")
rows, record = importance_analysis(
    feature_matrix(table, "f3"), table["author"].to_numpy(dtype=object), class_sizes=params.class_sizes,
    seeds=params.seeds, make_for_seed=make_for_seed, log=log.info, task="author",
    test_fraction=params.test_fraction, top_k=params.top_k, repeats=params.repeats,
    holdout_fraction=params.holdout_fraction,
)
if record["status"] != "done":
    log.warning("f3 importance skipped: %s", record["reason"])
importance, top_k = importance_table(rows), top_k_table(rows)
for frame, path in ((importance, output.importance), (top_k, output.top_k)):
    with atomic_open(path, "w", newline="") as handle:
        frame.to_csv(handle, index=False)
top = top_transitions(importance, 10)
text = markdown_table(top, {"importance": ".4f", "sd": ".4f"}) if len(top) else f"No rows: {record['reason']}\n"
write_text_atomic(output.top_transitions, text)
write_json_atomic(output.summary, record)
log.info("f3 importance: %s, class sizes %s\n%s", record["status"], record.get("class_sizes"), text)
