"""Across genres and forms (issue 25): does punctuation lose less than words when the kind of
text changes between training and test?

Groups. Each corpus book gets a group from the catalog, under one of two groupings:

* ``form`` (:func:`book_form`, from the catalog's Subjects): ``short stories`` (a subject
  naming short stories), ``poetry`` (poetry, poems, verse), ``drama`` (drama, plays, comedies,
  tragedies), ``fiction`` (any other subject with "fiction": novels), else ``nonfiction``
  (essays, travel, history, biography, ...). Subjects, not bookshelves: every catalog book has
  subjects, while half of the shared mirror's books have no bookshelf; and the LoCC classes
  (PR, PS, ...) mostly tell the literature's country, not the form.
* ``audience`` (:func:`book_audience`, from the Bookshelves): ``children`` (a shelf with
  "Children"), else ``adult``.

A pair of groups (A, B) is compared when at least ``min_authors`` authors have ``min_docs``
books in both; each pair runs in both directions. For one direction and seed,
:func:`punctstyle.experiments.row.group_pair_row` holds out part of each author's B books,
and trains each method twice on the same number of books per author: on B books (``within``)
and on A books (``cross``). The drop ``within - cross`` is what the change of group costs.

Methods (``<classifier>: [<input>, ...]``): punctuation feature sets (``f3``, ``all``, ... as in
the recognition grid), ``words<k>`` (relative frequencies of the k most frequent words of the
training books, :func:`punctstyle.corpus.words.select_vocabulary`), ``dv_ma`` and ``dv_sa``
(Stamatatos's 2017 text distortion, :mod:`punctstyle.training.distortion`: the words outside the
k most frequent words of the training books masked character by character or as one ``*``, the
rest of the text kept, character n-grams of the distorted texts) and ``masked_unigrams`` (not
Stamatatos's method: the token unigrams of the masked word stream, :func:`masked_unigram_vectors`:
the frequencies of the k kept words, of one mask token standing for every other word and of the
ten marks; no characters, no n-grams). For the three, k is chosen from a grid on an inner
half-split of the training books only (:func:`choose_distortion_k`; the same inner split for
each).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp

from punctstyle.training import distortion
from punctstyle.classifiers import build_classifier
from punctstyle.corpus.words import select_vocabulary
from punctstyle.experiments.driver import Documents, Estimator, Split, View, run_experiments, seeded_splits
from punctstyle.experiments.row import group_pair_row
from punctstyle.featuresets import resolve_feature_set, stack_features, word_set_parts

GROUPINGS: tuple[str, ...] = ("form", "audience")
"""The groupings of :func:`book_groups`."""

MASKED_UNIGRAMS = "masked_unigrams"
"""The input name of the masked token unigrams (:func:`masked_unigram_vectors`)."""
DISTORTIONS: tuple[str, ...] = (MASKED_UNIGRAMS, *distortion.MODES)
"""The inputs whose k is chosen on the training books (:func:`choose_distortion_k`)."""

RECORD_COLUMNS: tuple[str, ...] = (
    "grouping", "train_group", "test_group", "seed", "method", "classifier", "input", "condition",
    "n_authors", "n_train", "n_test", "accuracy", "baseline", "chosen_k",
)  # fmt: skip
"""The columns of the per-run records (:func:`cross_domain_records`)."""

_POETRY = re.compile(r"\b(poetry|poems|verse)\b")
_DRAMA = re.compile(r"\b(drama|plays|comedies|tragedies)\b")


def book_form(subjects: Sequence[str] | None) -> str:
    """The form of a book from its catalog subjects (module docstring; first match wins:
    short stories, poetry, drama, fiction, nonfiction)."""
    text = " | ".join(subjects if subjects is not None else []).lower()
    if "short stories" in text:
        return "short stories"
    if _POETRY.search(text):
        return "poetry"
    if _DRAMA.search(text):
        return "drama"
    if "fiction" in text:
        return "fiction"
    return "nonfiction"


def book_audience(bookshelves: Sequence[str] | None) -> str:
    """``children`` when a bookshelf names children, else ``adult``."""
    return "children" if any("children" in s.lower() for s in (bookshelves if bookshelves is not None else [])) else "adult"


def book_groups(table: pd.DataFrame, grouping: str) -> np.ndarray:
    """The group of every row of ``table`` under ``grouping`` (``form``: its ``subjects``
    column; ``audience``: its ``bookshelves`` column)."""
    if grouping == "form":
        return np.array([book_form(list(s) if s is not None else []) for s in table["subjects"]], dtype=object)
    if grouping == "audience":
        return np.array([book_audience(list(s) if s is not None else []) for s in table["bookshelves"]], dtype=object)
    raise ValueError(f"unknown grouping {grouping!r}: expected one of {list(GROUPINGS)}")


def group_sizes(labels: Sequence[Any], groups: Sequence[Any], min_docs: int) -> pd.DataFrame:
    """Per pair of groups (A < B): the authors with ``min_docs`` books in both and their books
    in A and in B (columns ``group_a, group_b, n_authors, n_books_a, n_books_b``)."""
    frame = pd.DataFrame({"author": np.asarray(labels, dtype=object), "group": np.asarray(groups, dtype=object)})
    counts = frame.groupby(["author", "group"]).size().unstack(fill_value=0)
    rows = []
    for a, b in combinations(sorted(counts.columns), 2):
        both = (counts[a] >= min_docs) & (counts[b] >= min_docs)
        rows.append((a, b, int(both.sum()), int(counts.loc[both, a].sum()), int(counts.loc[both, b].sum())))
    return pd.DataFrame(rows, columns=["group_a", "group_b", "n_authors", "n_books_a", "n_books_b"])


def group_pairs(labels: Sequence[Any], groups: Sequence[Any], min_docs: int, min_authors: int) -> list[tuple[Any, Any]]:
    """The directed pairs (train group, test group) of :func:`group_sizes` with at least
    ``min_authors`` authors, both directions."""
    sizes = group_sizes(labels, groups, min_docs)
    kept = sizes[sizes["n_authors"] >= min_authors]
    return [pair for a, b in zip(kept["group_a"], kept["group_b"]) for pair in ((a, b), (b, a))]


def pair_books(labels: Sequence[Any], groupings: Mapping[str, np.ndarray], min_docs: int, min_authors: int) -> np.ndarray:
    """Booleans over the books: a book takes part in a compared pair (:func:`group_pairs`) of some
    grouping when its author has ``min_docs`` books in both groups and the book is in one of them."""
    y = np.asarray(labels, dtype=object)
    taking_part = np.zeros(y.size, dtype=bool)
    for groups in groupings.values():
        g = np.asarray(groups, dtype=object)
        for a, b in group_pairs(y, g, min_docs, min_authors):
            in_a = pd.Series(g == a).groupby(y).transform("sum").to_numpy() >= min_docs
            in_b = pd.Series(g == b).groupby(y).transform("sum").to_numpy() >= min_docs
            taking_part |= in_a & in_b & ((g == a) | (g == b))
    return taking_part


@dataclass(frozen=True)
class CorpusInputs:
    """What the methods read, one row per corpus book (same order): punctuation ``features``
    (name -> (n, size)), word relative frequencies ``word_freqs`` (n, pool) over ``n_words``
    words, the pool ``cutoff`` (:class:`punctstyle.corpus.words.WordMatrix`), and ``n_marks``;
    for ``dv_ma`` and ``dv_sa`` the cleaned ``texts``
    (:class:`punctstyle.training.distortion.PreparedText`, None without them; a book that takes
    part in no pair is not read, its entry None) and their ``text_words``
    (:func:`punctstyle.training.distortion.word_counts`)."""

    features: Mapping[str, np.ndarray]
    word_freqs: sp.csr_matrix
    n_words: np.ndarray
    cutoff: np.ndarray
    n_marks: np.ndarray
    texts: Sequence[distortion.PreparedText | None] | None = None
    text_words: sp.csr_matrix | None = None


@dataclass(frozen=True)
class DistortionOptions:
    """The grid of k (``cross.genres.distortion_k``), and for ``dv_ma`` and ``dv_sa`` the n of
    the character n-grams and the number of n-gram features (``distortion_ngram``,
    ``distortion_features``)."""

    k_grid: tuple[int, ...]
    ngram: int = 3
    n_features: int = 1000


def masked_unigram_vectors(inputs: CorpusInputs, rows: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """Token frequencies of the masked word streams (unigrams; not Stamatatos's method, which
    reads character n-grams of the distorted text, :mod:`punctstyle.training.distortion`): with ``n_w`` words,
    ``n_m`` marks, ``c_w`` the count of kept word ``w`` (``columns``) and ``c_m`` of mark ``m``
    (``f1 * n_m``), over ``T = n_w + n_m`` tokens: ``[c_w / T ..., (n_w - sum_w c_w) / T,
    c_m / T ...]`` (kept words, the mask ``*``, the ten marks)."""
    n_words = inputs.n_words[rows].astype(np.float64)
    n_marks = inputs.n_marks[rows].astype(np.float64)
    tokens = n_words + n_marks
    kept = inputs.word_freqs[rows][:, columns].toarray() * n_words[:, None]
    masked = n_words - kept.sum(axis=1)
    marks = inputs.features["f1"][rows] * n_marks[:, None]
    return np.column_stack([kept, masked, marks]) / tokens[:, None]


def _vocabulary(inputs: CorpusInputs, train: np.ndarray, k: int) -> np.ndarray:
    return select_vocabulary(inputs.word_freqs[train], k, inputs.cutoff[train]).columns


def distortion_vectors(
    inputs: CorpusInputs, input_name: str, train: np.ndarray, test: np.ndarray, k: int, options: DistortionOptions
) -> tuple[np.ndarray, np.ndarray]:
    """(X_train, X_test) of a distortion at ``k``, every word choice from ``train``: ``dv_ma`` and
    ``dv_sa`` (:mod:`punctstyle.training.distortion`: the k most frequent words of the training
    texts kept, the ``n_features`` most frequent character n-grams of their distortions) or
    ``masked_unigrams`` (:func:`masked_unigram_vectors`)."""
    if input_name == MASKED_UNIGRAMS:
        columns = _vocabulary(inputs, train, k)
        return masked_unigram_vectors(inputs, train, columns), masked_unigram_vectors(inputs, test, columns)
    if inputs.texts is None or inputs.text_words is None:
        raise ValueError(f"input {input_name!r} needs the books' texts")
    texts = inputs.texts
    if any(texts[i] is None for i in np.concatenate([train, test])):
        raise ValueError(f"input {input_name!r}: a book of the split was not read (it takes part in no pair)")
    kept = np.zeros(inputs.text_words.shape[1], dtype=bool)
    kept[distortion.top_words(inputs.text_words[train], k)] = True
    grams = [distortion.text_ngrams([texts[i] for i in rows], kept, input_name, options.ngram)  # type: ignore[misc]
             for rows in (train, test)]
    X_train, X_test, _ = distortion.ngram_vectors(grams[0], grams[1], options.n_features)
    return X_train, X_test


def method_matrices(
    inputs: CorpusInputs,
    input_name: str,
    train: np.ndarray,
    test: np.ndarray,
    labels: np.ndarray,
    *,
    distortion_options: DistortionOptions,
    seed: int,
) -> tuple[np.ndarray, np.ndarray, int]:
    """(X_train, X_test, chosen k or 0) of one input; every word choice from ``train`` only.

    ``dv_ma``, ``dv_sa``, ``masked_unigrams``: k chosen on the training books
    (:func:`choose_distortion_k`), then the vectors of :func:`distortion_vectors`."""
    word_set = word_set_parts(input_name)
    if word_set is not None:
        base, k = word_set
        columns = _vocabulary(inputs, train, k)
        words_train = inputs.word_freqs[train][:, columns].toarray()
        words_test = inputs.word_freqs[test][:, columns].toarray()
        if base is None:
            return words_train, words_test, k
        names = resolve_feature_set(base)
        return (
            np.hstack([stack_features({f: inputs.features[f][train] for f in names}, names), words_train]),
            np.hstack([stack_features({f: inputs.features[f][test] for f in names}, names), words_test]),
            k,
        )
    if input_name in DISTORTIONS:
        k = choose_distortion_k(inputs, input_name, train, labels[train], distortion_options, seed)
        return (*distortion_vectors(inputs, input_name, train, test, k, distortion_options), k)
    names = resolve_feature_set(input_name)
    return (
        stack_features({f: inputs.features[f][train] for f in names}, names),
        stack_features({f: inputs.features[f][test] for f in names}, names),
        0,
    )


def choose_distortion_k(
    inputs: CorpusInputs, input_name: str, train: np.ndarray, y_train: np.ndarray, options: DistortionOptions,
    seed: int,
) -> int:
    """The k of ``options.k_grid`` whose vectors (:func:`distortion_vectors`) give Burrows' Delta
    the best accuracy on an inner half-split of the training books ``train`` (ties: the
    smallest k); the same inner split for every distortion (the driver's
    :func:`punctstyle.experiments.driver.seeded_splits`, task ``cross_domain:distortion_k``)."""
    grid = sorted(int(k) for k in options.k_grid)
    inner = Documents(np.asarray(y_train, dtype=object), None)  # whole texts (rule cross_analyses)
    (split,) = seeded_splits(inner, task="cross_domain:distortion_k", seeds=[seed], test_fraction=0.5)
    if split.test_index.size == 0:
        return int(min(grid))

    def views(part: Split) -> dict[str, View]:
        fit_rows, held_out = train[part.train_index], train[part.test_index]
        return {str(k): View(*distortion_vectors(inputs, input_name, fit_rows, held_out, k, options)) for k in grid}

    delta = Estimator("delta", lambda seed_, view: build_classifier("delta", seed=seed_, feature_set=(input_name,)),
                      tuple(str(k) for k in grid))  # fmt: skip
    best_k, best = int(min(grid)), -1.0
    for record in run_experiments(inner, [split], views, [delta]):
        if record.scored.accuracy > best:
            best_k, best = int(record.feature_set), record.scored.accuracy
    return best_k


def cross_domain_records(
    inputs: CorpusInputs,
    labels: Sequence[Any],
    groupings: Mapping[str, np.ndarray],
    methods: Mapping[str, Sequence[str]],
    seeds: Sequence[int],
    *,
    min_docs: int,
    min_authors: int,
    test_fraction: float,
    distortion_options: DistortionOptions,
    classifier_options: Mapping[str, Mapping[str, Any]] | None = None,
    progress: Callable[[str], None] | None = None,
) -> pd.DataFrame:
    """One record (:data:`RECORD_COLUMNS`) per grouping, directed pair, seed, method and
    condition (``within``, ``cross``): both conditions share the test books
    (:func:`punctstyle.experiments.splits.group_pair_split`)."""
    documents = Documents(np.asarray(labels, dtype=object), None)  # whole texts: rule cross_analyses skips excerpts
    y = documents.labels
    options = classifier_options or {}
    records = []
    for grouping, groups in groupings.items():
        for train_group, test_group in group_pairs(y, groups, min_docs, min_authors):
            for seed in seeds:
                split = group_pair_row(
                    y, groups, train_group, test_group, int(seed), min_docs=min_docs, test_fraction=test_fraction
                )
                conditions = {  # both conditions share the test books
                    condition: Split("cross_group", int(split.classes.size), int(seed), split.classes, train,
                                     split.test_index)
                    for condition, train in (("within", split.within_train_index), ("cross", split.cross_train_index))
                }  # fmt: skip
                for classifier, input_names in methods.items():
                    for input_name in input_names:
                        views = _input_views(inputs, input_name, y, distortion_options)
                        estimator = Estimator(classifier, _input_classifier(classifier, input_name, options), (input_name,))
                        for condition, record in zip(
                            conditions, run_experiments(documents, conditions.values(), views, [estimator]), strict=True
                        ):
                            records.append(
                                (grouping, train_group, test_group, int(seed), f"{classifier}:{input_name}",
                                 classifier, input_name, condition, int(split.classes.size),
                                 int(record.split.train_index.size), int(split.test_index.size),
                                 record.scored.accuracy, record.scored.baseline, record.info["k"])
                            )  # fmt: skip
                if progress is not None:
                    progress(f"{grouping} {train_group} -> {test_group} seed {seed}: done")
    return pd.DataFrame.from_records(records, columns=list(RECORD_COLUMNS))


def _input_views(
    inputs: CorpusInputs, input_name: str, labels: np.ndarray, distortion_options: DistortionOptions
) -> Callable[[Split], dict[str, View]]:
    """The view ``input_name`` of a split (:func:`method_matrices`), its ``k`` in the records' info."""

    def views(split: Split) -> dict[str, View]:
        X_train, X_test, k = method_matrices(inputs, input_name, split.train_index, split.test_index, labels,
                                             distortion_options=distortion_options, seed=split.seed)  # fmt: skip
        return {input_name: View(X_train, X_test, {"k": k})}

    return views


def _input_classifier(classifier: str, input_name: str, options: Mapping[str, Mapping[str, Any]]):
    """``make(seed, view)``: the registered ``classifier`` for an input (its ``+``-joined names)."""
    features = tuple(input_name.split("+"))
    return lambda seed, view: build_classifier(classifier, seed=int(seed), feature_set=features, **options.get(classifier, {}))


def cross_domain_summary(records: pd.DataFrame) -> pd.DataFrame:
    """Per method: mean ± sd over (directed pair, seed) of the within and cross accuracies and
    of the drop ``within - cross`` (paired on the same test books), the relative drop
    ``drop / within`` of the means, and the number of runs (no rows: no records)."""
    columns = ["method", "within_mean", "within_sd", "cross_mean", "cross_sd", "drop_mean", "drop_sd", "n_runs",
               "relative_drop"]  # fmt: skip
    if records.empty:
        return pd.DataFrame(columns=columns)
    wide = records.pivot_table(
        index=["grouping", "train_group", "test_group", "seed", "method"], columns="condition", values="accuracy"
    ).reset_index()
    wide["drop"] = wide["within"] - wide["cross"]
    summary = wide.groupby("method").agg(
        within_mean=("within", "mean"), within_sd=("within", "std"),
        cross_mean=("cross", "mean"), cross_sd=("cross", "std"),
        drop_mean=("drop", "mean"), drop_sd=("drop", "std"), n_runs=("drop", "size"),
    )  # fmt: skip
    summary["relative_drop"] = summary["drop_mean"] / summary["within_mean"]
    return summary.reset_index()[columns]


def cross_domain_pair_table(records: pd.DataFrame) -> pd.DataFrame:
    """Per directed pair, method and condition: mean and sd of the accuracy over seeds, with
    the pair's authors and book counts (the same for every seed)."""
    return (
        records.groupby(["grouping", "train_group", "test_group", "method", "condition"])
        .agg(
            accuracy_mean=("accuracy", "mean"), accuracy_sd=("accuracy", "std"),
            baseline=("baseline", "mean"), n_authors=("n_authors", "first"),
            n_train=("n_train", "mean"), n_test=("n_test", "mean"), n_seeds=("seed", "nunique"),
        )  # fmt: skip
        .reset_index()
    )


def corpus_inputs(tables: Mapping[str, pd.DataFrame], word_matrix: Any,
                  texts: Callable[[int], str] | None = None, read: np.ndarray | None = None) -> CorpusInputs:
    """:class:`CorpusInputs` of the corpus tables' books (the first table's order) from the
    tables (feature name -> corpus table) and the corpus word matrix
    (:class:`punctstyle.corpus.words.WordMatrix`); ``texts(book_id)``: a book's cleaned text
    (the distortions ``dv_ma``, ``dv_sa``; None without them), read for the books ``read``
    (booleans; None: every book)."""
    from punctstyle.corpus.tables import feature_matrix

    first = next(iter(tables.values()))
    book_ids = first["book_id"].to_numpy()
    for name, table in tables.items():
        if not np.array_equal(table["book_id"].to_numpy(), book_ids):
            raise ValueError(f"table {name} does not list the same books in the same order")
    rows = word_matrix.rows_of(book_ids)
    prepared, text_words = None, None
    if texts is not None:
        word_ids: dict[str, int] = {}
        wanted = np.ones(book_ids.size, dtype=bool) if read is None else np.asarray(read, dtype=bool)
        prepared = [distortion.prepare_text(texts(int(b)), word_ids) if w else None
                    for b, w in zip(book_ids, wanted, strict=True)]
        empty = distortion.prepare_text("", word_ids)
        text_words = distortion.word_counts([p if p is not None else empty for p in prepared], len(word_ids))
    return CorpusInputs(
        features={name: feature_matrix(table, name) for name, table in tables.items()},
        word_freqs=word_matrix.relative_frequencies(book_ids),
        n_words=word_matrix.n_words[rows],
        cutoff=word_matrix.cutoff[rows],
        n_marks=first["n_marks"].to_numpy(dtype=np.int64),
        texts=prepared,
        text_words=text_words,
    )


def with_subjects(table: pd.DataFrame, selection: pd.DataFrame) -> pd.DataFrame:
    """``table`` with the ``subjects`` column of the selection (``[]`` for a book it lacks)."""
    subjects = selection.set_index("book_id")["subjects"] if "subjects" in selection else pd.Series(dtype=object)
    out = table.copy()
    out["subjects"] = [list(subjects.get(b, [])) if b in subjects.index else [] for b in out["book_id"]]
    return out
