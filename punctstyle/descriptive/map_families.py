"""The families of the corpus maps (config ``maps.families``): which corpus tables a family
reads and whether KL applies to it. The workflow's planning (``punctstyle.plan.maps``) reads
them without importing the maps' numerical code (:mod:`punctstyle.descriptive.maps`, which
imports from here)."""

from __future__ import annotations

from punctstyle.featuresets import resolve_feature_set
from punctstyle.marks import DISTRIBUTION_FEATURES

WORDS = "words"
"""The family of the most frequent words (their rows: :func:`punctstyle.descriptive.maps.family_matrix`)."""


def family_features(family: str) -> tuple[str, ...]:
    """The corpus tables a family reads: ``words`` -> (f1,) (for the documents' rows),
    a feature set (``f3``, ``all``, ``f1+f3``) -> its features."""
    return ("f1",) if family == WORDS else resolve_feature_set(family)


def family_is_distribution(family: str) -> bool:
    """Whether KL applies: the family is one distribution feature (f1, f3, f4, f5, f7)."""
    return family in DISTRIBUTION_FEATURES
