"""Which entries of f3 carry the signal (the paper's open question, section 5).

Permutation importance of entry ``j`` of f3 for a classifier ``g`` on documents ``(X, y)``::

    I_j = acc(g, X, y) - (1/R) sum_{r=1..R} acc(g, X^{(j, pi_r)}, y)

where ``X^{(j, pi)}`` is ``X`` with column ``j`` permuted across the documents by ``pi`` (a
uniformly random permutation, drawn independently for every column and repeat): the drop in
accuracy when the entry no longer goes with its document. The classifier is not retrained.

Experiments run on the same closed-set samples and 80/20 splits as Tables 2-3
(:func:`punctstyle.experiments.splits.row_split`, author task, same class size and seed):

* the *reported* importance (heat map, top-10 table) is that of the MLP trained on the
  training split, measured on the test split;
* the *ranking* that picks the top-k entries never sees the test split: the training split is
  split again (stratified, ``holdout_fraction`` of each author's training books held out, same
  rule as :func:`punctstyle.experiments.splits.stratified_split`), an MLP is trained on the rest and the
  permutation importance is measured on the held-out training books;
* KL nearest class and the MLP are then trained on the whole training split restricted to the
  top-k entries and scored on the test split. For KL the kept entries are renormalised to a
  distribution (``f~_j = f_j / sum_{i in top-k} f_i``); :func:`punctstyle.divergence.pairwise_kl`
  does this itself (the divergence is invariant to the scale of its inputs) and keeps the
  common-support rule; a document whose kept entries are all zero has no defined divergence and
  goes to the largest training class (:class:`punctstyle.classifiers.kl_nearest.KLNearestClass`).
  (``k = 1`` is degenerate for KL: one renormalised entry is 1 for every document.) ``k = d`` (every entry) is added as the reference.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from punctstyle.classifiers import Classifier
from punctstyle.experiments.driver import (
    Documents,
    Estimator,
    FitCache,
    Split,
    View,
    grid_splits,
    matrix_views,
    run_experiments,
)
from punctstyle.experiments.row import documents_split
from punctstyle.marks import N_MARKS, pair_label
from punctstyle.experiments.metrics import accuracy, baseline_accuracy
from punctstyle.experiments.splits import row_rng
from punctstyle.io import write_json_atomic

IMPORTANCE_METHODS: tuple[str, ...] = ("kl", "mlp")
"""The classifiers the importance rows train (their options: the rule's ``params.classifiers``)."""

MakeClassifier = Callable[[str], Classifier]
"""``make(method)``: a fresh, unfitted classifier (one of :data:`IMPORTANCE_METHODS`) of one experiment row."""

STACK_BUDGET: int = 4_000_000
"""Most float64 values of the permuted copies predicted at once (about 32 MB)."""


def permuted_copies(X: np.ndarray, columns: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``(len(columns), n, d)``: copy ``c`` is ``X`` with column ``columns[c]`` shuffled across rows.

    Each copy draws its own permutation (``Generator.permuted`` of ``0..n-1``).
    """
    n, d = X.shape
    copies = np.broadcast_to(X, (columns.size, n, d)).copy()
    perms = rng.permuted(np.tile(np.arange(n), (columns.size, 1)), axis=1)
    copies[np.arange(columns.size)[:, None], np.arange(n)[None, :], columns[:, None]] = X[perms, columns[:, None]]
    return copies


def permutation_importance(
    predict: Callable[[np.ndarray], np.ndarray],
    X: np.ndarray,
    y: Sequence[Any],
    rng: np.random.Generator,
    repeats: int,
) -> np.ndarray:
    """``I_j = acc(X) - mean_r acc(X with column j permuted)`` for every column ``j`` (module docstring).

    ``predict`` maps an (m, d) matrix to m labels; all permuted copies of a repeat are predicted
    in a few large calls (at most :data:`STACK_BUDGET` values each), no loop over documents.
    """
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=object)
    if X.ndim != 2 or X.shape[0] != y.size or y.size == 0:
        raise ValueError(f"X must be (n, d) with n = len(y) > 0; got {X.shape} and {y.size} labels")
    if repeats < 1:
        raise ValueError(f"repeats must be >= 1, got {repeats}")
    n, d = X.shape
    base = accuracy(y, predict(X))
    chunk = max(1, STACK_BUDGET // (n * d))
    permuted_accuracy = np.zeros(d)
    for _ in range(repeats):
        for start in range(0, d, chunk):
            columns = np.arange(start, min(start + chunk, d))
            predicted = np.asarray(predict(permuted_copies(X, columns, rng).reshape(-1, d)), dtype=object)
            correct = (predicted.reshape(columns.size, n) == y[None, :]).mean(axis=1)
            permuted_accuracy[columns] += correct
    return base - permuted_accuracy / repeats


def top_entries(importance: np.ndarray, k: int) -> np.ndarray:
    """Indices of the ``k`` most important entries, most important first (ties: lower index first)."""
    importance = np.asarray(importance, dtype=np.float64)
    if not 1 <= k <= importance.size:
        raise ValueError(f"k must lie in 1..{importance.size}, got {k}")
    return np.argsort(-importance, kind="stable")[:k]


def training_ranking(
    X_train: np.ndarray,
    y_train: Sequence[Any],
    make: MakeClassifier,
    *,
    holdout_fraction: float,
    repeats: int,
    rng: np.random.Generator,
    groups: Sequence[Any] | None = None,
) -> np.ndarray | None:
    """Importance of each entry measured on the training split only (the top-k ranking).

    A stratified ``holdout_fraction`` of each class's training documents is held out; an MLP
    trained on the rest is scored by :func:`permutation_importance` on the held-out ones. None
    when no document can be held out (every class has a single training document). With
    ``groups`` (the training documents' texts) whole texts are held out
    (:func:`punctstyle.experiments.splits.grouped_split`).
    """
    y_train = np.asarray(y_train, dtype=object)
    fit_index, held_out = documents_split(y_train, groups, holdout_fraction, rng)
    if held_out.size == 0:
        return None
    model = make("mlp").fit(X_train[fit_index], y_train[fit_index])
    return permutation_importance(model.predict, X_train[held_out], y_train[held_out], rng, repeats)


@dataclass
class ImportanceRow:
    """The f3 importance of one (class size, seed) row and its top-k accuracies."""

    n_classes: int
    seed: int
    test_importance: np.ndarray
    ranking: np.ndarray | None
    top_k: list[dict[str, Any]] = field(default_factory=list)


def importance_row(
    X: np.ndarray,
    labels: Sequence[Any],
    *,
    n_classes: int,
    seed: int,
    task: str,
    test_fraction: float,
    top_k: Sequence[int],
    repeats: int,
    holdout_fraction: float,
    make: MakeClassifier,
    groups: Sequence[Any] | None = None,
    ids: Sequence[Any] | None = None,
    view: str = "f3",
    fits: FitCache | None = None,
) -> ImportanceRow | None:
    """Importance and top-k accuracies of one row of Tables 2-3 (same sample and split); None
    when the split tests no document (each sampled author's texts too few for one to be tested
    at ``test_fraction``: :func:`punctstyle.experiments.splits.row_split`).

    ``make(method)`` builds the row's classifiers (seeded with ``seed``). The permutations and
    the inner split use their own generators (:func:`punctstyle.experiments.splits.row_rng` of
    ``"{task}/permutation"`` and ``"{task}/ranking"``), never the split's. ``groups`` (each
    document's text, :func:`punctstyle.corpus.tables.text_groups`): a text's excerpts stay on one side
    of the split and of the inner hold-out. ``fits``: the cache the test-split MLP (feature view
    ``view`` on the whole training split) is asked of first; with a store behind it (the
    recognition grid's, :mod:`punctstyle.experiments.fit_store`, keyed by row, classifier and
    view, checked against the row's classes and training documents: ``ids``, their book ids) the
    MLP is read, not trained again.
    """
    X = np.asarray(X, dtype=np.float64)
    documents = Documents(np.asarray(labels, dtype=object), None if groups is None else np.asarray(groups, dtype=object),
                          ids)  # fmt: skip
    y, g = documents.labels, documents.groups
    (split,) = grid_splits(documents, task=task, class_sizes=[n_classes], seeds=[seed], test_fraction=test_fraction)
    X_train, y_train = X[split.train_index], y[split.train_index]
    X_test, y_test = X[split.test_index], y[split.test_index]
    if y_test.size == 0:
        return None
    whole = {view: View(X_train, X_test, train_key="whole")}  # the row's whole training split
    network = Estimator("mlp", lambda _seed, _view: make("mlp"), (view,))
    (trained,) = run_experiments(documents, [split], lambda _split: whole, [network], cache=fits)
    mlp = trained.scored.model
    test_rng = row_rng(seed, n_classes, f"{task}/permutation")
    test_importance = permutation_importance(mlp.predict, X_test, y_test, test_rng, repeats)
    ranking = training_ranking(
        X_train, y_train, make, holdout_fraction=holdout_fraction, repeats=repeats,
        rng=row_rng(seed, n_classes, f"{task}/ranking"), groups=None if g is None else g[split.train_index],
    )
    common = {"n_classes": n_classes, "seed": seed, "baseline": baseline_accuracy(y_train, y_test)}
    rows = top_k_rows(documents, split, X, make, ranking, top_k, common, trained.scored.accuracy)
    return ImportanceRow(n_classes, seed, test_importance, ranking, rows)


def split_scores(
    documents: Documents, split: Split, make: MakeClassifier, methods: Sequence[str], X_kept: np.ndarray
) -> list[float]:
    """Test accuracy of each method trained on the row's ``split`` of ``X_kept`` (the driver)."""
    estimators = [Estimator(m, lambda _seed, _view, m=m: make(m), ("kept",)) for m in methods]
    return [r.scored.accuracy for r in run_experiments(documents, [split], matrix_views({"kept": X_kept}), estimators)]


def top_k_rows(
    documents: Documents,
    split: Split,
    X: np.ndarray,
    make: MakeClassifier,
    ranking: np.ndarray | None,
    top_k: Sequence[int],
    common: Mapping[str, Any],
    mlp_accuracy: float,
) -> list[dict[str, Any]]:
    """The top-k accuracies of a row: the MLP (``mlp_accuracy``) and KL on all ``d`` entries, then
    each method of :data:`IMPORTANCE_METHODS` retrained on the ``k`` best-ranked entries
    (:func:`top_entries` of ``ranking``) for every ``k`` of ``top_k`` capped at ``d``
    (``min(k, d)``, ``k = d`` not repeated); no top-k rows without a ``ranking``."""
    d = X.shape[1]
    rows = [
        {**common, "method": "mlp", "k": d, "accuracy": mlp_accuracy},
        {**common, "method": "kl", "k": d, "accuracy": split_scores(documents, split, make, ["kl"], X)[0]},
    ]
    for k in sorted({min(int(k), d) for k in top_k} - {d}) if ranking is not None else []:
        scores = split_scores(documents, split, make, IMPORTANCE_METHODS, X[:, top_entries(ranking, k)])
        for method, score in zip(IMPORTANCE_METHODS, scores, strict=True):
            rows.append({**common, "method": method, "k": k, "accuracy": score})
    return rows


def write_importance_row(path: Any, row: ImportanceRow | None, reason: str = "") -> None:
    """One row's file (JSON): test importances, training ranking and top-k accuracies; a row
    that could not run is written with its ``reason`` and no values."""

    if row is None:
        write_json_atomic(path, {"status": "skipped", "reason": reason})
        return
    write_json_atomic(path, {
        "status": "done", "n_classes": row.n_classes, "seed": row.seed,
        "test_importance": [float(v) for v in row.test_importance],
        "ranking": None if row.ranking is None else [float(v) for v in row.ranking],
        "top_k": row.top_k,
    })


def read_importance_rows(paths: Sequence[Any]) -> tuple[list[ImportanceRow], list[str]]:
    """The rows written by :func:`write_importance_row` (one per (class size, seed)), each
    (class size, seed) once, and the reasons of the rows that were skipped."""
    import json

    rows: dict[tuple[int, int], ImportanceRow] = {}
    reasons: list[str] = []
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            record = json.load(handle)
        if record["status"] != "done":
            reasons.append(record["reason"])
            continue
        ranking = None if record["ranking"] is None else np.asarray(record["ranking"])
        key = (int(record["n_classes"]), int(record["seed"]))
        rows[key] = ImportanceRow(key[0], key[1], np.asarray(record["test_importance"]), ranking, record["top_k"])
    return [rows[key] for key in sorted(rows)], sorted(set(reasons))


# ----------------------------------------------------------------------------- tables

IMPORTANCE_COLUMNS: list[str] = ["n_classes", "entry", "first", "second", "pair", "mean", "sd", "n_seeds", "rank"]
TOP_K_COLUMNS: list[str] = ["n_classes", "method", "k", "mean", "sd", "baseline", "n_seeds"]


def importance_table(rows: Sequence[ImportanceRow]) -> pd.DataFrame:
    """One line per (class size, f3 entry): test importance mean and sd over seeds, and its rank.

    ``entry = N_MARKS * first + second`` (row-major f3), ``pair`` = :func:`punctstyle.marks.pair_label`;
    ``sd`` is the sample standard deviation over seeds (NaN for one seed); ``rank`` 1 = largest mean.
    """
    if not rows:
        return pd.DataFrame(columns=IMPORTANCE_COLUMNS)
    long = pd.DataFrame(
        [
            {"n_classes": r.n_classes, "seed": r.seed, "entry": j, "importance": float(v)}
            for r in rows
            for j, v in enumerate(r.test_importance)
        ]
    )
    table = (
        long.groupby(["n_classes", "entry"])["importance"]
        .agg(mean="mean", sd="std", n_seeds="count")
        .reset_index()
    )
    table["first"], table["second"] = table["entry"] // N_MARKS, table["entry"] % N_MARKS
    table["pair"] = [pair_label(i, j) for i, j in zip(table["first"], table["second"], strict=True)]
    table["rank"] = (
        table.groupby("n_classes")["mean"].rank(ascending=False, method="first").astype(int)
    )
    return table[IMPORTANCE_COLUMNS]


def top_k_table(rows: Sequence[ImportanceRow]) -> pd.DataFrame:
    """Accuracy with the top-k entries: mean and sd over seeds per (class size, method, k)."""
    long = pd.DataFrame([line for r in rows for line in r.top_k])
    if long.empty:
        return pd.DataFrame(columns=TOP_K_COLUMNS)
    grouped = long.groupby(["n_classes", "method", "k"])
    table = grouped["accuracy"].agg(mean="mean", sd="std", n_seeds="count")
    table["baseline"] = grouped["baseline"].mean()
    return table.reset_index()[TOP_K_COLUMNS]


def top_transitions(table: pd.DataFrame, n: int = 10) -> pd.DataFrame:
    """The ``n`` most important transitions at the largest class size: rank, pair, mean, sd."""
    if table.empty:
        return pd.DataFrame(columns=["rank", "transition", "importance", "sd", "n_classes"])
    largest = table[table["n_classes"] == table["n_classes"].max()].sort_values("rank").head(n)
    return pd.DataFrame(
        {
            "rank": largest["rank"].to_numpy(),
            "transition": largest["pair"].to_numpy(),
            "importance": largest["mean"].to_numpy(),
            "sd": largest["sd"].to_numpy(),
            "n_classes": largest["n_classes"].to_numpy(),
        }
    )


def importance_matrix(table: pd.DataFrame, n_classes: int) -> np.ndarray:
    """The mean importances of one class size as the 10 x 10 matrix (row = first mark)."""
    rows = table[table["n_classes"] == n_classes].sort_values("entry")
    if len(rows) != N_MARKS * N_MARKS:
        raise ValueError(f"expected {N_MARKS * N_MARKS} f3 entries for {n_classes} classes, got {len(rows)}")
    return rows["mean"].to_numpy(dtype=np.float64).reshape(N_MARKS, N_MARKS)
