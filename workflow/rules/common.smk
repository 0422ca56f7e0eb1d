import pandas as pd
from snakemake.utils import validate

validate(config, schema="../schemas/config.schema.yaml")

OUT = config["outdir"]


wildcard_constraints:
    book_id=r"\d+",
    feature=r"f[1-6]",


def out(path):
    """A path under the configured output folder."""
    return f"{OUT}/{path}"


def log_path(name):
    return f"{OUT}/logs/{name}.log"


FEATURE_NAMES = ["f1", "f2", "f3", "f4", "f5", "f6"]


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
    return expand(out("corpus/{feature}.parquet"), feature=FEATURE_NAMES) + [
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
