"""The workflow's vocabulary, defined once: the features, the distribution features (those
KL divergence applies to), the tasks. Rules (``workflow/rules/*.smk``) import these names
instead of restating them, and a unit test checks the schema's enumerations against them.

* features: :data:`punctstyle.marks.FEATURES`, the paper's ``f1`` .. ``f6`` (section 2.2;
  :data:`punctstyle.marks.PAPER_FEATURES`, the feature set ``all``) then those beyond the paper;
* distribution features: :data:`punctstyle.marks.DISTRIBUTION_FEATURES` (those KL applies to);
* tasks: ``author`` (section 3) and ``genre`` (section 4), each labelling documents by the
  corpus column of the same name;
* classifiers: the names registered in :mod:`punctstyle.classifiers`.
"""

from __future__ import annotations

from punctstyle.marks import DISTRIBUTION_FEATURES, FEATURES, PAPER_FEATURES

TASKS: tuple[str, ...] = ("author", "genre")
"""Recognition and consistency tasks, in the paper's order; each is a label column."""

__all__ = ["DISTRIBUTION_FEATURES", "FEATURES", "PAPER_FEATURES", "TASKS", "wildcard_pattern"]


def wildcard_pattern(names: tuple[str, ...] | list[str]) -> str:
    """A Snakemake wildcard constraint matching exactly one of ``names`` (``a|b|c``)."""
    return "|".join(names)
