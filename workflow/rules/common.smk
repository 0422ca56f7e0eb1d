# The configuration, the plan (punctstyle.plan.workflow.WorkflowPlan: the config and a folder
# corpus' columns, read once; punctstyle.plan.analyses: each analysis' targets, params and
# inputs; the plan modules' functions of the config or of PLAN, all tested without Snakemake)
# and the thin input-function wrappers that hand the checkpoints' files to them.
import os

from snakemake.exceptions import WorkflowError
from snakemake.utils import validate

from punctstyle.plan.analyses import (
    analysis_inputs,
    analysis_params,
    config_targets,
    corpus_targets,
)
from punctstyle.plan.book_jobs import (
    job_environment,
    job_server_wanted,
    start_book_job_server,
)
from punctstyle.plan.fitted_models import fitted_inputs
from punctstyle.plan.checkpoints import CorpusCounts, SelectedBooks
from punctstyle.plan.priorities import rule_priority
from punctstyle.plan import corpus as plan_corpus
from punctstyle.plan import paper as plan_paper
from punctstyle.plan import rows as plan_rows
from punctstyle.plan import shapes as plan_shapes
from punctstyle.plan import sources as plan_sources
from punctstyle.plan import targets as plan_targets
from punctstyle.plan import tasks as plan_tasks
from punctstyle.plan.report import (
    Section,
    caption,
    consistency_feature,
    n_scatter_pairs,
    n_sequence_books,
    task_section,
    task_title,
)
from punctstyle.plan.workflow import WorkflowPlan, folder_metadata_path
from punctstyle.plan.rule_support import (
    DISTRIBUTION_FEATURES,
    FEATURES,
    TASKS,
    InputError,
    coerce_config_types,
    config_error,
    install_for_workflow,
    install_short_job_listing,
    wildcard_pattern,
    without_execution_keys,
)

# Nested --config values arrive as strings ('3', 'true'): give them the schema's types, then
# stop on the first problem with one line naming the key (validate() would print the whole
# schema), then let validate() fill in the schema's defaults.
config.update(coerce_config_types(config))
if config_error(config):
    raise WorkflowError(config_error(config))
validate(config, schema="../schemas/config.schema.yaml")

# One pending scheduler re-evaluation timer instead of one chain of passes per finished job
# (punctstyle.snakemake_patches.scheduler_timers); guarded (a mismatch warns once and keeps Snakemake's own);
# scheduler_timers: false or PUNCTSTYLE_SCHEDULER_TIMERS=off switches it off.
install_for_workflow(config["scheduler_timers"])
# each job's listing on the console: a few paths of each list (punctstyle.snakemake_patches.console)
install_short_job_listing()

# a bad folder corpus or publication-year CSV stops the run in one line naming the config key
try:
    PLAN = WorkflowPlan.from_config(config)
except InputError as exc:
    raise WorkflowError(str(exc)) from None
OUT, SOURCE, FLAGS = config["outdir"], config["source"], PLAN.flags
(out, log_path), png, pdf = plan_targets.output_paths(config), FLAGS.png, FLAGS.pdf
# read by the per-book rules' shell commands as $PUNCTSTYLE_JOB_PYTHON and
# $PUNCTSTYLE_DOWNLOAD_POLICY (punctstyle.plan.book_jobs: neither is a rerun trigger)
os.environ.update(
    job_environment(workflow.deployment_settings.deployment_method, config["mirror"])
)


# a local run's per-book jobs as forks of one warm process (punctstyle.book.job_server; the
# same jobs, commands and files; PUNCTSTYLE_BOOK_SERVER=off runs each as its own process)
onstart:
    if job_server_wanted(
        workflow.deployment_settings.deployment_method,
        workflow.local_exec and not workflow.touch,
        {job.rule.name for job in workflow.dag.needrun_jobs()},
        os.environ,
    ):
        start_book_job_server(os.environ)


wildcard_constraints:
    book_id=r"\d+",
    feature=wildcard_pattern(FEATURES),
    task=wildcard_pattern(TASKS),


def corpus_counts(wildcards=None):
    """Classes per task in the corpus tables (waits for the corpus_tables checkpoint)."""
    return CorpusCounts.read(checkpoints.corpus_tables.get().output.summary)


def genre_analysis_ran():
    """Whether the genre analysis runs (configured, and the corpus has two genres)."""
    counts = corpus_counts()
    return "genre" in plan_tasks.consistency_tasks(
        PLAN, counts
    ) + plan_tasks.recognition_tasks(PLAN, counts)


# the report's sections are numbered by what ran (punctstyle.plan.report.section_names)
FLAGS = FLAGS.with_genre_check(genre_analysis_ran)


def corpus_class_count(task):
    return corpus_counts()(task)


def selected_books():
    """The books of the select_books checkpoint (re-evaluated once it has run)."""
    return SelectedBooks.read(checkpoints.select_books.get().output.selection)


def selected_book_ids(wildcards=None):
    return list(selected_books().ids)


def folder_document(wildcards):
    """(doc_id, file, path) of a folder corpus document, from the selection checkpoint."""
    return selected_books().documents[int(wildcards.book_id)]


def attribution_sequences(wildcards):
    """Sequences of every selected book; the scripts keep those of the corpus books."""
    return plan_corpus.per_book(
        config, "sequences/{book_id}.parquet", selected_book_ids()
    )
