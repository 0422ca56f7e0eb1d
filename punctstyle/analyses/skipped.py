"""Analyses that a corpus cannot feed, and why: one ``(analysis, cause)`` row each.

Some are known before the run (a folder corpus without a genre column or without dates:
the workflow does not plan them); one is known only once the corpus tables exist: a genre
analysis needs at least two genres, each with ``genres.min_docs`` documents
(:func:`punctstyle.sources.genres.assign_genres`); the workflow then drops its targets (the rule
``corpus_tables`` is a checkpoint). The table is written to
``analysis/skipped_analyses.csv``, shown in the report and printed at the end of a run. The
analyses a corpus' shape cannot feed (too few authors or texts: :mod:`punctstyle.plan.shapes`)
are decided from the same summary and added last.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd

from punctstyle.rule_names import TASK_NOUNS

COLUMNS: tuple[str, ...] = ("analysis", "cause")


def skipped_analyses(
    planned_skips: Iterable[tuple[str, str]],
    summary: Mapping[str, Any],
    *,
    genre_analysis_configured: bool,
    genre_min_docs: int,
    shape_skips: Iterable[tuple[str, str]] = (),
    metadata_tasks: Iterable[str] = (),
) -> pd.DataFrame:
    """The skips known before the run, plus the genre analysis when the corpus
    (``corpus/summary.json``) has fewer than two genres and it was planned, then each planned
    task beyond the paper (``metadata_tasks``: :func:`metadata_task_skips`), then those the
    corpus' shape decided (``shape_skips``: :func:`punctstyle.plan.shapes.shape_skips`)."""
    rows = [tuple(row) for row in planned_skips]
    planned = {analysis for analysis, _ in rows}
    n_genres = int(summary.get("genres_in_corpus", 0))
    if genre_analysis_configured and "genre analysis" not in planned and n_genres < 2:
        rows.append(
            (
                "genre analysis",
                f"the corpus has {n_genres} genre(s) with at least genres.min_docs={genre_min_docs} "
                "documents, at least two are needed (no genre consistency, recognition, figures or appendix were made)",
            )
        )
    rows += metadata_task_skips(metadata_tasks, summary)
    rows += [tuple(row) for row in shape_skips]
    return pd.DataFrame(rows, columns=list(COLUMNS))


COUNT_KEYS: dict[str, str] = {"time_slot": "time_slots_in_corpus", "gender": "genders_in_corpus"}
"""The corpus summary's class count of each task beyond the paper (punctstyle.corpus.summary)."""


def metadata_task_skips(tasks: Iterable[str], summary: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(analysis, cause) of each planned task beyond the paper (``time_slot``, ``gender``) the
    corpus cannot feed: its summary has no count of it (the corpus tables have no such column)
    or fewer than two classes, e.g. ``("gender analysis", "the corpus has 1 gender(s), at least
    two are needed ...")``."""
    rows = []
    for task in tasks:
        noun, key = TASK_NOUNS[task], COUNT_KEYS[task]
        made = f"no {noun} consistency, recognition, figures or appendix were made"
        if key not in summary:
            rows.append((f"{noun} analysis", f"the corpus tables have no {task} column ({made})"))
        elif int(summary[key]) < 2:
            rows.append((f"{noun} analysis",
                         f"the corpus has {int(summary[key])} {noun}(s), at least two are needed ({made})"))
    return rows


def skip_lines(table: pd.DataFrame) -> list[str]:
    """One console line per skipped analysis: ``skipped <analysis>: <cause>``."""
    return [f"skipped {row.analysis}: {row.cause}" for row in table.itertuples(index=False)]
