"""Which analyses the corpus' shape can feed (issue 33 item 1): decided once the corpus tables
exist (the ``corpus_tables`` checkpoint's :class:`punctstyle.plan.checkpoints.CorpusCounts`),
before any of their jobs is planned. An analysis the shape cannot feed has no target and one
``(analysis, cause)`` row in ``analysis/skipped_analyses.csv`` (the report's *Skipped analyses*
page and the end of the run), as the genre analysis with fewer than two genres.

* **verification** (General Imposters, ``verification.enabled``): a case compares a held-out
  text with the reference texts of a candidate against imposters, the reference texts of
  every author but the candidate and the text's own author. Each author's texts are split
  between reference and held-out sides whole, so this needs three authors with at least two
  texts each (:data:`VERIFICATION_MIN_AUTHORS`, :data:`VERIFICATION_MIN_TEXTS`).

Pure functions of the config's few settings (:func:`shape_settings`, what the
``skipped_analyses`` rule's ``params`` carry) and of the counts.
"""

from __future__ import annotations

from typing import Any

from punctstyle.plan.checkpoints import CorpusCounts

VERIFICATION = "verification"
VERIFICATION_MIN_AUTHORS = 3
VERIFICATION_MIN_TEXTS = 2


def shape_settings(config: dict[str, Any]) -> dict[str, Any]:
    """The settings the shape decisions read: which analyses are switched on, and the author
    minimum (``selection.min_docs_per_author``: every author's texts when the summary does not
    list them)."""
    return {
        "verification": bool(config["verification"]["enabled"]),
        "min_docs_per_author": int(config["selection"]["min_docs_per_author"]),
    }


def authors_with_texts(counts: CorpusCounts, min_texts: int, min_docs_per_author: int) -> int:
    """How many authors of the corpus have at least ``min_texts`` texts (a summary without
    ``texts_per_author``: every author has ``min_docs_per_author``)."""
    if not counts.texts_per_author:
        return counts("author") if min_docs_per_author >= min_texts else 0
    return sum(1 for n in counts.texts_per_author.values() if n >= min_texts)


def shape_skips(settings: dict[str, Any], counts: CorpusCounts) -> list[tuple[str, str]]:
    """(analysis, cause) of each switched-on analysis the corpus (``counts``) cannot feed."""
    skips = []
    if settings["verification"]:
        n = authors_with_texts(counts, VERIFICATION_MIN_TEXTS, settings["min_docs_per_author"])
        if n < VERIFICATION_MIN_AUTHORS:
            skips.append((
                VERIFICATION,
                f"the corpus has {n} author(s) with at least {VERIFICATION_MIN_TEXTS} texts, "
                f"General Imposters needs {VERIFICATION_MIN_AUTHORS} (the candidate, the text's own "
                "author and an imposter, each with a reference text); no verification files, "
                "figure or table were made",
            ))
    return skips


def is_shape_skipped(settings: dict[str, Any], counts: CorpusCounts, analysis: str) -> bool:
    return any(name == analysis for name, _ in shape_skips(settings, counts))
