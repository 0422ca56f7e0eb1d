"""The fit store: fitted classifiers kept in files, keyed by (row, classifier, view), so that a
classifier is trained once (issue 26) and later analyses read it through the experiment driver's
:class:`punctstyle.experiments.driver.FitCache`.

A key (:class:`FitKey`) is the row (task, its capped number of classes, seed), the classifier
(its registered name) and the feature view (the config's name, e.g. ``"all"``, ``"f3"``,
``"words1000"``). What is stored of a fit is what the classifier saves of itself: a classifier
that can be stored has ``fitted_state() -> (arrays, meta)`` (numpy arrays, among them its
``classes``, the labels it predicts, and plain JSON values) and
``load_fitted_state(arrays, meta) -> itself, fitted`` (it refuses, with a ValueError naming the
field, a state fitted with other options than its own); the store knows nothing else of its
internals (the MLP's: :meth:`punctstyle.classifiers.mlp.MLPClassifier.fitted_state`).

The recognition grid writes the fits later analyses ask for (:func:`write_fits`; which views and
rows: :mod:`punctstyle.plan.fitted_models` and :func:`stores_row`), with the predictions on the
row's test books; the length curve (its ``"whole"`` training mode) and the f3 importance read
them (:class:`FitStore`, the ``store`` of their :class:`~punctstyle.experiments.driver.FitCache`).

File (one per recognition row, ``models/{task}/{classes}_classes/seed{seed}_fitted.npz``): an
uncompressed ``.npz`` (float32 weights do not compress: measured in docs/performance.md) with, per
stored view ``i``, the classifier's arrays under ``"{i}/..."``, the training and test book ids and
the test predictions; ``"meta"`` is a JSON string (format, and per view: task, n_classes, seed,
method, feature_set, then the classifier's meta; a word set's ``vocabulary``: the words of its
block, best first). Written atomically (:func:`punctstyle.io.atomic_path`).

Reading: a stored fit is returned only for the row it was fitted on; a stored fit of the same key
whose classes, seed or training books differ, or that its classifier refuses, is an error of one
line naming the file and the field. A word set whose stored words differ from the asking row's is
not the same experiment (the grid chose its words from each book's pool,
:mod:`punctstyle.corpus.words`, and the choice may be unproven): it is not returned, and the
caller trains its own.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from punctstyle.io import InputError, atomic_path

STORE_FORMAT: str = "punctstyle-fitted/1"
STORED_METHOD: str = "mlp"
"""The classifier whose fits the recognition grid keeps (the others are cheap to fit: KL, Delta)."""


@dataclass(frozen=True)
class FitKey:
    """What a stored fit is looked up by: the row (task, its capped number of classes, seed), the
    classifier and the feature view."""

    task: str
    n_classes: int
    seed: int
    method: str
    feature_set: str


def stores_row(class_size: int | str, n_available: int, consumer_sizes: Iterable[int]) -> bool:
    """Whether a recognition row of requested ``class_size`` keeps its fits: a consumer runs at
    that size, or (the ``"all"`` row) a consumer size caps to every class (``>= n_available``)."""
    sizes = [int(s) for s in consumer_sizes]
    if class_size == "all":
        return any(s >= n_available for s in sizes)
    return int(class_size) in sizes


@dataclass(frozen=True)
class StoredFit:
    """One fit to store: its key, the fitted classifier (it has ``fitted_state``), the book ids
    it was trained on, and its test books with their predictions."""

    key: FitKey
    model: Any
    train_ids: np.ndarray
    test_ids: np.ndarray
    y_pred: np.ndarray
    vocabulary: tuple[str, ...] = ()
    """A word set's words, best first (empty for punctuation sets)."""


def write_fits(path: Any, fits: Sequence[StoredFit]) -> None:
    """Write ``fits`` (possibly none) to ``path`` atomically (module docstring)."""
    arrays: dict[str, np.ndarray] = {}
    meta: list[dict[str, Any]] = []
    for i, fit in enumerate(fits):
        state, model_meta = fit.model.fitted_state()
        for name, values in state.items():
            arrays[f"{i}/{name}"] = values
        arrays[f"{i}/train_ids"] = np.asarray(fit.train_ids, dtype=np.int64)
        arrays[f"{i}/test_ids"] = np.asarray(fit.test_ids, dtype=np.int64)
        arrays[f"{i}/y_pred"] = np.asarray([str(v) for v in fit.y_pred], dtype=str)
        meta.append({**asdict(fit.key), **model_meta, **({"vocabulary": list(fit.vocabulary)} if fit.vocabulary else {})})
    arrays["meta"] = np.asarray(json.dumps({"format": STORE_FORMAT, "views": meta}))
    with atomic_path(path) as tmp, open(tmp, "wb") as handle:
        np.savez(handle, **arrays)


class FitStore:
    """The stored fits of some store files (a path or several), looked up by :class:`FitKey`."""

    def __init__(self, paths: Iterable[Any] = ()) -> None:
        self._entries: dict[FitKey, tuple[str, dict[str, Any], dict[str, np.ndarray]]] = {}
        for path in [paths] if isinstance(paths, (str, os.PathLike)) else paths:
            self._read(str(path))

    def _read(self, path: str) -> None:
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {name: data[name] for name in data.files}
            meta = json.loads(str(arrays.pop("meta")))
        except (OSError, ValueError, KeyError) as exc:
            raise InputError(f"{path}: not a stored-fits file ({exc})") from exc
        if meta.get("format") != STORE_FORMAT:
            raise InputError(f"{path}: format {meta.get('format')!r}, expected {STORE_FORMAT!r}")
        for i, view in enumerate(meta["views"]):
            key = FitKey(view["task"], int(view["n_classes"]), int(view["seed"]), view["method"], view["feature_set"])
            prefix = f"{i}/"
            self._entries[key] = (path, view, {n[len(prefix):]: a for n, a in arrays.items() if n.startswith(prefix)})

    def __len__(self) -> int:
        return len(self._entries)

    def keys(self) -> list[FitKey]:
        return list(self._entries)

    def predictions(self, key: FitKey) -> tuple[np.ndarray, np.ndarray] | None:
        """(test book ids, predicted labels) of a stored fit; None when not stored."""
        if key not in self._entries:
            return None
        arrays = self._entries[key][2]
        return arrays["test_ids"], np.asarray(arrays["y_pred"], dtype=object)

    def load(
        self,
        key: FitKey,
        make: Callable[[], Any],
        *,
        classes: Sequence[Any],
        train_ids: Sequence[Any],
        vocabulary: Sequence[str] | None = None,
    ) -> Any:
        """The stored fit of ``key`` loaded into ``make()`` (a fresh classifier built with the asking
        row's options, :meth:`load_fitted_state`), checked against the row that asks for it: its
        sampled ``classes`` and the book ids it trains on (``train_ids``); the classifier checks
        its own options. None when ``key`` is not stored, or when it is a word set stored with
        other words than the row's ``vocabulary`` (module docstring); an
        :class:`~punctstyle.io.InputError` (one line: file, key, field) when it does not match,
        or when a word set is asked for without the row's words."""
        if key not in self._entries:
            return None
        path, view, arrays = self._entries[key]
        where = f"{path}: stored {key.method} {key.feature_set!r} ({key.task}, {key.n_classes} classes, seed {key.seed})"
        if "vocabulary" in view:
            if vocabulary is None:
                raise InputError(f"{where} is a word set: the asking row must name its words")
            if list(view["vocabulary"]) != [str(w) for w in vocabulary]:
                return None
        checks = (
            ("classes", [str(c) for c in arrays["classes"]], sorted(str(c) for c in classes)),
            ("seed", int(view["seed"]), int(key.seed)),
            ("training books", arrays["train_ids"].tolist(), [int(i) for i in train_ids]),
        )
        for field, stored, asked in checks:
            if stored != asked:
                raise InputError(f"{where} does not match the row: its {field} differ ({_short(stored)} != {_short(asked)})")
        try:
            return make().load_fitted_state(arrays, view)
        except ValueError as exc:
            raise InputError(f"{where} does not match the row: {exc}") from exc


def _short(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
