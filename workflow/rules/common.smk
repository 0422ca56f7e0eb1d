import json
import os
from functools import lru_cache

import pandas as pd
from snakemake.exceptions import WorkflowError
from snakemake.utils import validate

from punctstyle.analyses.paper import word_methods
from punctstyle.sources.folder import metadata_columns
from punctstyle.io import InputError
from punctstyle.plan import rows as plan_rows
from punctstyle.plan import sources as plan_sources
from punctstyle.plan import targets as plan_targets
from punctstyle.plan.scheduler_timers import install_for_workflow
from punctstyle.plan.console import install_short_job_listing
from punctstyle.settings import (
    coerce_config_types,
    config_error,
    without_execution_keys,
)
from punctstyle.analyses.skipped import skip_lines
from punctstyle.rule_names import (
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
# (punctstyle.plan.scheduler_timers: the main process's CPU per job otherwise grows with the
# run); guarded (a mismatch warns once and keeps Snakemake's own); scheduler_timers: false or
# PUNCTSTYLE_SCHEDULER_TIMERS=off switches it off.
install_for_workflow(config["scheduler_timers"])
# each job's listing on the console: a few paths of each list (punctstyle.plan.console)
install_short_job_listing()


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
    """(analysis, cause) of each analysis the metadata cannot feed (punctstyle.plan.sources)."""
    return plan_sources.skipped_analyses(SOURCE, FOLDER_COLUMNS)


def genre_analysis_configured():
    """True when a genre analysis (consistency or recognition) is planned."""
    return (
        "genre" in configured_consistency_tasks()
        or "genre" in configured_recognition_tasks()
    )


def without_unfed_genre(tasks):
    """tasks without "genre" when the corpus has fewer than two genres (input functions only)."""
    return plan_rows.without_unfed_genre(tasks, corpus_class_count)


def analysis_skipped(name):
    return plan_rows.is_skipped(skipped_analyses(), name)


def corpus_genre_shelves():
    return plan_sources.corpus_genre_shelves(config)


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
    the file resolved inside the folder, punctstyle.sources.folder.resolve_document)."""
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
    return plan_rows.configured_consistency_tasks(config, skipped_analyses())


def configured_recognition_tasks():
    return plan_rows.configured_recognition_tasks(config, skipped_analyses())


def consistency_tasks():
    """The consistency tasks that run: those configured, less the genre analysis when the
    corpus has fewer than two genres (waits for the corpus tables: input functions only).
    """
    return without_unfed_genre(configured_consistency_tasks())


def recognition_tasks():
    """The recognition tasks that run (as consistency_tasks: input functions only)."""
    return without_unfed_genre(configured_recognition_tasks())


def recognition_class_sizes():
    return plan_rows.recognition_class_sizes(config)


def recognition_methods():
    return plan_rows.recognition_methods(config)


def recognition_mlp_params():
    return plan_rows.mlp_params(config, recognition_methods())


def recognition_row_files(task, name, class_sizes=None):
    """One file per (class size, seed) row of a task: name is results, per_class, ..."""
    return plan_targets.recognition_row_files(config, task, name, class_sizes)


def excerpt_skips():
    return plan_rows.excerpt_skips(config)


def word_tasks():
    """Recognition tasks whose rows also run the word baselines (plan.rows.word_tasks); a genre
    row runs only when the corpus holds two genres (figure_rule_wildcards)."""
    return plan_rows.word_tasks(config, skipped_analyses())


def recognition_word_methods(task):
    """Classifier -> word sets, one per k (featuresets.expand_word_sets); {} when off."""
    if task not in word_tasks():
        return {}
    return word_methods(config["recognition"]["words"], task)


def recognition_word_mlp_params(task):
    """The MLP settings of the word baselines (those of Tables 2-3); none without an MLP."""
    return plan_rows.mlp_params(config, recognition_word_methods(task))


def recognition_inputs(wildcards):
    """The recognition rule's inputs: the feature tables, and the word matrix when needed."""
    inputs = {"tables": expand(out("corpus/{feature}.parquet"), feature=FEATURES)}
    if wildcards.task in word_tasks():
        inputs["words"] = out("corpus/words.npz")
    return inputs


def corpus_class_count(task):
    """Authors or genres in the corpus (corpus/summary.json: authors_in_corpus, genres_in_corpus);
    waits for the corpus_tables checkpoint (input functions only)."""
    summary = checkpoints.corpus_tables.get().output.summary
    with open(summary, encoding="utf-8") as handle:
        return int(json.load(handle)[f"{task}s_in_corpus"])


def corpus_row_files(task, name):
    """recognition_row_files of the rows that compute something (plan.rows.computed_class_sizes;
    waits for the corpus tables when "all" is configured: input functions only)."""
    sizes = recognition_class_sizes()
    if "all" in sizes:
        sizes = plan_rows.computed_class_sizes(sizes, corpus_class_count(task))
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


def attribution_outputs():
    return plan_targets.attribution_outputs(config)


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
