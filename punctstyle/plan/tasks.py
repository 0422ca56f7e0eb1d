"""Which tasks run and which analyses are skipped, as functions of the run's
:class:`~punctstyle.plan.workflow.WorkflowPlan` (the config and a folder corpus' metadata
columns) and, once the corpus tables exist, of their :class:`CorpusCounts`."""

from __future__ import annotations

import os
from collections.abc import Callable

import pandas as pd

from punctstyle.analyses.skipped import skip_lines
from punctstyle.plan import rows, shapes
from punctstyle.plan.checkpoints import CorpusCounts
from punctstyle.plan.targets import out
from punctstyle.plan.workflow import WorkflowPlan


def analysis_skipped(plan: WorkflowPlan, name: str) -> bool:
    """Whether the metadata cannot feed analysis ``name`` (:meth:`WorkflowPlan.skipped_analyses`)."""
    return rows.is_skipped(plan.skipped_analyses(), name)


def shape_skips(plan: WorkflowPlan, counts: CorpusCounts) -> list[tuple[str, str]]:
    """(analysis, cause) of each analysis the corpus' shape (``counts``) cannot feed."""
    return shapes.shape_skips(shapes.shape_settings(plan.config), counts)


def planned_skips(plan: WorkflowPlan) -> list[tuple[str, str]]:
    """The skipped analyses known before the run, with those excerpts cannot feed."""
    return plan.skipped_analyses() + rows.excerpt_skips(plan.config)


def configured_consistency_tasks(plan: WorkflowPlan) -> list[str]:
    return rows.configured_consistency_tasks(plan.config, plan.skipped_analyses())


def configured_recognition_tasks(plan: WorkflowPlan) -> list[str]:
    return rows.configured_recognition_tasks(plan.config, plan.skipped_analyses())


def genre_analysis_configured(plan: WorkflowPlan) -> bool:
    """True when a genre analysis (consistency or recognition) is planned."""
    return "genre" in configured_consistency_tasks(plan) + configured_recognition_tasks(plan)


def consistency_tasks(plan: WorkflowPlan, counts: Callable[[str], int]) -> list[str]:
    """The consistency tasks that run: less the genre, time slot or gender task when the corpus
    (``counts``, the corpus tables' :class:`CorpusCounts`) has fewer than two of its classes."""
    return rows.without_unfed_tasks(configured_consistency_tasks(plan), counts)


def recognition_tasks(plan: WorkflowPlan, counts: Callable[[str], int]) -> list[str]:
    return rows.without_unfed_tasks(configured_recognition_tasks(plan), counts)


def word_tasks(plan: WorkflowPlan) -> list[str]:
    """Recognition tasks whose rows also run the word baselines (plan.rows.word_tasks)."""
    return rows.word_tasks(plan.config, plan.skipped_analyses())


def skipped_analysis_lines(plan: WorkflowPlan) -> list[str]:
    """Lines of analysis/skipped_analyses.csv (for the end of a run), if it exists."""
    path = out(plan.config, "analysis/skipped_analyses.csv")
    if not os.path.isfile(path):
        return [f"skipped {a}: {c}" for a, c in plan.skipped_analyses()]
    return skip_lines(pd.read_csv(path, dtype=str, keep_default_na=False))
