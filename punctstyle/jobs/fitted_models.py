"""Fitted networks of the recognition grid, kept for the analyses that reuse them (issue 26:
a trained network is trained once).

A recognition row (task, class size, seed) writes the MLPs that later analyses ask for, keyed by
(task, n_classes, seed, feature view, protocol), with the predictions on the row's test books:

* the length curve's ``"whole"`` training mode (an MLP of the row's classes, split and seed on
  whole training books: the recognition grid's network), scored there on every excerpt length;
* the f3 importance's test-split MLP (permutation importance, the ``k = d`` row).

Which views a row stores is planned by :func:`punctstyle.plan.fitted_models.stored_views` (the length curve's MLP sets when it
trains on whole books: punctuation sets from the grid, word sets such as ``words1000`` from the
grid's word baselines; and ``f3`` when the importance runs) and which rows by
:func:`stores_row` (the class sizes those analyses run, or the ``"all"`` row they cap to).
Nothing else is stored: the other networks of the grid are not read again.

File (one per recognition row, ``models/{task}/{classes}_classes/seed{seed}_fitted.npz``): an
uncompressed ``.npz`` (float32 weights do not compress: measured in docs/performance.md) with,
per stored view ``i``, the arrays of :func:`model_arrays` under
``"{i}/..."``, the training and test book ids and the test predictions; ``"meta"`` is a JSON
string (format, and per view: task, n_classes, seed, method, feature_set, feature columns,
protocol = the MLP's parameters, epochs; a word set's ``vocabulary``: the words of its block,
best first). Written atomically (:func:`punctstyle.io.atomic_path`).

Reading (:class:`FittedModels`): a stored model is returned only for the row it was fitted on; a
stored model of the same (task, n_classes, seed, view) whose classes, feature columns, seed,
protocol or training books differ is an error of one line naming the file and the field. A word
set whose stored words differ from the asking row's is not the same experiment (the grid chose
its words from each book's pool, :mod:`punctstyle.corpus.words`, and the choice may be unproven):
it is not returned, and the caller trains its own.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from punctstyle.io import InputError, atomic_path

STORE_FORMAT: str = "punctstyle-fitted/1"
STORED_METHOD: str = "mlp"
"""The classifier whose fits are stored (the others are cheap to fit: KL, Delta)."""


@dataclass(frozen=True)
class StoreKey:
    """What a stored fit is looked up by: task, the row's (capped) number of classes, seed,
    classifier and feature view (the config's name, e.g. ``"all"`` or ``"f3"``)."""

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


# ----------------------------------------------------------------------------- arrays


def model_arrays(model: Any) -> dict[str, np.ndarray]:
    """The arrays that define a trained :class:`punctstyle.classifiers.mlp.TrainedMLP`, value for
    value: the layers' float32 weights and biases (``w0, b0, w1, b1``), the float64 scaler
    (``mean``, ``scale``) and the classes (str). :func:`model_from_arrays` rebuilds the model; its predictions are the same numbers."""
    state = model.network.state_dict()
    return {
        "w0": state["0.weight"].detach().cpu().numpy().copy(),
        "b0": state["0.bias"].detach().cpu().numpy().copy(),
        "w1": state["2.weight"].detach().cpu().numpy().copy(),
        "b1": state["2.bias"].detach().cpu().numpy().copy(),
        "mean": np.asarray(model.mean, dtype=np.float64),
        "scale": np.asarray(model.scale, dtype=np.float64),
        "classes": np.asarray([str(c) for c in model.classes], dtype=str),
    }


def model_from_arrays(
    arrays: Mapping[str, np.ndarray],
    *,
    params: Any,
    feature_set: Sequence[str],
    seed: int,
    epochs: int,
    best_epoch: int,
    device: str = "cpu",
) -> Any:
    """The :class:`punctstyle.classifiers.mlp.TrainedMLP` of :func:`model_arrays` (weights loaded
    as stored, no training)."""
    w0, w1 = np.asarray(arrays["w0"]), np.asarray(arrays["w1"])
    if w0.shape[0] != params.hidden:
        raise ValueError(f"stored network has {w0.shape[0]} hidden units, the parameters say {params.hidden}")
    import torch  # lazy: only a stored model's reader needs it

    from punctstyle.classifiers.mlp import TrainedMLP, build_network, resolve_device

    network = build_network(w0.shape[1], params.hidden, w1.shape[0])
    state = {name: torch.from_numpy(np.array(arrays[key], dtype=np.float32)) for name, key in
             (("0.weight", "w0"), ("0.bias", "b0"), ("2.weight", "w1"), ("2.bias", "b1"))}
    network.load_state_dict(state)
    dev = resolve_device(device)
    network.to(dev).eval()
    classes = np.empty(len(arrays["classes"]), dtype=object)
    classes[:] = [str(c) for c in arrays["classes"]]
    return TrainedMLP(
        network=network,
        mean=np.asarray(arrays["mean"], dtype=np.float64),
        scale=np.asarray(arrays["scale"], dtype=np.float64),
        classes=classes,
        feature_set=tuple(feature_set),
        params=params,
        seed=int(seed),
        epochs=int(epochs),
        best_epoch=int(best_epoch),
        device=dev,
    )


# ----------------------------------------------------------------------------- writer


@dataclass(frozen=True)
class FittedEntry:
    """One fitted network to store: its key, the trained model
    (:class:`punctstyle.classifiers.mlp.TrainedMLP`), the book ids it was trained on, and its
    test books with their predictions."""

    key: StoreKey
    model: Any
    train_ids: np.ndarray
    test_ids: np.ndarray
    y_pred: np.ndarray
    vocabulary: tuple[str, ...] = ()
    """A word set's words, best first (empty for punctuation sets)."""


def write_fitted(path: Any, entries: Sequence[FittedEntry]) -> None:
    """Write ``entries`` (possibly none) to ``path`` atomically (module docstring)."""
    arrays: dict[str, np.ndarray] = {}
    meta: list[dict[str, Any]] = []
    for i, entry in enumerate(entries):
        for name, values in model_arrays(entry.model).items():
            arrays[f"{i}/{name}"] = values
        arrays[f"{i}/train_ids"] = np.asarray(entry.train_ids, dtype=np.int64)
        arrays[f"{i}/test_ids"] = np.asarray(entry.test_ids, dtype=np.int64)
        arrays[f"{i}/y_pred"] = np.asarray([str(v) for v in entry.y_pred], dtype=str)
        meta.append(
            {
                **asdict(entry.key),
                "feature_columns": list(entry.model.feature_set),
                "protocol": asdict(entry.model.params),
                "epochs": int(entry.model.epochs),
                "best_epoch": int(entry.model.best_epoch),
                **({"vocabulary": list(entry.vocabulary)} if entry.vocabulary else {}),
            }
        )
    arrays["meta"] = np.asarray(json.dumps({"format": STORE_FORMAT, "views": meta}))
    with atomic_path(path) as tmp, open(tmp, "wb") as handle:
        np.savez(handle, **arrays)


# ----------------------------------------------------------------------------- reader


class FittedModels:
    """The stored fits of some store files, looked up by :class:`StoreKey`."""

    def __init__(self, paths: Iterable[Any] = ()) -> None:
        self._entries: dict[StoreKey, tuple[str, dict[str, Any], dict[str, np.ndarray]]] = {}
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
            key = StoreKey(view["task"], int(view["n_classes"]), int(view["seed"]), view["method"], view["feature_set"])
            prefix = f"{i}/"
            self._entries[key] = (path, view, {n[len(prefix):]: a for n, a in arrays.items() if n.startswith(prefix)})

    def __len__(self) -> int:
        return len(self._entries)

    def keys(self) -> list[StoreKey]:
        return list(self._entries)

    def predictions(self, key: StoreKey) -> tuple[np.ndarray, np.ndarray] | None:
        """(test book ids, predicted labels) of a stored fit; None when not stored."""
        if key not in self._entries:
            return None
        arrays = self._entries[key][2]
        return arrays["test_ids"], np.asarray(arrays["y_pred"], dtype=object)

    def model(
        self,
        key: StoreKey,
        *,
        feature_columns: Sequence[str],
        classes: Sequence[Any],
        train_ids: Sequence[Any],
        params: Any,
        device: str = "cpu",
        vocabulary: Sequence[str] | None = None,
    ) -> Any:
        """The stored :class:`punctstyle.classifiers.mlp.TrainedMLP` of ``key``, checked against the
        row that asks for it: its feature columns (``feature_columns``), its sampled ``classes``,
        the book ids it trains on (``train_ids``) and the MLP parameters (``params``, an
        :class:`~punctstyle.classifiers.mlp.MLPParams`). None when ``key`` is not stored, or when
        it is a word set stored with other words than the row's ``vocabulary`` (module docstring);
        an :class:`~punctstyle.io.InputError` (one line: file, key, field) when it does not match,
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
            ("feature columns", list(view["feature_columns"]), list(feature_columns)),
            ("classes", [str(c) for c in arrays["classes"]], sorted(str(c) for c in classes)),
            ("seed", int(view["seed"]), int(key.seed)),
            ("training books", arrays["train_ids"].tolist(), [int(i) for i in train_ids]),
            ("protocol", view["protocol"], asdict(params)),
        )
        for field, stored, asked in checks:
            if stored != asked:
                raise InputError(f"{where} does not match the row: its {field} differ ({_short(stored)} != {_short(asked)})")
        return model_from_arrays(
            arrays,
            params=params,
            feature_set=view["feature_columns"],
            seed=view["seed"],
            epochs=view["epochs"],
            best_epoch=view["best_epoch"],
            device=device,
        )


def _short(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def stored_classifier(model: Any, *, seed: int, device: str = "cpu", num_threads: int | None = None) -> Any:
    """A fitted :class:`punctstyle.classifiers.mlp.MLPClassifier` around a stored ``model``
    (predict and diagnostics as if it had been fitted here)."""
    from punctstyle.classifiers.mlp import MLPClassifier  # lazy: imports torch

    classifier = MLPClassifier(seed=seed, feature_set=model.feature_set, params=model.params,
                               device=device, num_threads=num_threads)
    classifier.model = model
    return classifier


def stored_fit_reader(
    fitted: Sequence[Any], task: str, n_classes: int, seed: int, options: Mapping[str, Any]
) -> Callable[..., Any]:
    """``stored(feature_set, feature_columns, classes, train_ids, vocabulary=None)``: the
    recognition grid's fitted MLP of this row and feature set, as a fitted classifier, read from
    the store files ``fitted`` (:class:`FittedModels`; checked against the row; ``vocabulary``:
    the row's words, for a word set), or None when none is stored (the caller trains it)."""
    models = FittedModels(fitted)

    def stored(feature_set: str, feature_columns: Sequence[str], classes: Any, train_ids: Any,
               vocabulary: Sequence[str] | None = None) -> Any:
        key = StoreKey(task, n_classes, seed, STORED_METHOD, feature_set)
        if key not in models.keys():
            return None
        from punctstyle.classifiers.mlp import MLPParams  # lazy: imports torch

        params = options["params"] if isinstance(options["params"], MLPParams) else MLPParams.from_config(options["params"])
        model = models.model(key, feature_columns=feature_columns, classes=classes, train_ids=train_ids, params=params,
                             device=options.get("device", "cpu"), vocabulary=vocabulary)
        if model is None:
            return None
        return stored_classifier(model, seed=seed, device=options.get("device", "cpu"),
                                 num_threads=options.get("num_threads"))

    return stored
