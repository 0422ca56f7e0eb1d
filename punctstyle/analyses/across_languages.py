"""Across languages (issue 34 item 4): the paper's measures on novels of several languages at
once. Pure functions over per-novel tables; ``benchmarks/across_languages.py`` reads the
collections and writes the stored outputs.

* :func:`weibull_by_language`: the discrete Weibull fits of the word gaps (Stanisz, Drożdż and
  Kwapień 2023; :mod:`punctstyle.descriptive.gap_weibull`) summarised per language. A smaller ``p``
  (the hazard at one word, ``h(1) = p``) with ``β`` near 1 means longer runs of words without a
  mark: a less constrained language in their words.
* :func:`grouped_accuracy`: a closed-set task (the language of a novel, or its time slot within
  one language) by the KL nearest class, over seeds, with splits grouped by author (no author on
  both sides, :func:`punctstyle.experiments.row.documents_split`), through the experiment driver.
* :func:`language_kl`: mean KL between novels of two languages (ordered pairs ``(i, j)``,
  ``i != j``; the paper's common-support KL).
* :func:`single_slot_authors`: the novels whose author wrote in one time slot only, so a
  time-slot split grouped by author is defined.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from punctstyle.classifiers import build_classifier
from punctstyle.divergence import pairwise_kl
from punctstyle.experiments.driver import Documents, Estimator, matrix_views, run_experiments, seeded_splits


def weibull_by_language(fits: pd.DataFrame) -> pd.DataFrame:
    """Per language (rows of ``fits``: ``language``, ``p``, ``beta``, ``mean_gap``): ``novels``,
    the median and quartiles of ``p`` and ``beta``, the median mean gap; ordered by the median
    ``p`` (least constrained first). Fits with NaN ``p`` are left out."""
    rows = []
    for language, group in fits.dropna(subset=["p", "beta"]).groupby("language", sort=True):
        p_q = np.quantile(group["p"], [0.25, 0.5, 0.75])
        b_q = np.quantile(group["beta"], [0.25, 0.5, 0.75])
        rows.append((language, len(group), p_q[1], p_q[0], p_q[2], b_q[1], b_q[0], b_q[2],
                     float(np.median(group["mean_gap"]))))
    table = pd.DataFrame(rows, columns=["language", "novels", "p_median", "p_q1", "p_q3", "beta_median", "beta_q1",
                                        "beta_q3", "mean_gap_median"])
    return table.sort_values("p_median", kind="stable").reset_index(drop=True)


def grouped_accuracy(
    X: np.ndarray, labels: Sequence[object], groups: Sequence[object], seeds: Sequence[int], test_fraction: float
) -> pd.DataFrame:
    """Per seed: ``seed``, ``train``, ``test``, ``accuracy`` of the KL nearest class (the registered
    ``kl``) on a split of ``X``'s rows grouped by ``groups``
    (:func:`punctstyle.experiments.driver.seeded_splits` with ``numpy.random.default_rng(seed)``),
    run by the experiment driver, and ``majority`` (the share of the test rows in the training
    set's largest class, the first in sorted order on a tie: the accuracy of always answering it)."""
    documents = Documents(np.asarray(labels, dtype=object), np.asarray(groups, dtype=object))
    splits = seeded_splits(documents, task="grouped", seeds=seeds, test_fraction=test_fraction,
                           rng=np.random.default_rng)  # fmt: skip
    kl = Estimator("kl", lambda seed, view: build_classifier("kl", seed=seed, feature_set=(view,)), ("features",))
    rows = []
    for record in run_experiments(documents, splits, matrix_views({"features": X}), [kl]):
        split, y = record.split, documents.labels
        classes, counts = np.unique(y[split.train_index], return_counts=True)
        majority = float(np.mean(y[split.test_index] == classes[np.argmax(counts)]))
        rows.append((split.seed, split.train_index.size, split.test_index.size, record.scored.accuracy, majority))
    return pd.DataFrame(rows, columns=["seed", "train", "test", "accuracy", "majority"])


def language_kl(X: np.ndarray, languages: Sequence[object]) -> pd.DataFrame:
    """For each ordered pair of languages ``(a, b)``: ``pairs`` and ``mean`` / ``median`` of
    ``d(x_i, x_j)`` over novels ``i`` of ``a`` and ``j`` of ``b``, ``i != j`` (NaN pairs, with no
    common support, left out)."""
    D = pairwise_kl(X)
    y = np.asarray(languages, dtype=object)
    off_diagonal = ~np.eye(y.size, dtype=bool)
    rows = []
    names = sorted(set(y.tolist()))
    for a in names:
        for b in names:
            mask = (y[:, None] == a) & (y[None, :] == b) & off_diagonal
            values = D[mask]
            values = values[~np.isnan(values)]
            mean, median = (float(values.mean()), float(np.median(values))) if values.size else (np.nan, np.nan)
            rows.append((a, b, values.size, mean, median))
    return pd.DataFrame(rows, columns=["language_a", "language_b", "pairs", "mean", "median"])


def single_slot_authors(novels: pd.DataFrame) -> pd.Series:
    """A boolean mask of ``novels`` (columns ``language``, ``author``, ``time_slot``): the rows
    with a time slot whose author's novels (in that language) all lie in that one slot."""
    dated = novels["time_slot"].fillna("").astype(str) != ""
    slots = novels[dated].groupby(["language", "author"])["time_slot"].nunique()
    one = {key for key, n in slots.items() if n == 1}
    return dated & pd.Series([(lang, a) in one for lang, a in zip(novels["language"], novels["author"], strict=True)],
                             index=novels.index)


def accuracy_summary(table: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Mean and standard deviation (``ddof=1``, over the seeds) of ``accuracy``, ``majority`` and
    ``test`` per group of ``keys`` in a :func:`grouped_accuracy` table: columns ``keys``, then
    ``seeds``, ``<measure>_mean`` and ``<measure>_sd``."""
    grouped = table.groupby(keys, sort=True)
    out = grouped.size().rename("seeds").reset_index()
    for measure in ("accuracy", "majority", "test"):
        out[f"{measure}_mean"] = grouped[measure].mean().to_numpy()
        out[f"{measure}_sd"] = grouped[measure].std(ddof=1).to_numpy()
    return out
