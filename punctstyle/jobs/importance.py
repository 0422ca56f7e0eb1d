"""Rule ``importance_row``'s job: the f3 permutation importance of one (class size, seed) row
(:mod:`punctstyle.training.importance`). Called by ``scripts/importance_row.py`` and
``benchmarks/beyond_rows.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pandas as pd

from punctstyle.analyses.paper import (
    labelled_rows,
)
from punctstyle.training.importance import ImportanceRow, importance_row, write_importance_row
from punctstyle.classifiers import build_classifier
from punctstyle.corpus.tables import feature_matrix, text_groups
from punctstyle.experiments.driver import FitCache
from punctstyle.experiments.fit_store import FitStore
from punctstyle.jobs.recognition import enough_classes


def importance_job(
    table: pd.DataFrame,
    output: Any,
    *,
    class_size: int,
    seed: int,
    test_fraction: float,
    top_k: Sequence[int],
    repeats: int,
    holdout_fraction: float,
    classifier_options: Mapping[str, Mapping[str, Any]],
    fitted: Sequence[Any] = (),
    log: Any = None,
) -> ImportanceRow | None:
    """Rule ``f3_importance_row``: permutation importance of the f3 entries and top-k accuracies
    of one (class size, seed) row of the author task (:func:`punctstyle.training.importance.importance_row`
    on the f3 corpus table, the sample and split of Tables 2-3), written to ``output``. Fewer than
    2 authors: a file naming the reason. Returns the row (None when skipped). ``fitted``: the
    recognition rows' store files; the test-split f3 MLP is read from them when stored."""
    rows = labelled_rows(table, "author")
    labels = rows["author"].to_numpy(dtype=object)
    n_available = len(set(labels))
    if not enough_classes(n_available, "author", log):
        reason = f"the corpus has {n_available} author(s) with f3 rows, at least 2 are needed"
        write_importance_row(output, None, reason)
        return None
    n_classes = min(int(class_size), n_available)
    fits = FitCache(FitStore(fitted))  # the test-split MLP: the recognition grid's fit when stored
    make = f3_classifiers(seed, classifier_options)
    row = importance_row(
        feature_matrix(rows, "f3"),
        labels,
        n_classes=n_classes,
        seed=seed,
        task="author",
        test_fraction=test_fraction,
        top_k=top_k,
        repeats=repeats,
        holdout_fraction=holdout_fraction,
        make=make,
        groups=text_groups(rows),
        ids=rows["book_id"].to_numpy(),
        view="f3",
        fits=fits,
    )
    if fits.loaded and log is not None:
        log.info("mlp f3: the recognition grid's fit, read from the store (not trained again)")
    if row is None:
        reason = no_test_text(n_classes, seed, test_fraction)
        if log is not None:
            log.warning("skipped: %s", reason)
        write_importance_row(output, None, reason)
        return None
    if row.ranking is None and log is not None:
        log.info("%d classes, seed %d: no training book could be held out, no top-k rows", n_classes, seed)
    write_importance_row(output, row)
    if log is not None:
        log.info("f3 importance: %d classes (requested %s), seed %d", n_classes, class_size, seed)
    return row


def f3_classifiers(seed: int, classifier_options: Mapping[str, Mapping[str, Any]]) -> Callable[[str], Any]:
    """``make(method)``: a fresh registered classifier on f3, seeded with ``seed``, with the
    method's options."""

    def make(method: str) -> Any:
        return build_classifier(method, seed=seed, feature_set=("f3",), **classifier_options.get(method, {}))

    return make


def no_test_text(n_classes: int, seed: int, test_fraction: float) -> str:
    """The reason a row is skipped when its split tests no document."""
    return (f"the {n_classes}-author sample of seed {seed} has no test text (an author needs enough "
            f"texts for one to be tested at recognition.test_fraction={test_fraction})")
