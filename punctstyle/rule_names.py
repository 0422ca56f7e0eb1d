"""The workflow's vocabulary, defined once: the features, the distribution features (those
KL divergence applies to), the tasks. Rules (``workflow/rules/*.smk``) import these names
instead of restating them, and a unit test checks the schema's enumerations against them.

* features: :data:`punctstyle.marks.FEATURES`, the paper's ``f1`` .. ``f6`` (section 2.2;
  :data:`punctstyle.marks.PAPER_FEATURES`, the feature set ``all``) then those beyond the paper;
* distribution features: :data:`punctstyle.marks.DISTRIBUTION_FEATURES` (those KL applies to);
* tasks: ``author`` (section 3) and ``genre`` (section 4), the paper's (:data:`PAPER_TASKS`),
  then ``time_slot`` and ``gender`` (:data:`METADATA_TASKS`, a TEI corpus' ELTeC metadata; config
  ``metadata_tasks``), each labelling documents by the corpus column of the same name;
* classifiers: the names registered in :mod:`punctstyle.classifiers`.
"""

from __future__ import annotations

from punctstyle.marks import DISTRIBUTION_FEATURES, FEATURES, PAPER_FEATURES

PAPER_TASKS: tuple[str, ...] = ("author", "genre")
"""The paper's tasks, in its order (config ``consistency.tasks``, ``recognition.genre_recognition``)."""
METADATA_TASKS: tuple[str, ...] = ("time_slot", "gender")
"""Tasks beyond the paper, switched by config ``metadata_tasks``: ELTeC's time slot and author gender."""
TASKS: tuple[str, ...] = PAPER_TASKS + METADATA_TASKS
"""Recognition and consistency tasks, the paper's first; each is a label column."""

TASK_NOUNS: dict[str, str] = {"author": "author", "genre": "genre", "time_slot": "time slot", "gender": "gender"}
"""Each task as a noun for titles and notes (singular; ``time_slot`` is "time slot")."""

__all__ = [
    "TASK_NOUNS",
    "DISTRIBUTION_FEATURES", "FEATURES", "METADATA_TASKS", "PAPER_FEATURES", "PAPER_TASKS", "TASKS", "wildcard_pattern",
]


def wildcard_pattern(names: tuple[str, ...] | list[str]) -> str:
    """A Snakemake wildcard constraint matching exactly one of ``names`` (``a|b|c``)."""
    return "|".join(names)
