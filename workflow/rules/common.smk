import pandas as pd
from snakemake.exceptions import WorkflowError
from snakemake.utils import validate

from punctstyle.settings import (
    coerce_config_types,
    config_error,
    without_execution_keys,
)
from punctstyle.vocabulary import (
    DISTRIBUTION_FEATURES,
    FEATURES,
    TASKS,
    wildcard_pattern,
)

# Nested --config values arrive as strings ('3', 'true'): give them the schema's types, then
# stop on the first problem with one line naming the key (validate() would print the whole
# schema), then let validate() fill in the schema's defaults.
config.update(coerce_config_types(config))
if config_error(config):
    raise WorkflowError(config_error(config))
validate(config, schema="../schemas/config.schema.yaml")

OUT = config["outdir"]


wildcard_constraints:
    book_id=r"\d+",
    feature=wildcard_pattern(FEATURES),
    task=wildcard_pattern(TASKS),


def out(path):
    """A path under the configured output folder."""
    return f"{OUT}/{path}"


def log_path(name):
    return f"{OUT}/logs/{name}.log"


def selected_book_ids(wildcards=None):
    """Book ids chosen by the select_books checkpoint (re-evaluated once it has run)."""
    selection = checkpoints.select_books.get().output.selection
    return (
        pd.read_parquet(selection, columns=["book_id"])["book_id"].astype(int).tolist()
    )


def all_feature_rows(wildcards):
    return expand(
        out("features/{book_id}.parquet"), book_id=selected_book_ids(wildcards)
    )


def corpus_outputs():
    return expand(out("corpus/{feature}.parquet"), feature=FEATURES) + [
        out("corpus/exclusions.csv"),
        out("corpus/summary.json"),
    ]


def consistency_tasks():
    return config["consistency"]["tasks"]


def recognition_tasks():
    tasks = ["author"]
    if config["recognition"]["genre_recognition"]:
        tasks.append("genre")
    return tasks


def recognition_class_sizes():
    """The configured class sizes as wildcard values ("10", "all"), each once."""
    return list(
        dict.fromkeys(str(size) for size in config["recognition"]["class_sizes"])
    )


def recognition_methods():
    """Classifier -> feature sets, without the classifiers configured with no feature set."""
    return {
        name: sets for name, sets in config["recognition"]["methods"].items() if sets
    }


def recognition_mlp_params():
    """The MLP settings that decide the results (not threads or device); none without an MLP."""
    if "mlp" not in recognition_methods():
        return {}
    return without_execution_keys(config)["recognition"]["mlp"]


def recognition_row_files(task, name, class_sizes=None):
    """One file per (class size, seed) row of a task: name is results, per_class, ..."""
    return expand(
        out("analysis/recognition/{task}/{classes}_classes/seed{seed}_{name}"),
        task=task,
        classes=class_sizes or recognition_class_sizes(),
        seed=config["recognition"]["seeds"],
        name=name,
    )


def analysis_outputs():
    return [
        out("analysis/consistency/summary.csv"),
        *expand(
            out("analysis/recognition/{task}_summary.csv"), task=recognition_tasks()
        ),
        *expand(out("analysis/recognition/{task}_tables.md"), task=recognition_tasks()),
    ]


ATTRIBUTION_FILES = ["mlp.pt", "signatures.parquet", "threshold.json", "manifest.json"]


def attribution_outputs():
    return [out(f"models/attribution/{name}") for name in ATTRIBUTION_FILES]


def attribution_sequences(wildcards):
    """Sequences of every selected book; the script keeps those of the corpus books."""
    return expand(
        out("sequences/{book_id}.parquet"), book_id=selected_book_ids(wildcards)
    )
