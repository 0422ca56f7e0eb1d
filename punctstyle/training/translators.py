"""Through translators (issue 25): does punctuation follow the translator or the original author?

The catalog's Authors cell lists the translators of a book as persons tagged ``[Translator]``
(:func:`punctstyle.sources.persons.parse_persons`); the corpus labels every book by its first
untagged person, the original author. :func:`translator_labels` gives each catalog row its
original author and its translators (joined by ``"; "`` when several).

Measures on the translated corpus books, for a distribution feature (KL, the paper's section
3.1) and for the words (Burrows' Delta distance on the z-scored frequencies of the k most
frequent words):

* consistency: KL of the ordered pairs of books with the same translator and different
  original authors, against the same original author and different translators, and pairs
  sharing neither (:func:`pair_consistency`);
* which label the features follow (:func:`nearest_label`): for each book with both other books
  of its translator (by other authors) and other books of its author (by other translators),
  whether it lies nearer the mean of the former (translator) or of the latter (author);
* recognition: the KL nearest class and Delta on words with the books labelled by original
  author and by translator (classes of at least ``min_books`` books; 50/50 closed-set splits
  per seed, :func:`punctstyle.experiments.driver.seeded_splits`); the words of the recognition
  are chosen on each split's training books only (the consistency and nearest-label measures,
  which train nothing, use the words of all translated books).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp

from punctstyle.classifiers import build_classifier
from punctstyle.distances import column_zscores, delta, varying_columns
from punctstyle.divergence import pairwise_kl
from punctstyle.experiments.driver import Documents, Estimator, Split, View, run_experiments, seeded_splits
from punctstyle.sources.persons import first_author, parse_persons

TRANSLATOR_ROLE = "Translator"


def translator_labels(catalog: pd.DataFrame) -> pd.DataFrame:
    """``book_id``, ``original_author`` (the first untagged person's name, None if none),
    ``translator`` (the first ``[Translator]`` person's name, the book's label: "Maude, Louise;
    Maude, Aylmer" is Louise Maude's, as her books alone are) and ``translators`` (every
    ``[Translator]`` name in catalog order joined by ``"; "``), None when the book has none, of each
    catalog row (columns ``Text#`` and ``Authors``)."""
    rows = []
    for book_id, cell in zip(catalog["Text#"], catalog["Authors"]):
        author = first_author(cell)
        names = [p.name for p in parse_persons(cell) if p.role == TRANSLATOR_ROLE]
        rows.append((int(book_id), author.name if author else None, names[0] if names else None, "; ".join(names) or None))
    return pd.DataFrame(rows, columns=["book_id", "original_author", "translator", "translators"])


def pair_consistency(X: np.ndarray, authors: Sequence[Any], translators: Sequence[Any]) -> pd.DataFrame:
    """KL ``d(x_a, x_b)`` of every ordered pair ``a != b``, by kind: ``same translator`` (same
    translator, other author), ``same author`` (same author, other translator), ``same both``
    and ``neither``; per kind the number of pairs, the mean, sd and median of the finite values."""
    D = pairwise_kl(X)
    a = np.asarray(authors, dtype=object)
    t = np.asarray(translators, dtype=object)
    same_a = a[:, None] == a[None, :]
    same_t = t[:, None] == t[None, :]
    off = ~np.eye(a.size, dtype=bool)
    kinds = {
        "same translator": same_t & ~same_a & off,
        "same author": same_a & ~same_t & off,
        "same both": same_a & same_t & off,
        "neither": ~same_a & ~same_t,
    }
    rows = []
    for kind, mask in kinds.items():
        values = D[mask]
        values = values[np.isfinite(values)]
        rows.append((kind, int(mask.sum()), *(
            (float(values.mean()), float(values.std(ddof=1)) if values.size > 1 else np.nan, float(np.median(values)))
            if values.size else (np.nan, np.nan, np.nan)
        )))  # fmt: skip
    return pd.DataFrame(rows, columns=["pairs", "n_pairs", "kl_mean", "kl_sd", "kl_median"])


def nearest_label(
    distance: np.ndarray, authors: Sequence[Any], translators: Sequence[Any], book_ids: Sequence[Any]
) -> pd.DataFrame:
    """Per book with both comparison sets: the mean ``distance`` (an (n, n) matrix, row = the
    book) to the other books of its translator by other authors and to the other books of its
    author by other translators, and ``follows`` = the nearer label (``translator`` or
    ``author``)."""
    a = np.asarray(authors, dtype=object)
    t = np.asarray(translators, dtype=object)
    same_a = a[:, None] == a[None, :]
    same_t = t[:, None] == t[None, :]
    by_translator = same_t & ~same_a
    by_author = same_a & ~same_t
    rows = []
    for i in np.flatnonzero(by_translator.any(axis=1) & by_author.any(axis=1)):
        to_t = float(np.nanmean(distance[i, by_translator[i]]))
        to_a = float(np.nanmean(distance[i, by_author[i]]))
        rows.append((book_ids[i], a[i], t[i], to_t, to_a, "translator" if to_t < to_a else "author"))
    return pd.DataFrame(rows, columns=["book_id", "author", "translator", "to_translator", "to_author", "follows"])


def delta_distances(W: np.ndarray) -> np.ndarray:
    """Burrows' Delta between books (:func:`punctstyle.distances.delta`): mean absolute difference
    of the z-scored columns of ``W`` (z-scores over the given books; a constant column is left out)."""
    W = np.asarray(W, dtype=np.float64)
    Z = column_zscores(W[:, varying_columns(W)])
    return delta(Z, Z)


def label_recognition(
    inputs: dict[str, Any], labels: dict[str, Sequence[Any]], seeds: Sequence[int], min_books: int,
    columns_for: Mapping[str, Callable[[np.ndarray], np.ndarray]] | None = None,
    *, groups: Sequence[Any] | None,
) -> pd.DataFrame:
    """Accuracy of KL nearest class (``inputs["kl"]``) and Burrows' Delta (``inputs["delta"]``)
    with each labelling of ``labels`` (name -> one label per book, None = unlabelled), on the same
    books for every labelling (those whose class has at least ``min_books`` books under every
    labelling), a 50/50 closed-set split per seed (the experiment driver's
    :func:`punctstyle.experiments.driver.seeded_splits`, task ``translators:<labelling>``; ``groups``:
    the text of each book, None when the books are whole texts): one row per (labelling,
    method, seed) with the accuracy, the baseline and the numbers of classes and books.
    ``columns_for``: method -> a function of the split's training rows (indices into the rows of
    ``inputs``) giving the columns of that method's matrix to use, so that a word vocabulary is
    chosen on the training books only (the matrix may then be sparse; it is made dense after)."""
    names = list(labels)
    Y = {name: np.asarray(labels[name], dtype=object) for name in names}
    keep = np.flatnonzero(np.all([[v is not None for v in Y[name]] for name in names], axis=0))
    while True:  # every labelling's classes of at least min_books among the books kept
        ok = np.ones(keep.size, dtype=bool)
        for name in names:
            _, inverse, counts = np.unique(Y[name][keep].astype(str), return_inverse=True, return_counts=True)
            ok &= counts[inverse] >= min_books
        if ok.all():
            break
        keep = keep[ok]
    estimators = [
        Estimator(method, lambda seed, view: build_classifier(view, seed=int(seed), feature_set=(view,)), (method,))
        for method in inputs
    ]
    views = _label_views(inputs, keep, columns_for or {})
    kept_groups = None if groups is None else np.asarray(groups, dtype=object)[keep]
    rows = []
    for name in names:
        documents = Documents(Y[name][keep], kept_groups)
        if documents.n_available < 2:
            continue
        splits = seeded_splits(documents, task=f"translators:{name}", seeds=seeds, test_fraction=0.5)
        for record in run_experiments(documents, splits, views, estimators):
            rows.append((name, record.method, record.split.seed, record.scored.accuracy, record.scored.baseline,
                         documents.n_available, int(keep.size)))  # fmt: skip
    return pd.DataFrame(rows, columns=["label", "method", "seed", "accuracy", "baseline", "n_classes", "n_books"])


def _label_views(
    inputs: Mapping[str, Any], keep: np.ndarray, columns_for: Mapping[str, Callable[[np.ndarray], np.ndarray]]
) -> Callable[[Split], dict[str, View]]:
    """The views of a split of the books ``keep``: each method's matrix (rows ``keep``), restricted
    to ``columns_for[method](training books)`` when given (made dense)."""

    def views(split: Split) -> dict[str, View]:
        out = {}
        for method, X in inputs.items():
            kept = X[keep]
            if method in columns_for:
                kept = kept[:, columns_for[method](keep[split.train_index])]
                kept = kept.toarray() if sp.issparse(kept) else kept
            out[method] = View(kept[split.train_index], kept[split.test_index])
        return out

    return views
