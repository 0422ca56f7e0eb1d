"""The experiment driver (section 2.5 of the paper): the one loop "for each split of the rows, for
each classifier, for each of its feature views: fit on the training documents, predict the test
documents, score, record", in the manner of scikit-learn's ``model_selection`` (every curve drives
one ``_fit_and_score``; here every experiment drives :func:`punctstyle.experiments.runner.run_split`).

An experiment is given as three things:

* the **rows** (:class:`Documents`): the labels of the documents, their ids, and their ``groups``
  (the text each document comes from; ``None`` only when every document is a whole text). The
  groups are a required argument, so that no analysis can forget that a text's excerpts must stay
  on one side of a split;
* the **splits** (:class:`Split`): :func:`grid_splits` draws the recognition grid's rows (for each
  class size ``n``, for each seed ``s``: the class sample and closed-set split of
  :meth:`punctstyle.experiments.row.Row.split`), :func:`seeded_splits` one closed-set split of
  given documents per seed (no class sample);
* the **views** (a function ``split -> {name: View}``, called once per split, so that what a row
  chooses on its training documents, e.g. the word baselines' vocabulary, is chosen once;
  :func:`matrix_views` slices fixed matrices) and the **classifiers** (:class:`Estimator`: a name,
  a factory ``make(seed, view) -> unfitted classifier`` and the names of the views it is trained
  on). The driver imports no classifier: the caller resolves the registry
  (:mod:`punctstyle.classifiers`) and its options into factories.

:func:`run_points` runs splits given each with its own views (a length curve: one split per
length, its views the test documents cut to that length), sharing fits through a :class:`FitCache`.

Every experiment yields one :class:`Record`, whose :meth:`Record.record` has one schema:
:data:`KEY_FIELDS` then :data:`punctstyle.experiments.runner.RECORD_FIELDS`, then the view's own
``info`` (e.g. the word baselines' ``top_k``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from punctstyle.corpus.tables import text_groups
from punctstyle.experiments.fit_store import FitKey
from punctstyle.experiments.row import Row, documents_split
from punctstyle.experiments.runner import RECORD_FIELDS, Scored, run_split, score_fitted
from punctstyle.experiments.splits import effective_class_sizes, row_rng

KEY_FIELDS: tuple[str, ...] = ("task", "n_classes", "seed", "method", "feature_set", "n_train", "n_test")
"""The fields that name an experiment (before :data:`punctstyle.experiments.runner.RECORD_FIELDS`)."""


@dataclass(frozen=True)
class Documents:
    """The rows of an experiment: ``labels`` (one per document, no null), ``groups`` (the text of
    each document, whole texts on one side of every split; ``None``: every document is a whole text,
    which splits as ``groups = 0, 1, ..., n - 1`` would) and ``ids`` (the documents' ids, optional)."""

    labels: np.ndarray
    groups: np.ndarray | None
    ids: np.ndarray | None = None

    def __post_init__(self) -> None:
        labels = np.asarray(self.labels, dtype=object)
        if pd.isna(labels).any():
            raise ValueError("labels contain null values; drop those documents first")
        object.__setattr__(self, "labels", labels)
        for name in ("groups", "ids"):
            value = getattr(self, name)
            if value is not None:
                value = np.asarray(value, dtype=object if name == "groups" else None)
                if value.shape != labels.shape:
                    raise ValueError(f"{value.size} {name} for {labels.size} labels")
                object.__setattr__(self, name, value)

    @classmethod
    def from_table(cls, table: pd.DataFrame, labels: Sequence[Any], ids: Sequence[Any] | None = None) -> Documents:
        """The documents of ``ids`` (default: the table's rows) with ``labels``, their groups read
        from ``table`` (:func:`punctstyle.corpus.tables.text_groups`: its ``source_id``, or None)."""
        book_ids = None if ids is None else np.asarray(ids)
        return cls(np.asarray(labels, dtype=object), text_groups(table, book_ids), book_ids)

    @property
    def n_available(self) -> int:
        """The number of classes among the documents."""
        return int(np.unique(self.labels).size)


@dataclass(frozen=True)
class Split:
    """One split of the rows: its key (``task``, ``n_classes``, ``seed``), the sampled ``classes``
    and the ``train_index`` / ``test_index`` (positions in :attr:`Documents.labels`)."""

    task: str
    n_classes: int
    seed: int
    classes: np.ndarray
    train_index: np.ndarray
    test_index: np.ndarray


def grid_splits(
    documents: Documents,
    *,
    task: str,
    class_sizes: Iterable[int | str],
    seeds: Iterable[int],
    test_fraction: float,
) -> Iterator[Split]:
    """The recognition grid's rows: for each class size (capped to the classes available,
    duplicates dropped, :func:`punctstyle.experiments.splits.effective_class_sizes`), for each
    seed, the class sample and closed-set split of :meth:`punctstyle.experiments.row.Row.split`
    (whole groups on one side). The split of a (task, class count, seed) depends on nothing else."""
    seeds = list(seeds)
    for n_classes in effective_class_sizes(class_sizes, documents.n_available):
        for seed in seeds:
            yield row_split(documents, task=task, n_classes=n_classes, seed=int(seed), test_fraction=test_fraction)


def row_split(documents: Documents, *, task: str, n_classes: int, seed: int, test_fraction: float) -> Split:
    """One row's class sample and closed-set split (:meth:`punctstyle.experiments.row.Row.split` of
    ``(task, n_classes, seed)``, whole groups on one side); ``n_classes`` as given, not capped."""
    row = Row(task, int(n_classes), int(seed), documents.labels, documents.ids, documents.groups)
    split = row.split(test_fraction)
    return Split(task, int(n_classes), int(seed), split.classes, split.train_index, split.test_index)


def seeded_splits(
    documents: Documents,
    *,
    task: str,
    seeds: Iterable[int],
    test_fraction: float,
    rng: Callable[[int], np.random.Generator] | None = None,
) -> Iterator[Split]:
    """One closed-set split of all the documents per seed (no class sample; whole groups on one
    side, :func:`punctstyle.experiments.row.documents_split`), its generator
    :func:`punctstyle.experiments.splits.row_rng` of ``(seed, number of documents, task)``, or
    ``rng(seed)`` when the analysis draws its splits with its own generator (e.g.
    ``numpy.random.default_rng``, :func:`punctstyle.analyses.across_languages.grouped_accuracy`)."""
    classes = np.unique(documents.labels)
    for seed in seeds:
        generator = row_rng(int(seed), documents.labels.size, task) if rng is None else rng(int(seed))
        train, test = documents_split(documents.labels, documents.groups, test_fraction, generator)
        yield Split(task, int(classes.size), int(seed), classes, train, test)


@dataclass(frozen=True)
class View:
    """One feature view of one split: the classifier's training and test inputs (a matrix's rows or
    a list of documents, whatever the classifier takes), what the view adds to its records
    (``info``) and what its caller keeps of it beside the records (``context``, e.g. the words of a
    word block)."""

    train: Any
    test: Any
    info: Mapping[str, Any] = field(default_factory=dict)
    context: Mapping[str, Any] = field(default_factory=dict)
    train_key: Any = None
    """What the training inputs are, when several splits share them (e.g. ``"whole"``: the whole
    training documents, scored at every excerpt length): a fit is then reused from the
    :class:`FitCache`; None: never cached."""


Views = Callable[[Split], Mapping[str, View]]
"""The views of a split, by name (called once per split)."""


def take(inputs: Any, index: np.ndarray) -> Any:
    """The rows ``index`` of ``inputs``: an array's rows, or the items of a sequence."""
    if isinstance(inputs, np.ndarray) or hasattr(inputs, "shape"):
        return inputs[index]
    return [inputs[int(i)] for i in index]


def matrix_views(matrices: Mapping[str, Any]) -> Views:
    """Views of fixed inputs aligned with the documents (``name -> matrix or list``): a split's
    view ``name`` is (``matrices[name][train_index]``, ``matrices[name][test_index]``)."""

    def views(split: Split) -> dict[str, View]:
        return {
            name: View(take(inputs, split.train_index), take(inputs, split.test_index))
            for name, inputs in matrices.items()
        }

    return views


@dataclass(frozen=True)
class Estimator:
    """A classifier of an experiment: its ``name`` (the records' ``method``), a factory
    ``make(seed, view) -> unfitted classifier`` (the caller's registry, options included) and the
    ``views`` it is trained on, in order."""

    name: str
    make: Callable[[int, str], Any]
    views: tuple[str, ...]


@dataclass(frozen=True)
class Record:
    """One experiment: the split, the classifier's name, the view, the scored outcome (predictions,
    model and diagnostics, :class:`punctstyle.experiments.runner.Scored`) and the view's ``info``
    and ``context`` (:class:`View`)."""

    split: Split
    method: str
    feature_set: str
    scored: Scored
    info: Mapping[str, Any]
    context: Mapping[str, Any] = field(default_factory=dict)

    def record(self) -> dict[str, Any]:
        """The record of one schema: :data:`KEY_FIELDS`, then
        :data:`punctstyle.experiments.runner.RECORD_FIELDS`, then ``info``."""
        s = self.split
        return {
            "task": s.task,
            "n_classes": s.n_classes,
            "seed": s.seed,
            "method": self.method,
            "feature_set": self.feature_set,
            "n_train": int(s.train_index.size),
            "n_test": int(s.test_index.size),
            **self.scored.record(),
            **self.info,
        }

    @property
    def y_pred(self) -> np.ndarray:
        """The test documents' predicted labels."""
        return self.scored.y_pred


class FitCache:
    """Fitted classifiers keyed by (row, classifier, view): the :class:`FitKey` of (the split's
    task, class count and seed, the classifier's name, the view's name), with the view's
    ``train_key`` and the split's training documents, so that a fit shared by several splits is
    made once. ``store``: fits made elsewhere (a :class:`punctstyle.experiments.fit_store.FitStore`,
    e.g. the recognition grid's files), asked once per key before fitting: its
    ``load(key, make, classes=..., train_ids=..., vocabulary=...)`` loads a stored fit into a fresh
    classifier of the estimator (``make()``) for the split's classes and training documents (their
    ids, :attr:`Documents.ids`; a word view names its words in ``context["words"]``), or returns None."""

    def __init__(self, store: Any = None) -> None:
        self._store = store
        self._models: dict[tuple, Any] = {}
        self.loaded: list[FitKey] = []
        """The keys whose fit was read from the store, in order."""

    @staticmethod
    def key(split: Split, method: str, name: str, view: View) -> tuple | None:
        """The cache key of a fit, None when the view's training inputs are not shared."""
        if view.train_key is None:
            return None
        row = FitKey(split.task, split.n_classes, split.seed, method, name)
        return row, view.train_key, np.asarray(split.train_index, dtype=np.int64).tobytes()

    def get(self, documents: Documents, split: Split, estimator: Estimator, name: str, view: View) -> Any:
        """The cached (or stored) fit of ``estimator`` on view ``name`` of ``split``'s training documents, or None."""
        key = self.key(split, estimator.name, name, view)
        if key is None:
            return None
        if key not in self._models and self._store is not None:
            if documents.ids is None:
                raise ValueError("a fit store needs the documents' ids (Documents.ids)")
            words = view.context.get("words")
            model = self._store.load(
                key[0], lambda: estimator.make(split.seed, name), classes=split.classes,
                train_ids=documents.ids[split.train_index], vocabulary=None if words is None else tuple(words),
            )  # fmt: skip
            self._models[key] = model
            if model is not None:
                self.loaded.append(key[0])
        return self._models.get(key)

    def put(self, split: Split, method: str, name: str, view: View, model: Any) -> None:
        """Keep a fit (nothing when the view's training inputs are not shared)."""
        key = self.key(split, method, name, view)
        if key is not None:
            self._models[key] = model


def run_experiments(
    documents: Documents,
    splits: Iterable[Split],
    views: Views,
    estimators: Sequence[Estimator],
    *,
    cache: FitCache | None = None,
) -> Iterator[Record]:
    """Every experiment, lazily: for each split, for each estimator, for each of its views, a
    fresh ``estimator.make(split.seed, view)`` fitted on the view's training inputs with the
    labels ``documents.labels[split.train_index]``, then scored on its test inputs against
    ``documents.labels[split.test_index]`` (:func:`punctstyle.experiments.runner.run_split`).
    ``views(split)`` is called once per split, before its first fit. With a ``cache``, a view with
    a ``train_key`` reuses the fit cached (or loaded) for the same classifier, view and training
    documents, and is only scored (:func:`punctstyle.experiments.runner.score_fitted`, fit seconds 0)."""
    y = documents.labels
    for split in splits:
        y_train, y_test = y[split.train_index], y[split.test_index]
        by_name = views(split)
        for estimator in estimators:
            for name in estimator.views:
                view = by_name[name]
                model = None if cache is None else cache.get(documents, split, estimator, name, view)
                if model is None:
                    scored = run_split(lambda: estimator.make(split.seed, name), view.train, y_train, view.test, y_test)
                    if cache is not None:
                        cache.put(split, estimator.name, name, view, scored.model)
                else:
                    scored = score_fitted(model, view.test, y_train, y_test)
                yield Record(split, estimator.name, name, scored, dict(view.info), view.context)


Point = tuple[Split, Mapping[str, View]]
"""A split with its own views (:func:`run_points`)."""


def run_points(
    documents: Documents,
    points: Sequence[Point],
    estimators: Sequence[Estimator],
    *,
    cache: FitCache | None = None,
) -> Iterator[Record]:
    """:func:`run_experiments` on splits given with their views, each point ``(split, views)``
    in order: one split object per point, so that points with the same documents can read
    different views of them (the length curves: one point per length, its view the test
    documents cut to that length). With a ``cache``, a view with a ``train_key`` is fitted
    once over the points that share its classifier, view name and training documents, and
    only scored at the others."""
    by_split = {id(split): views for split, views in points}
    if len(by_split) != len(points):
        raise ValueError("each point needs a split object of its own (dataclasses.replace(split) copies one)")
    splits = [split for split, _ in points]
    return run_experiments(documents, splits, lambda split: by_split[id(split)], estimators, cache=cache)


def records_frame(records: Iterable[Record], extra: Sequence[str] = ()) -> pd.DataFrame:
    """The records as a table: :data:`KEY_FIELDS`, :data:`punctstyle.experiments.runner.RECORD_FIELDS`
    and the ``extra`` info fields, one row per record."""
    columns = [*KEY_FIELDS, *RECORD_FIELDS, *extra]
    return pd.DataFrame([r.record() for r in records], columns=columns)
