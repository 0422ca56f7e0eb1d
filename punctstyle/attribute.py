"""Who punctuates like this text? Ranking authors for one text, and how long it must be.

For one text with features ``f^{l,t}`` the ranking reports, for each author ``a``:

* the MLP probability ``P(a | t)`` (softmax output of a model trained by
  :func:`punctstyle.recognition.train_mlp`, on the model's feature set);
* the KL divergence ``d_KL(f^{l,a}, f^{l,t})`` of the text to the author signature
  (signature first, text second, as in section 2.4), where the signature
  ``f^{l,a} = (1/|D_a|) sum_{k in D_a} f^{l,k}`` is the mean feature of the author's books;
  for f3 by default and f1. NaN means an empty common support.

:func:`minimum_marks_for_attribution` estimates from data how many punctuation marks a text
needs before KL-nearest attribution becomes reliable.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from punctstyle.divergence import pairwise_kl
from punctstyle.marks import feature_column_names
from punctstyle.recognition import (
    TrainedMLP,
    accuracy,
    class_signatures,
    kl_nearest,
    stratified_split,
)

DEFAULT_KL_FEATURES: tuple[str, ...] = ("f3", "f1")
DEFAULT_MARK_GRID: tuple[int, ...] = (50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000)

FeaturesFunction = Callable[[np.ndarray, np.ndarray], Mapping[str, np.ndarray]]
"""``compute_features(marks, gaps) -> {"f1": ..., ..., "f6": ...}``."""

Signatures = pd.DataFrame | Mapping[str, Any]


def author_signatures(
    features: Mapping[str, np.ndarray],
    labels: Sequence[Any],
    feature_names: Sequence[str] = DEFAULT_KL_FEATURES,
) -> pd.DataFrame:
    """Class-mean features per author: index ``author``, the features' named columns.

    ``features`` maps f1..f6 to (n_books, size) arrays aligned with ``labels``; columns are
    named by :func:`punctstyle.marks.feature_column_names` (``f3[" ,]`` ...).
    """
    blocks = []
    authors = None
    for name in feature_names:
        authors, signatures, _ = class_signatures(features[name], labels)
        blocks.append(pd.DataFrame(signatures, columns=feature_column_names(name)))
    frame = pd.concat(blocks, axis=1)
    frame.index = pd.Index(authors, name="author")
    return frame


def signature_matrix(signatures: Signatures, feature: str) -> tuple[np.ndarray, np.ndarray]:
    """(authors, (n_authors, size) array) of one feature from a signatures table or dict.

    Accepted forms: a DataFrame indexed by author (or with an ``author`` column) holding the
    feature's named columns (as :func:`author_signatures` returns); or a dict mapping the
    feature name to such a DataFrame, or to a dict ``{author: vector}``.
    """
    table = signatures[feature] if isinstance(signatures, Mapping) else signatures
    if isinstance(table, Mapping):
        authors = np.asarray(list(table), dtype=object)
        return authors, np.vstack([np.asarray(table[a], dtype=np.float64) for a in authors])
    if "author" in table.columns:
        table = table.set_index("author")
    columns = feature_column_names(feature)
    if all(c in table.columns for c in columns):
        values = table.loc[:, columns]
    elif table.shape[1] == len(columns):
        values = table
    else:
        raise KeyError(f"signatures have no columns of feature {feature}")
    return np.asarray(table.index, dtype=object), values.to_numpy(dtype=np.float64)


def signature_divergences(
    text_features: Mapping[str, Any], signatures: Signatures, feature: str
) -> pd.Series:
    """``d_KL(signature_a, text)`` for every author ``a`` (signature first, text second)."""
    authors, S = signature_matrix(signatures, feature)
    text = np.asarray(text_features[feature], dtype=np.float64).reshape(1, -1)
    return pd.Series(pairwise_kl(S, text)[:, 0], index=pd.Index(authors, name="author"), name=f"kl_{feature}")


def rank_authors(
    text_features: Mapping[str, Any],
    model: TrainedMLP | None,
    signatures: Signatures | None,
    *,
    kl_features: Sequence[str] = DEFAULT_KL_FEATURES,
    top: int | None = 10,
) -> pd.DataFrame:
    """Ranking of authors for one text: ``rank``, ``author``, ``probability``, ``kl_<feature>``.

    ``probability`` is the model's softmax probability of each author (NaN without a model
    or for an author the model does not know); ``kl_f3``, ``kl_f1`` ... the KL divergence
    of the text to each author signature (NaN without a signature or for an empty common
    support). Rows are sorted by decreasing probability, ties and missing probabilities by
    increasing divergence of the first KL feature; ``top`` keeps the first rows (None: all).
    """
    if model is None and signatures is None:
        raise ValueError("need a model, signatures or both")
    columns: list[pd.Series] = []
    if model is not None:
        proba = model.predict_features(text_features)[0]
        columns.append(pd.Series(proba, index=pd.Index(model.classes, name="author"), name="probability"))
    if signatures is not None:
        columns += [signature_divergences(text_features, signatures, f) for f in kl_features]
    table = pd.concat(columns, axis=1)
    if "probability" not in table:
        table.insert(0, "probability", np.nan)
    table.index.name = "author"
    sort_by = ["probability"] + ([f"kl_{kl_features[0]}"] if signatures is not None and kl_features else [])
    ascending = [False] + [True] * (len(sort_by) - 1)
    table = table.reset_index().sort_values(sort_by, ascending=ascending, na_position="last", kind="stable")
    table.insert(0, "rank", np.arange(1, len(table) + 1))
    table = table.reset_index(drop=True)
    return table if top is None else table.head(top)


# --------------------------------------------------------------------------- minimum length


@dataclass(frozen=True)
class MarksThreshold:
    """Result of :func:`minimum_marks_for_attribution`.

    ``n_min``: smallest grid length whose accuracy reaches ``target_accuracy`` (None if
    none does, or if the full-length accuracy is 0); ``curve``: one row per grid length
    (``n_marks``, ``accuracy``, ``n_test``, ``n_truncated``: test books longer than
    ``n_marks``, ``n_fallback``: all-NaN divergences).
    """

    n_min: int | None
    full_accuracy: float
    target_accuracy: float
    fraction: float
    feature: str
    curve: pd.DataFrame


def truncate_sequence(marks: np.ndarray, gaps: np.ndarray, n_marks: int) -> tuple[np.ndarray, np.ndarray]:
    """The first ``n_marks`` marks and their gaps (the whole text if it is shorter)."""
    return np.asarray(marks)[:n_marks], np.asarray(gaps)[:n_marks]


def _feature_rows(
    sequences: Sequence[tuple[np.ndarray, np.ndarray]],
    index: np.ndarray,
    compute_features: FeaturesFunction,
    feature: str,
    n_marks: int | None = None,
) -> np.ndarray:
    """(len(index), size) array of ``feature`` for the chosen texts, optionally truncated."""
    rows = []
    for i in index:
        marks, gaps = sequences[i]
        if n_marks is not None:
            marks, gaps = truncate_sequence(marks, gaps, n_marks)
        rows.append(np.asarray(compute_features(marks, gaps)[feature], dtype=np.float64))
    return np.vstack(rows)


def minimum_marks_for_attribution(
    sequences: Sequence[tuple[np.ndarray, np.ndarray]],
    labels: Sequence[Any],
    compute_features: FeaturesFunction,
    *,
    grid: Sequence[int] = DEFAULT_MARK_GRID,
    fraction: float = 0.9,
    feature: str = "f3",
    test_fraction: float = 0.2,
    seed: int = 0,
) -> MarksThreshold:
    """Estimate the number of marks below which KL-nearest attribution is unreliable.

    Books (``(marks, gaps)`` sequences with author ``labels``) are split 80/20 (closed
    set, :func:`punctstyle.recognition.stratified_split`). Author signatures are the mean
    ``feature`` of the full-length training books. Each test book is then truncated to its
    first ``n`` marks for every ``n`` of ``grid`` and attributed to
    ``argmin_a d_KL(signature_a, f(truncated book))``. The threshold is the smallest ``n``
    whose top-1 accuracy is at least ``fraction`` times the full-length accuracy.
    """
    y = np.asarray(labels, dtype=object)
    if len(sequences) != y.size:
        raise ValueError(f"{len(sequences)} sequences for {y.size} labels")
    if not 0.0 < fraction <= 1.0:
        raise ValueError(f"fraction must lie in (0, 1], got {fraction}")
    train, test = stratified_split(y, test_fraction, np.random.default_rng(seed))
    if test.size == 0:
        raise ValueError("no test books: every class needs at least 3 books for a test document")
    classes, signatures, counts = class_signatures(
        _feature_rows(sequences, train, compute_features, feature), y[train]
    )
    fallback = int(np.argmax(counts))

    def evaluate(n_marks: int | None) -> tuple[float, int]:
        X = _feature_rows(sequences, test, compute_features, feature, n_marks)
        nearest, n_fallback = kl_nearest(signatures, X, fallback)
        return accuracy(y[test], classes[nearest]), n_fallback

    full_accuracy, _ = evaluate(None)
    lengths = np.array([len(sequences[i][0]) for i in test])
    rows = []
    for n in sorted({int(n) for n in grid}):
        acc, n_fallback = evaluate(n)
        rows.append(
            {
                "n_marks": n,
                "accuracy": acc,
                "n_test": int(test.size),
                "n_truncated": int((lengths > n).sum()),
                "n_fallback": n_fallback,
            }
        )
    curve = pd.DataFrame(rows, columns=["n_marks", "accuracy", "n_test", "n_truncated", "n_fallback"])
    target = fraction * full_accuracy
    reached = curve.loc[curve["accuracy"] >= target - 1e-12, "n_marks"]
    n_min = None if full_accuracy == 0 or reached.empty or math.isnan(full_accuracy) else int(reached.iloc[0])
    return MarksThreshold(n_min, full_accuracy, target, fraction, feature, curve)


__all__ = [
    "DEFAULT_KL_FEATURES",
    "DEFAULT_MARK_GRID",
    "MarksThreshold",
    "author_signatures",
    "minimum_marks_for_attribution",
    "rank_authors",
    "signature_divergences",
    "signature_matrix",
    "truncate_sequence",
]
