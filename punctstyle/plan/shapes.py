"""Which analyses the corpus' shape can feed (issue 33 item 1): decided once the corpus tables
exist (the ``corpus_tables`` checkpoint's :class:`punctstyle.plan.checkpoints.CorpusCounts`),
before any of their jobs is planned. An analysis the shape cannot feed has no target and one
``(analysis, cause)`` row in ``analysis/skipped_analyses.csv`` (the report's *Skipped analyses*
page and the end of the run), as the genre analysis with fewer than two genres.

* **verification** (General Imposters, ``verification.enabled``): a case compares a held-out
  text with the reference texts of a candidate against imposters, the reference texts of
  every author but the candidate and the text's own author: this needs three authors
  (:data:`VERIFICATION_MIN_AUTHORS`) and a held-out text, so an author with enough texts for
  one to be held out at ``verification.test_fraction`` (:func:`texts_for_a_test`).
* **f3 importance** (``beyond.importance.enabled``): permutations of the test documents of
  the rows of Tables 2-3, so an author with enough texts for one to be tested at
  ``recognition.test_fraction``. Without one the recognition rows test nothing either: the
  row ``recognition accuracies`` says so (the rows run, their accuracies are empty), as with
  fewer than two authors left after extraction (each row an empty file naming it). A row
  whose sampled authors have no test text is skipped alone, its reason in the analysis'
  summary (``analysis/beyond/f3_importance.json``).

Pure functions of the config's few settings (:func:`shape_settings`, what the
``skipped_analyses`` rule's ``params`` carry) and of the counts.
"""

from __future__ import annotations

from typing import Any

from punctstyle.experiments.splits import _round_half_up
from punctstyle.plan.checkpoints import CorpusCounts

VERIFICATION = "verification"
IMPORTANCE = "f3 importance"
RECOGNITION_ACCURACIES = "recognition accuracies"
VERIFICATION_MIN_AUTHORS = 3


def shape_settings(config: dict[str, Any]) -> dict[str, Any]:
    """The settings the shape decisions read: which analyses are switched on, their test
    fractions, and the author minimum (``selection.min_docs_per_author``: every author's texts
    when the summary does not list them)."""
    return {
        "verification": bool(config["verification"]["enabled"]),
        "verification_test_fraction": float(config["verification"]["test_fraction"]),
        "importance": bool(config["beyond"]["importance"]["enabled"]),
        "recognition_test_fraction": float(config["recognition"]["test_fraction"]),
        "min_docs_per_author": int(config["selection"]["min_docs_per_author"]),
    }


def tested_texts(n_texts: int, test_fraction: float) -> int:
    """How many of an author's ``n_texts`` texts a split tests:
    ``min(round_half_up(test_fraction * n), n - 1)`` (:func:`punctstyle.experiments.splits.stratified_split`)."""
    return int(min(int(_round_half_up(test_fraction * n_texts)), n_texts - 1)) if n_texts > 0 else 0


def texts_for_a_test(test_fraction: float, limit: int = 10_000) -> int | None:
    """The fewest texts of an author for one to be tested at ``test_fraction`` (None: never)."""
    return next((n for n in range(2, limit) if tested_texts(n, test_fraction) >= 1), None)


def _texts(counts: CorpusCounts, settings: dict[str, Any]) -> list[int]:
    """Texts per author (a summary without ``texts_per_author``: ``min_docs_per_author`` each)."""
    if counts.texts_per_author:
        return list(counts.texts_per_author.values())
    return [settings["min_docs_per_author"]] * counts("author")


def _no_test_cause(key: str, test_fraction: float) -> str:
    needed = texts_for_a_test(test_fraction)
    return (f"no author has a text to hold out at {key}={test_fraction:g} (an author needs "
            f"{needed} texts for one)")


def shape_skips(settings: dict[str, Any], counts: CorpusCounts) -> list[tuple[str, str]]:
    """(analysis, cause) of each switched-on analysis the corpus (``counts``) cannot feed."""
    texts = _texts(counts, settings)
    skips = []
    recognition_fraction = settings["recognition_test_fraction"]
    if len(texts) < 2:
        cause = f"the corpus has {len(texts)} author(s) after extraction, at least 2 are needed"
        skips.append((RECOGNITION_ACCURACIES, f"{cause}; the recognition rows are empty files naming this"))
        if settings["importance"]:
            skips.append((IMPORTANCE, f"{cause}; no f3 importance files, figures or table were made"))
    elif not any(tested_texts(n, recognition_fraction) for n in texts):
        cause = _no_test_cause("recognition.test_fraction", recognition_fraction)
        skips.append((RECOGNITION_ACCURACIES, f"{cause}; the recognition rows were fitted but test no document"))
        if settings["importance"]:
            skips.append((IMPORTANCE, f"{cause}; no f3 importance files, figures or table were made"))
    if settings["verification"]:
        made = "no verification files, figure or table were made"
        if len(texts) < VERIFICATION_MIN_AUTHORS:
            skips.append((VERIFICATION, (
                f"the corpus has {len(texts)} author(s), General Imposters needs {VERIFICATION_MIN_AUTHORS} "
                f"(the candidate, the text's own author and an imposter); {made}")))
        elif not any(tested_texts(n, settings["verification_test_fraction"]) for n in texts):
            cause = _no_test_cause("verification.test_fraction", settings["verification_test_fraction"])
            skips.append((VERIFICATION, f"{cause}; {made}"))
    return skips


def is_shape_skipped(settings: dict[str, Any], counts: CorpusCounts, analysis: str) -> bool:
    return any(name == analysis for name, _ in shape_skips(settings, counts))
