"""Rule recognition: Tables 2-4 rows of one task and seed (KL nearest class and the MLP)."""

from pathlib import Path

import pandas as pd

from punctstyle.analysis import labelled_rows, recognition_run, task_column
from punctstyle.io import atomic_open, write_parquet_atomic
from punctstyle.logs import configure_logging
from punctstyle.marks import FEATURES
from punctstyle.recognition import MLPParams, save_model

log = configure_logging(snakemake.log[0])
task, seed = snakemake.wildcards.task, int(snakemake.wildcards.seed)
options = snakemake.params.recognition
mlp = options["mlp"]
output = snakemake.output

tables = {name: pd.read_parquet(path) for name, path in zip(FEATURES, snakemake.input)}
models_dir = Path(output.models)
models_dir.mkdir(parents=True, exist_ok=True)
n_classes = labelled_rows(tables["f1"], task)[task_column(task)].nunique()
if n_classes < 2:
    log.warning("skipped: the corpus has %d %s class(es), at least 2 are needed", n_classes, task)
    run = None
else:
    run = recognition_run(
        tables,
        task,
        seed,
        class_sizes=options["class_sizes"],
        kl_features=options["kl_features"],
        mlp_feature_sets=options["mlp_feature_sets"],
        mlp_params=MLPParams(
            hidden=mlp["hidden_units"],
            learning_rate=mlp["learning_rate"],
            batch_size=mlp["batch_size"],
            max_epochs=mlp["max_epochs"],
            patience=mlp["patience"],
            validation_fraction=mlp["validation_fraction"],
        ),
        test_fraction=options["test_fraction"],
        device=mlp["device"],
        num_threads=snakemake.threads,
    )
results = run.results if run else pd.DataFrame(columns=["task", "n_classes", "seed", "method", "feature_set"])
with atomic_open(output.results, "w", newline="") as handle:
    results.to_csv(handle, index=False)
with atomic_open(output.per_class, "w", newline="") as handle:
    (run.per_class if run else pd.DataFrame(columns=["class", "n_test", "accuracy"])).to_csv(handle, index=False)
write_parquet_atomic(run.confusion if run else pd.DataFrame({"true": [], "predicted": [], "count": []}), output.confusion)
for experiment in run.experiments if run else []:
    if experiment.model is not None:
        save_model(models_dir / f"mlp_{experiment.feature_set}_{experiment.n_classes}classes.pt", experiment.model)
if run:
    log.info("\n%s", run.results.to_string())
