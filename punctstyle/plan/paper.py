"""Planning of the paper's analyses (rule files analysis.smk and figures.smk): consistency,
recognition with its word baselines, the appendix and the figure rules, as functions of the
config or of the run's :class:`~punctstyle.plan.workflow.WorkflowPlan` (where the tasks that
run follow a folder corpus' metadata columns) and the corpus tables' counts."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from snakemake.io import expand

from punctstyle.featuresets import word_methods
from punctstyle.plan import rows, targets
from punctstyle.plan.corpus import feature_tables, per_book
from punctstyle.plan.report import consistency_feature
from punctstyle.plan.targets import out
from punctstyle.plan.tasks import (
    analysis_skipped,
    configured_recognition_tasks,
    consistency_tasks,
    recognition_tasks,
    word_tasks,
)
from punctstyle.plan.workflow import TEMPORAL_ANALYSIS, WorkflowPlan

# ------------------------------------------------------------------ consistency


def consistency_features(config: dict[str, Any]) -> list[str]:
    return list(config["consistency"]["features"])


def consistency_inputs(config: dict[str, Any]) -> list[str]:
    """The corpus table of each consistency feature (consistency.features), in their order."""
    return feature_tables(config, consistency_features(config))


def consistency_files(config: dict[str, Any], suffix: str, task: str = "{task}") -> list[str]:
    """One file of one task's consistency per feature, in :func:`consistency_inputs`' order:
    ``analysis/consistency/<task>_<feature><suffix>`` (by default ``{task}``, the rules'
    wildcard: rule consistency writes a task's files in one job, rule figures_kl reads them)."""
    return [out(config, f"analysis/consistency/{task}_{feature}{suffix}") for feature in consistency_features(config)]


def consistency_summary_inputs(plan: WorkflowPlan, counts: Callable[[str], int]) -> list[str]:
    return targets.expand_product(
        out(plan.config, "analysis/consistency/{task}_{feature}.json"),
        task=consistency_tasks(plan, counts),
        feature=plan.config["consistency"]["features"],
    )


# ------------------------------------------------------------------ recognition


def all_configured(config: dict[str, Any]) -> bool:
    """Whether class size "all" runs (a size capped to every class is that row)."""
    return "all" in rows.recognition_class_sizes(config)


def recognition_word_methods(plan: WorkflowPlan, task: str) -> dict[str, list[str]]:
    """Classifier -> word sets of a task's rows (featuresets.expand_word_sets); {} when off."""
    if task not in word_tasks(plan):
        return {}
    return word_methods(plan.config["recognition"]["words"], task)


def recognition_word_classifier_params(plan: WorkflowPlan, task: str) -> dict[str, dict[str, Any]]:
    """Classifier -> its hyper-parameters, for the word baselines' classifiers of a task
    (those of Tables 2-3: plan.rows.classifier_params); {} when off."""
    return rows.classifier_params(plan.config, recognition_word_methods(plan, task))


def recognition_inputs(plan: WorkflowPlan, task: str) -> dict[str, Any]:
    """The recognition rule's inputs: the feature tables, and the word matrix when needed."""
    inputs: dict[str, Any] = {"tables": feature_tables(plan.config)}
    if task in word_tasks(plan):
        inputs["words"] = out(plan.config, "corpus/words.npz")
    return inputs


def corpus_row_files(config: dict[str, Any], task: str, name: str, counts: Callable[[str], int]) -> list[str]:
    """recognition_row_files of the rows that compute something (plan.rows.computed_class_sizes;
    ``counts`` is asked only when "all" is configured)."""
    sizes = rows.recognition_class_sizes(config)
    if "all" in sizes:
        sizes = rows.computed_class_sizes(sizes, counts(task))
    return targets.recognition_row_files(config, task, name, sizes)


def appendix_inputs(plan: WorkflowPlan, task: str) -> dict[str, Any]:
    """The consistency table of the appendix' feature, and the full-corpus recognition rows
    (class size "all", else every size: one may cap to all) when the task is recognised."""
    inputs: dict[str, Any] = {
        "consistency": out(plan.config, f"analysis/consistency/{task}_{consistency_feature(plan.config)}.csv")
    }
    if task in configured_recognition_tasks(plan):
        sizes = ["all"] if all_configured(plan.config) else None
        inputs["per_class"] = targets.recognition_row_files(plan.config, task, "per_class.csv", sizes)
    return inputs


# ------------------------------------------------------------------ figures


def sequence_figure_inputs(config: dict[str, Any], book_ids: Iterable[int]) -> list[str]:
    """Sequence files of the configured books (figures.sequence_books), else of ``book_ids``."""
    books = config["figures"]["sequence_books"]
    return per_book(config, "sequences/{book_id}.parquet", book_ids if books is None else books)


def figure_rule_wildcards(plan: WorkflowPlan, counts: Callable[[str], int]) -> dict[str, dict[str, list[str]]]:
    """Each figure and report-table rule with the wildcard values it runs for (the genre task
    only when the corpus, ``counts``, holds two genres)."""
    tasks = consistency_tasks(plan, counts)
    recognised = recognition_tasks(plan, counts)
    wildcards: dict[str, dict[str, list[str]]] = {
        "figures_corpus": {},
        "figures_documents": {},
        "figures_kl": {"task": tasks},
        "figures_recognition": {"task": recognised},
        "recognition_word_tables": {"task": [task for task in word_tasks(plan) if task in recognised]},
    }
    if "author" in tasks:  # the heat maps of the most consistent authors, every feature in one job
        wildcards["figures_kl_heatmaps"] = {}
    if not analysis_skipped(plan, TEMPORAL_ANALYSIS):
        wildcards["figures_temporal"] = {}
    return {**wildcards, "appendix_table": {"task": tasks}, "config_used": {}}


def figure_outputs(plan: WorkflowPlan, rules: Any, counts: Callable[[str], int]) -> list[str]:
    """Every output of the figure rules (``rules``: Snakemake's namespace of declared rules, each
    with ``.output``) for their wildcard values (Snakemake's ``expand``: the patterns carry the
    rules' wildcard constraints): a figure added to a rule's outputs is a target with no other edit."""
    return [
        path
        for name, values in figure_rule_wildcards(plan, counts).items()
        for path in expand(list(getattr(rules, name).output), **values)
    ]
