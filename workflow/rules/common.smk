import json
import os
from functools import lru_cache

import pandas as pd
from snakemake.exceptions import WorkflowError
from snakemake.utils import validate

from punctstyle.folder_corpus import metadata_columns
from punctstyle.io import InputError
from punctstyle.scheduler_timers import coalesce_reevaluation_timers
from punctstyle.settings import (
    coerce_config_types,
    config_error,
    without_execution_keys,
)
from punctstyle.skipped import skip_lines
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

# One pending scheduler re-evaluation timer instead of one chain of passes per finished job
# (punctstyle.scheduler_timers: the main process's CPU per job otherwise grows with the run).
coalesce_reevaluation_timers()


wildcard_constraints:
    book_id=r"\d+",
    feature=wildcard_pattern(FEATURES),
    task=wildcard_pattern(TASKS),


def out(path):
    """A path under the configured output folder."""
    return f"{OUT}/{path}"


def log_path(name):
    return f"{OUT}/logs/{name}.log"


# ------------------------------------------------------------------ source: gutenberg | folder
SOURCE = config["source"]


def folder_metadata_path():
    """The folder corpus' metadata CSV (folder.metadata, else metadata.csv in folder.path)."""
    folder = config["folder"]
    if not folder["path"]:
        raise WorkflowError(
            "config folder.path: needed with source: folder (the folder of texts)"
        )
    if not os.path.isdir(folder["path"]):
        raise WorkflowError(f"config folder.path: {folder['path']} is not a folder")
    path = folder["metadata"] or os.path.join(folder["path"], "metadata.csv")
    if not os.path.isfile(path):
        raise WorkflowError(
            f"config folder.metadata: {path} is not a file (a CSV with columns file, author)"
        )
    return path


def folder_columns():
    """The metadata CSV's columns with a value (a bad CSV stops the run in one line)."""
    try:
        return metadata_columns(folder_metadata_path())
    except InputError as exc:
        raise WorkflowError(str(exc)) from None


FOLDER_COLUMNS = folder_columns() if SOURCE == "folder" else []


def skipped_analyses():
    """(analysis, cause) of each analysis the metadata cannot feed (known before the run)."""
    if SOURCE != "folder":
        return []
    skipped = []
    if "genre" not in FOLDER_COLUMNS:
        skipped.append(
            ("genre analysis", "the metadata CSV has no genre column (or it is empty)")
        )
    if not {"year", "author_birth", "author_death"} & set(FOLDER_COLUMNS):
        skipped.append(
            (
                "temporal analysis",
                "the metadata CSV has no year, author_birth or author_death values",
            )
        )
    return skipped


def genre_analysis_configured():
    """True when a genre analysis (consistency or recognition) is planned."""
    return (
        "genre" in configured_consistency_tasks()
        or "genre" in configured_recognition_tasks()
    )


def without_unfed_genre(tasks):
    """tasks without "genre" when the corpus has fewer than two genres to compare (read from the
    corpus tables' summary: input functions only)."""
    if "genre" in tasks and corpus_class_count("genre") < 2:
        return [task for task in tasks if task != "genre"]
    return tasks


def analysis_skipped(name):
    return any(analysis == name for analysis, _ in skipped_analyses())


def corpus_genre_shelves():
    """genres.shelves for Gutenberg bookshelves; every genre of the CSV for a folder corpus."""
    return None if SOURCE == "folder" else config["genres"]["shelves"]


def corpus_table_extra_inputs(wildcards):
    """A folder corpus' left-out metadata rows, added to exclusions.csv."""
    if SOURCE != "folder":
        return {}
    return {"metadata_exclusions": out("corpus/metadata_exclusions.csv")}


@lru_cache(maxsize=4)
def _folder_documents(selection, mtime):
    frame = pd.read_parquet(selection, columns=["book_id", "doc_id", "file", "path"])
    return {
        int(row.book_id): (row.doc_id, row.file, row.path) for row in frame.itertuples()
    }


def folder_document(wildcards):
    """(doc_id, file, path) of a folder corpus document, from the selection checkpoint (path:
    the file resolved inside the folder, punctstyle.folder_corpus.resolve_document)."""
    selection = checkpoints.select_books.get().output.selection
    documents = _folder_documents(selection, os.path.getmtime(selection))
    return documents[int(wildcards.book_id)]


def folder_document_path(wildcards):
    return folder_document(wildcards)[2]


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


PER_BOOK_FILES = [
    "books/{book_id}.json",
    "books/{book_id}.txt.gz",
    "sequences/{book_id}.parquet",
    "words/{book_id}.parquet",
    "features/{book_id}.parquet",
]


def per_book_files(wildcards):
    """Every per-book file of the selected books, an input function of the target `all`.
    Snakemake reruns nothing for a missing intermediate file whose consumers are up to date,
    but a missing input of the target makes the job that writes it run, and every job
    downstream of it (a deleted books/{id}.json retries the book)."""
    return expand(
        [out(path) for path in PER_BOOK_FILES], book_id=selected_book_ids(wildcards)
    )


def corpus_outputs():
    return expand(out("corpus/{feature}.parquet"), feature=FEATURES) + [
        out("corpus/exclusions.csv"),
        out("corpus/summary.json"),
    ]


def configured_consistency_tasks():
    """consistency.tasks, less the genre analysis a folder corpus' metadata cannot feed."""
    tasks = config["consistency"]["tasks"]
    if analysis_skipped("genre analysis"):
        return [task for task in tasks if task != "genre"]
    return tasks


def configured_recognition_tasks():
    """author, and genre when recognition.genre_recognition and the metadata can feed it."""
    tasks = ["author"]
    genre = config["recognition"]["genre_recognition"]
    if genre and not analysis_skipped("genre analysis"):
        tasks.append("genre")
    return tasks


def consistency_tasks():
    """The consistency tasks that run: those configured, less the genre analysis when the
    corpus has fewer than two genres (waits for the corpus tables: input functions only).
    """
    return without_unfed_genre(configured_consistency_tasks())


def recognition_tasks():
    """The recognition tasks that run (as consistency_tasks: input functions only)."""
    return without_unfed_genre(configured_recognition_tasks())


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


def corpus_class_count(task):
    """Authors or genres in the corpus (corpus/summary.json: authors_in_corpus, genres_in_corpus);
    waits for the corpus_tables checkpoint (input functions only)."""
    summary = checkpoints.corpus_tables.get().output.summary
    with open(summary, encoding="utf-8") as handle:
        return int(json.load(handle)[f"{task}s_in_corpus"])


def corpus_row_files(task, name):
    """recognition_row_files of the rows that compute something: a class size at or above the
    corpus' classes is the "all" row's experiment (analysis.duplicates_full_corpus_row), so with
    "all" configured it is not run at all (on the development mirror 45 of the 70 default rows
    of both tasks). An input function's helper: it waits for the corpus tables."""
    sizes = recognition_class_sizes()
    if "all" in sizes:
        n_classes = corpus_class_count(task)
        sizes = [size for size in sizes if size == "all" or int(size) < n_classes]
    return recognition_row_files(task, name, sizes)


def analysis_outputs(wildcards):
    """Consistency and recognition summaries (an input function of the target rule all; the genre task
    runs only when the corpus tables hold two genres)."""
    return [
        out("analysis/consistency/summary.csv"),
        *expand(
            out("analysis/recognition/{task}_summary.csv"), task=recognition_tasks()
        ),
        *expand(out("analysis/recognition/{task}_tables.md"), task=recognition_tasks()),
        out("analysis/skipped_analyses.csv"),
    ]


ATTRIBUTION_FILES = ["mlp.pt", "signatures.parquet", "threshold.json", "manifest.json"]


def attribution_outputs():
    """The `punctstyle attribute` bundle; [] with attribution.enabled: false."""
    if not config["attribution"]["enabled"]:
        return []
    return [out(f"models/attribution/{name}") for name in ATTRIBUTION_FILES]


def attribution_sequences(wildcards):
    """Sequences of every selected book; the script keeps those of the corpus books."""
    return expand(
        out("sequences/{book_id}.parquet"), book_id=selected_book_ids(wildcards)
    )


def skipped_analysis_lines():
    """Lines of analysis/skipped_analyses.csv (for the end of a run), if it exists."""
    path = out("analysis/skipped_analyses.csv")
    if not os.path.isfile(path):
        return [f"skipped {a}: {c}" for a, c in skipped_analyses()]
    return skip_lines(pd.read_csv(path, dtype=str, keep_default_na=False))
