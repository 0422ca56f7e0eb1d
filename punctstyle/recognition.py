"""Author and genre recognition: closed-set splits, baseline, KL nearest class, MLP (2.4-2.5).

Every experiment (a *row*: task, number of classes, seed) draws a uniform sample of
``n_classes`` classes and splits their documents 80/20, stratified by class, so that every
class of the testing set is also in the training set (closed-set attribution). The sample
and the split are computed once per row and shared by every method and feature set.

Methods (section 2.4 of the paper):

* ``kl`` -- similarity-based classification. The class signature is the mean training
  feature, ``f^{l,c_j}_i = (1/|D_j|) sum_{k in D_j} f^{l,k}_i``, and a test document ``k``
  goes to ``argmin_j d_KL(f^{l,c_j}, f^{l,k})`` (class first, document second), for one
  distribution feature ``l`` in {1, 3, 4, 5} at a time. An empty common support (NaN)
  never wins; a document whose divergences are all NaN goes to the largest training class.
* ``mlp`` -- a feed-forward network with one hidden layer (2000 ReLU units), softmax
  output, on the standardised concatenation of a feature set; Adam, minibatches of 200,
  early stopping on a stratified validation part of the training set.

Evaluation (section 2.5): accuracy = correctly assigned test documents / test documents;
the baseline assigns each test document to class ``c`` with probability
``|D_c| / sum_j |D_j|`` (training sizes), so its expected accuracy is the mean, over test
documents, of the training share of the document's true class.
"""

from __future__ import annotations

import contextlib
import copy
import math
import os
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import torch

from punctstyle.corpus import feature_matrix
from punctstyle.divergence import pairwise_kl
from punctstyle.io import atomic_path
from punctstyle.marks import DISTRIBUTION_FEATURES, FEATURES

# --------------------------------------------------------------------------- constants

DEFAULT_CLASS_SIZES: tuple[int | str, ...] = (10, 50, 100, 200, 400, 600, "all")
"""Numbers of classes per experiment row (``"all"``: every class of the corpus)."""

FEATURE_SETS: dict[str, tuple[str, ...]] = {
    "f1": ("f1",),
    "f3": ("f3",),
    "f4": ("f4",),
    "f5": ("f5",),
    "f1+f3+f4+f5": ("f1", "f3", "f4", "f5"),
    "all": FEATURES,
}
"""The paper's feature sets (Tables 3 and 4); KL uses the single distribution features."""

KL_FEATURE_SETS: tuple[str, ...] = tuple(f for f in FEATURE_SETS if f in DISTRIBUTION_FEATURES)
METHODS: tuple[str, ...] = ("kl", "mlp")
METHOD_LABELS: dict[str, str] = {"kl": "KL nearest class", "mlp": "neural network"}
TEST_FRACTION: float = 0.2
MODEL_FORMAT: str = "punctstyle-mlp/1"


def resolve_feature_set(name: str) -> tuple[str, ...]:
    """Features of a set name: ``"all"`` -> f1..f6, ``"f1+f3"`` -> (f1, f3), ``"f3"`` -> (f3,)."""
    if name == "all":
        return FEATURES
    features = tuple(name.split("+"))
    unknown = [f for f in features if f not in FEATURES]
    if unknown or len(set(features)) != len(features):
        raise ValueError(f"bad feature set {name!r}: expected 'all' or '+'-joined names of f1..f6")
    return features


def feature_set_label(name: str) -> str:
    """Table header of a feature set: ``f3``, ``{f1, f3, f4, f5}``, ``all``."""
    features = resolve_feature_set(name)
    if name == "all" or len(features) == 1:
        return name
    return "{" + ", ".join(features) + "}"


def stack_features(features: Mapping[str, Any], feature_set: str | Sequence[str]) -> np.ndarray:
    """Concatenate the features of a set column-wise: an (n_docs, total size) float64 array.

    ``features`` maps f1..f6 to (n_docs, size) arrays, or to 1-d vectors of one document
    (then the result has one row).
    """
    names = resolve_feature_set(feature_set) if isinstance(feature_set, str) else tuple(feature_set)
    missing = [f for f in names if f not in features]
    if missing:
        raise KeyError(f"no feature {missing[0]!r} among {sorted(features)}")
    blocks = [np.atleast_2d(np.asarray(features[f], dtype=np.float64)) for f in names]
    if len({b.shape[0] for b in blocks}) != 1:
        raise ValueError(f"features {names} differ in their number of rows")
    return np.concatenate(blocks, axis=1)


def matrices_from_tables(
    tables: Mapping[str, pd.DataFrame], label_column: str
) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray]:
    """Feature matrices, labels and book ids from the corpus tables (``f1`` .. ``f6``).

    Rows whose label is null (e.g. books without a genre) are dropped. Every table must list
    the same books in the same order (``book_id``). Returns ``(features, labels, book_ids)``.
    """
    if not tables:
        raise ValueError("no feature tables given")
    first = next(iter(tables.values()))
    book_ids = first["book_id"].to_numpy()
    for name, table in tables.items():
        if not np.array_equal(table["book_id"].to_numpy(), book_ids):
            raise ValueError(f"table {name} does not list the same books in the same order")
    keep = first[label_column].notna().to_numpy()
    labels = first[label_column].to_numpy(dtype=object)[keep]
    features = {name: feature_matrix(table, name)[keep] for name, table in tables.items()}
    return features, labels, book_ids[keep]


# --------------------------------------------------------------------------- sampling, split


def row_rng(seed: int, n_classes: int, task: str = "") -> np.random.Generator:
    """The random generator of one experiment row, from (task, n_classes, seed).

    The task enters through a CRC-32 of its name, so that author and genre recognition
    never share a split.
    """
    if seed < 0:
        raise ValueError(f"seed must be non-negative, got {seed}")
    return np.random.default_rng(np.random.SeedSequence([seed, n_classes, zlib.crc32(task.encode())]))


def effective_class_sizes(class_sizes: Iterable[int | str], n_available: int) -> list[int]:
    """Requested numbers of classes capped by ``n_available`` (``"all"`` -> all), duplicates dropped."""
    sizes: list[int] = []
    for size in class_sizes:
        if size == "all":
            n = n_available
        elif isinstance(size, (int, np.integer)) and not isinstance(size, bool) and size >= 1:
            n = min(int(size), n_available)
        else:
            raise ValueError(f"bad class size {size!r}: expected a positive integer or 'all'")
        if n not in sizes:
            sizes.append(n)
    return sizes


def sample_classes(labels: Sequence[Any], n_classes: int, rng: np.random.Generator) -> np.ndarray:
    """``n_classes`` distinct classes drawn uniformly without replacement, sorted.

    All classes (no random draw) when ``n_classes`` is at least the number of classes.
    """
    classes = np.unique(np.asarray(labels, dtype=object))
    if n_classes >= classes.size:
        return classes
    return np.sort(rng.choice(classes, size=n_classes, replace=False))


def _round_half_up(x: np.ndarray) -> np.ndarray:
    return np.floor(np.asarray(x, dtype=np.float64) + 0.5 + 1e-9).astype(np.int64)


def stratified_split(
    labels: Sequence[Any], test_fraction: float, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Closed-set split: (train indices, test indices), both sorted.

    A class with ``n`` documents puts ``min(round(test_fraction * n), n - 1)`` of them,
    drawn at random, in the test set (rounding half up), so every test class keeps at
    least one training document; a class with one document goes to training only.
    """
    if not 0.0 <= test_fraction < 1.0:
        raise ValueError(f"test_fraction must lie in [0, 1), got {test_fraction}")
    y = np.asarray(labels, dtype=object)
    classes, inverse, counts = np.unique(y, return_inverse=True, return_counts=True)
    n_test = np.minimum(_round_half_up(test_fraction * counts), counts - 1)
    # A random key per document; within each class the n_test smallest keys go to test.
    keys = rng.random(y.size)
    order = np.lexsort((keys, inverse))
    rank = np.empty(y.size, dtype=np.int64)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    rank[order] = np.arange(y.size) - np.repeat(starts, counts)
    is_test = rank < n_test[inverse]
    return np.flatnonzero(~is_test), np.flatnonzero(is_test)


def baseline_accuracy(train_labels: Sequence[Any], test_labels: Sequence[Any]) -> float:
    """Expected accuracy of the proportional random classifier (section 2.5).

    Each test document is assigned to class ``c`` with probability ``n_c / n_train``
    (training sizes), so it is correct with probability ``n_{c(k)} / n_train``; the
    expected accuracy is ``(1 / n_test) sum_k n_{c(k)} / n_train``.
    """
    train = np.asarray(train_labels, dtype=object)
    test = np.asarray(test_labels, dtype=object)
    if test.size == 0:
        return math.nan
    classes, counts = np.unique(train, return_counts=True)
    position = np.searchsorted(classes, test)
    position = np.minimum(position, classes.size - 1)
    known = classes[position] == test
    share = np.where(known, counts[position] / train.size, 0.0)
    return float(share.mean())


def accuracy(y_true: Sequence[Any], y_pred: Sequence[Any]) -> float:
    """Fraction of test documents whose predicted class is the true class."""
    t, p = np.asarray(y_true, dtype=object), np.asarray(y_pred, dtype=object)
    return float(np.mean(t == p)) if t.size else math.nan


# --------------------------------------------------------------------------- KL nearest class


def class_signatures(X: np.ndarray, labels: Sequence[Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(classes, signatures, counts): the mean feature of each class's documents.

    ``signatures[j] = (1/|D_j|) sum_{k in D_j} X[k]`` for the sorted classes ``c_j``.
    """
    X = np.asarray(X, dtype=np.float64)
    classes, inverse, counts = np.unique(
        np.asarray(labels, dtype=object), return_inverse=True, return_counts=True
    )
    sums = np.zeros((classes.size, X.shape[1]))
    np.add.at(sums, inverse, X)
    return classes, sums / counts[:, None], counts


def kl_nearest(signatures: np.ndarray, X: np.ndarray, fallback: int) -> tuple[np.ndarray, int]:
    """Index of the nearest signature of each row of ``X``, and the number of fallbacks.

    ``argmin_j d_KL(signature_j, X[k])`` (signature first, document second); NaN (empty
    common support) counts as +inf; a document with all-NaN divergences gets ``fallback``.
    """
    D = pairwise_kl(signatures, X)  # (n_classes, n_docs)
    D = np.where(np.isnan(D), np.inf, D)
    nearest = np.argmin(D, axis=0)
    undefined = np.isinf(D).all(axis=0)
    nearest[undefined] = fallback
    return nearest, int(undefined.sum())


def classify_kl(X_train: np.ndarray, y_train: Sequence[Any], X_test: np.ndarray) -> tuple[np.ndarray, int]:
    """KL-nearest-class predictions for ``X_test`` and the count of all-NaN fallbacks.

    The fallback is the largest training class (the first in sorted order on a tie).
    """
    classes, signatures, counts = class_signatures(X_train, y_train)
    nearest, n_fallback = kl_nearest(signatures, X_test, int(np.argmax(counts)))
    return classes[nearest], n_fallback


# --------------------------------------------------------------------------- MLP


@dataclass(frozen=True)
class MLPParams:
    """Hyper-parameters of the network and of its training (saved with every model)."""

    hidden: int = 2000
    learning_rate: float = 1e-3
    batch_size: int = 200
    max_epochs: int = 200
    patience: int = 10
    validation_fraction: float = 0.1


@dataclass
class TrainedMLP:
    """A trained network with everything needed to apply it to new documents."""

    network: torch.nn.Module
    mean: np.ndarray
    scale: np.ndarray
    classes: np.ndarray
    feature_set: tuple[str, ...]
    params: MLPParams
    seed: int = 0
    epochs: int = 0
    best_epoch: int = 0
    device: str = "cpu"
    history: list[float] = field(default_factory=list)

    def standardise(self, X: np.ndarray) -> np.ndarray:
        """``(X - mean) / scale`` with the training statistics."""
        X = np.asarray(X, dtype=np.float64)
        if X.ndim != 2 or X.shape[1] != self.mean.size:
            raise ValueError(f"expected an (n, {self.mean.size}) feature array, got shape {X.shape}")
        return (X - self.mean) / self.scale

    def predict_proba(self, X: np.ndarray, batch_size: int = 4096) -> np.ndarray:
        """Softmax class probabilities, (n_docs, n_classes), columns in ``classes`` order."""
        Z = self.standardise(X)
        self.network.eval()
        out = []
        with torch.no_grad():
            for start in range(0, Z.shape[0], batch_size):
                batch = torch.as_tensor(
                    Z[start : start + batch_size], dtype=torch.float32, device=self.device
                )
                out.append(torch.softmax(self.network(batch), dim=1).cpu().double().numpy())
        return np.concatenate(out) if out else np.zeros((0, self.classes.size))

    def predict(self, X: np.ndarray) -> np.ndarray:
        """The most probable class of each document."""
        return self.classes[np.argmax(self.predict_proba(X), axis=1)]

    def predict_features(self, features: Mapping[str, Any]) -> np.ndarray:
        """Probabilities from a feature dict (f1..f6 arrays), using the model's feature set."""
        return self.predict_proba(stack_features(features, self.feature_set))


def fit_scaler(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Training mean and standard deviation per column; zero-variance columns get scale 1."""
    X = np.asarray(X, dtype=np.float64)
    mean = X.mean(axis=0)
    scale = X.std(axis=0)
    scale[~(scale > 1e-12)] = 1.0
    return mean, scale


def resolve_device(device: str = "auto") -> str:
    """``"auto"`` -> ``"cuda"`` when available, else ``"cpu"``; ``"cpu"``/``"cuda"`` as given."""
    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device not in ("cpu", "cuda") and not device.startswith("cuda:"):
        raise ValueError(f"bad device {device!r}: expected 'auto', 'cpu' or 'cuda'")
    if device.startswith("cuda") and not torch.cuda.is_available():
        raise ValueError(f"device {device!r} requested but CUDA is not available")
    return device


@contextlib.contextmanager
def torch_settings(num_threads: int | None, deterministic: bool) -> Iterator[None]:
    """Temporarily set torch's CPU thread count and deterministic mode; restore both after."""
    threads = torch.get_num_threads()
    det = torch.are_deterministic_algorithms_enabled()
    warn_only = torch.is_deterministic_algorithms_warn_only_enabled()
    try:
        if num_threads is not None:
            torch.set_num_threads(max(1, int(num_threads)))
        if deterministic:
            torch.use_deterministic_algorithms(True, warn_only=True)
        yield
    finally:
        torch.set_num_threads(threads)
        torch.use_deterministic_algorithms(det, warn_only=warn_only)


def build_network(n_inputs: int, hidden: int, n_classes: int) -> torch.nn.Sequential:
    """Linear(n_inputs, hidden) -> ReLU -> Linear(hidden, n_classes) (logits)."""
    return torch.nn.Sequential(
        torch.nn.Linear(n_inputs, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, n_classes)
    )


def _validation_loss(network: torch.nn.Module, X: torch.Tensor, y: torch.Tensor) -> float:
    network.eval()
    with torch.no_grad():
        return float(torch.nn.functional.cross_entropy(network(X), y))


def _train_epoch(network, optimiser, X, y, batch_size, generator) -> None:
    network.train()
    order = torch.randperm(X.shape[0], generator=generator).to(X.device)
    for start in range(0, X.shape[0], batch_size):
        batch = order[start : start + batch_size]
        optimiser.zero_grad(set_to_none=True)
        torch.nn.functional.cross_entropy(network(X[batch]), y[batch]).backward()
        optimiser.step()


def train_mlp(
    X: np.ndarray,
    labels: Sequence[Any],
    *,
    params: MLPParams = MLPParams(),
    seed: int = 0,
    feature_set: Sequence[str] = (),
    device: str = "auto",
    num_threads: int | None = None,
) -> TrainedMLP:
    """Train the one-hidden-layer network on (X, labels) with early stopping.

    Inputs are standardised with the training statistics. A stratified part
    (``params.validation_fraction``, same rule as :func:`stratified_split`) of the
    training documents is held out; training stops when its cross-entropy has not improved
    for ``params.patience`` epochs (or after ``params.max_epochs``) and the best weights are
    restored. Without any validation document, all epochs run and the last weights stay.
    Deterministic for a seed on CPU (seeded initialisation and shuffling, deterministic
    algorithms); torch's global RNG, thread count and deterministic flag are restored.
    """
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(labels, dtype=object)
    if X.ndim != 2 or X.shape[0] != y.size or y.size == 0:
        raise ValueError(f"X must be (n, d) with n = len(labels) > 0; got {X.shape} and {y.size} labels")
    if not np.all(np.isfinite(X)):
        raise ValueError("X contains NaN or infinite values")
    dev = resolve_device(device)
    classes, y_idx = np.unique(y, return_inverse=True)
    mean, scale = fit_scaler(X)
    Z = (X - mean) / scale
    fit, val = stratified_split(y_idx, params.validation_fraction, np.random.default_rng(seed))

    def tensors(index: np.ndarray) -> tuple[torch.Tensor, torch.Tensor]:
        return (
            torch.as_tensor(Z[index], dtype=torch.float32, device=dev),
            torch.as_tensor(y_idx[index], dtype=torch.long, device=dev),
        )

    deterministic = dev == "cpu" or "CUBLAS_WORKSPACE_CONFIG" in os.environ
    with torch_settings(num_threads, deterministic), torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        network = build_network(X.shape[1], params.hidden, classes.size).to(dev)
        optimiser = torch.optim.Adam(network.parameters(), lr=params.learning_rate)
        generator = torch.Generator().manual_seed(seed)
        X_fit, y_fit = tensors(fit)
        X_val, y_val = tensors(val)
        best_loss, best_state, best_epoch, stale, history = math.inf, None, 0, 0, []
        epoch = 0
        for epoch in range(1, params.max_epochs + 1):
            _train_epoch(network, optimiser, X_fit, y_fit, params.batch_size, generator)
            if val.size == 0:
                continue
            loss = _validation_loss(network, X_val, y_val)
            history.append(loss)
            if loss < best_loss:
                best_loss, best_epoch, stale = loss, epoch, 0
                best_state = copy.deepcopy(network.state_dict())
            else:
                stale += 1
                if stale >= params.patience:
                    break
        if best_state is not None:
            network.load_state_dict(best_state)
        else:
            best_epoch = epoch
    network.eval()
    return TrainedMLP(
        network=network,
        mean=mean,
        scale=scale,
        classes=classes,
        feature_set=tuple(feature_set),
        params=params,
        seed=seed,
        epochs=epoch,
        best_epoch=best_epoch,
        device=dev,
        history=history,
    )


def save_model(path: str | os.PathLike[str], model: TrainedMLP) -> None:
    """Save a trained model atomically (``torch.save``; loadable with ``weights_only=True``).

    The file holds the state dict, the scaler (mean, scale), the feature set, the class
    list, the hyper-parameters, the seed and epochs, and the torch version: tensors and
    plain Python values only.
    """
    payload = {
        "format": MODEL_FORMAT,
        "state_dict": {k: v.detach().cpu().clone() for k, v in model.network.state_dict().items()},
        "mean": torch.from_numpy(np.asarray(model.mean, dtype=np.float64).copy()),
        "scale": torch.from_numpy(np.asarray(model.scale, dtype=np.float64).copy()),
        "classes": np.asarray(model.classes, dtype=object).tolist(),
        "feature_set": list(model.feature_set),
        "params": asdict(model.params),
        "seed": int(model.seed),
        "epochs": int(model.epochs),
        "best_epoch": int(model.best_epoch),
        "history": [float(v) for v in model.history],
        "torch_version": str(torch.__version__),
    }
    with atomic_path(path) as tmp:
        torch.save(payload, tmp)


def load_model(path: str | os.PathLike[str], device: str = "cpu") -> TrainedMLP:
    """Load a model written by :func:`save_model` (``torch.load(weights_only=True)``)."""
    payload = torch.load(path, map_location="cpu", weights_only=True)
    if not isinstance(payload, dict) or payload.get("format") != MODEL_FORMAT:
        raise ValueError(f"{path}: not a punctstyle MLP model ({MODEL_FORMAT})")
    params = MLPParams(**payload["params"])
    state = payload["state_dict"]
    network = build_network(state["0.weight"].shape[1], params.hidden, state["2.weight"].shape[0])
    network.load_state_dict(state)
    dev = resolve_device(device)
    network.to(dev).eval()
    classes = np.empty(len(payload["classes"]), dtype=object)
    classes[:] = payload["classes"]
    return TrainedMLP(
        network=network,
        mean=payload["mean"].numpy(),
        scale=payload["scale"].numpy(),
        classes=classes,
        feature_set=tuple(payload["feature_set"]),
        params=params,
        seed=payload["seed"],
        epochs=payload["epochs"],
        best_epoch=payload["best_epoch"],
        device=dev,
        history=list(payload["history"]),
    )


# --------------------------------------------------------------------------- experiments


@dataclass
class Experiment:
    """One (task, n_classes, seed, method, feature set) experiment and its predictions."""

    task: str
    n_classes: int
    seed: int
    method: str
    feature_set: str
    train_index: np.ndarray
    test_index: np.ndarray
    y_true: np.ndarray
    y_pred: np.ndarray
    baseline: float
    classes: np.ndarray
    n_fallback: int = 0
    epochs: int = 0
    model: TrainedMLP | None = None

    def confusion(self) -> pd.DataFrame:
        """Confusion matrix over the row's sampled classes (see :func:`confusion_matrix`)."""
        return confusion_matrix(self.y_true, self.y_pred, labels=self.classes)

    def per_class(self) -> pd.DataFrame:
        """Per-class test accuracy (see :func:`per_class_accuracy`)."""
        return per_class_accuracy(self.y_true, self.y_pred)

    def row(self) -> dict[str, Any]:
        """The summary row of the results table."""
        return {
            "task": self.task,
            "n_classes": self.n_classes,
            "seed": self.seed,
            "method": self.method,
            "feature_set": self.feature_set,
            "n_train": int(self.train_index.size),
            "n_test": int(self.test_index.size),
            "accuracy": accuracy(self.y_true, self.y_pred),
            "baseline": self.baseline,
            "n_fallback": self.n_fallback,
            "epochs": self.epochs,
        }


@dataclass(frozen=True)
class RowSplit:
    """The class sample and the split of one experiment row (indices into the corpus)."""

    classes: np.ndarray
    train_index: np.ndarray
    test_index: np.ndarray


def row_split(
    labels: Sequence[Any], n_classes: int, seed: int, task: str = "", test_fraction: float = TEST_FRACTION
) -> RowSplit:
    """Sample ``n_classes`` classes and split their documents (closed set), for one row."""
    y = np.asarray(labels, dtype=object)
    rng = row_rng(seed, n_classes, task)
    classes = sample_classes(y, n_classes, rng)
    members = np.flatnonzero(np.isin(y, classes))
    train, test = stratified_split(y[members], test_fraction, rng)
    return RowSplit(classes, members[train], members[test])


def _check_inputs(features: Mapping[str, np.ndarray], labels: Sequence[Any]) -> np.ndarray:
    y = np.asarray(labels, dtype=object)
    if pd.isna(y).any():
        raise ValueError("labels contain null values; drop those documents first")
    for name, X in features.items():
        if np.asarray(X).shape[0] != y.size:
            raise ValueError(f"feature {name} has {np.asarray(X).shape[0]} rows for {y.size} labels")
    return y


def recognition_experiments(
    features: Mapping[str, np.ndarray],
    labels: Sequence[Any],
    *,
    task: str = "author",
    class_sizes: Iterable[int | str] = DEFAULT_CLASS_SIZES,
    seeds: Iterable[int] = (0,),
    feature_sets: Sequence[str] = tuple(FEATURE_SETS),
    methods: Sequence[str] = METHODS,
    mlp_params: MLPParams = MLPParams(),
    test_fraction: float = TEST_FRACTION,
    device: str = "auto",
    num_threads: int | None = None,
    keep_models: bool = False,
) -> Iterator[Experiment]:
    """Run the grid lazily: one :class:`Experiment` per (n_classes, seed, method, feature set).

    ``features`` maps f1..f6 to (n_docs, size) arrays aligned with ``labels``. KL runs only
    on single distribution features (f1, f3, f4, f5) of ``feature_sets``; the MLP on every
    set. The sample and split of a (n_classes, seed) row are shared by all of its methods and
    feature sets. ``keep_models`` keeps each trained network on its experiment.
    """
    y = _check_inputs(features, labels)
    unknown = [m for m in methods if m not in METHODS]
    if unknown:
        raise ValueError(f"unknown method {unknown[0]!r}: expected one of {METHODS}")
    for name in feature_sets:
        resolve_feature_set(name)
    n_available = np.unique(y).size
    matrices = {name: stack_features(features, name) for name in feature_sets}
    for n_classes in effective_class_sizes(class_sizes, n_available):
        for seed in seeds:
            split = row_split(y, n_classes, seed, task, test_fraction)
            y_train, y_test = y[split.train_index], y[split.test_index]
            base = baseline_accuracy(y_train, y_test)
            common = dict(
                task=task,
                n_classes=n_classes,
                seed=seed,
                train_index=split.train_index,
                test_index=split.test_index,
                y_true=y_test,
                baseline=base,
                classes=split.classes,
            )
            for method in methods:
                for name in feature_sets:
                    if method == "kl" and name not in KL_FEATURE_SETS:
                        continue
                    X = matrices[name]
                    X_train, X_test = X[split.train_index], X[split.test_index]
                    if method == "kl":
                        pred, n_fallback = classify_kl(X_train, y_train, X_test)
                        yield Experiment(
                            method=method, feature_set=name, y_pred=pred, n_fallback=n_fallback, **common
                        )
                    else:
                        model = train_mlp(
                            X_train,
                            y_train,
                            params=mlp_params,
                            seed=seed,
                            feature_set=resolve_feature_set(name),
                            device=device,
                            num_threads=num_threads,
                        )
                        yield Experiment(
                            method=method,
                            feature_set=name,
                            y_pred=model.predict(X_test),
                            epochs=model.epochs,
                            model=model if keep_models else None,
                            **common,
                        )


def results_frame(experiments: Iterable[Experiment]) -> pd.DataFrame:
    """The results table: one row per experiment (see :meth:`Experiment.row`)."""
    columns = [
        "task",
        "n_classes",
        "seed",
        "method",
        "feature_set",
        "n_train",
        "n_test",
        "accuracy",
        "baseline",
        "n_fallback",
        "epochs",
    ]
    return pd.DataFrame([e.row() for e in experiments], columns=columns)


def run_recognition_grid(
    features: Mapping[str, np.ndarray] | Mapping[str, pd.DataFrame],
    labels: Sequence[Any] | str,
    **options: Any,
) -> pd.DataFrame:
    """Results table of the recognition grid (options: see :func:`recognition_experiments`).

    ``features`` is either a dict of feature matrices with ``labels`` aligned to its rows,
    or the corpus tables (``f1`` .. ``f6`` DataFrames) with ``labels`` the name of the
    label column (``"author"`` or ``"genre"``; null labels are dropped).
    """
    if isinstance(labels, str):
        features, labels, _ = matrices_from_tables(features, labels)  # type: ignore[arg-type]
    options.pop("keep_models", None)
    return results_frame(recognition_experiments(features, labels, **options))  # type: ignore[arg-type]


def predictions_frame(
    experiments: Iterable[Experiment], doc_ids: Sequence[Any] | None = None
) -> pd.DataFrame:
    """Long table of test predictions: experiment keys, ``doc`` (index or id), true, predicted."""
    frames = []
    ids = None if doc_ids is None else np.asarray(doc_ids)
    for e in experiments:
        frames.append(
            pd.DataFrame(
                {
                    "task": e.task,
                    "n_classes": e.n_classes,
                    "seed": e.seed,
                    "method": e.method,
                    "feature_set": e.feature_set,
                    "doc": e.test_index if ids is None else ids[e.test_index],
                    "true": e.y_true,
                    "predicted": e.y_pred,
                }
            )
        )
    columns = ["task", "n_classes", "seed", "method", "feature_set", "doc", "true", "predicted"]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=columns)


def confusion_matrix(
    y_true: Sequence[Any], y_pred: Sequence[Any], labels: Sequence[Any] | None = None
) -> pd.DataFrame:
    """Counts ``C[a, b]`` = test documents of true class ``a`` predicted as ``b``.

    Rows and columns follow ``labels`` (default: the sorted union of both sequences).
    """
    t, p = np.asarray(y_true, dtype=object), np.asarray(y_pred, dtype=object)
    classes = np.unique(np.concatenate([t, p])) if labels is None else np.asarray(labels, dtype=object)
    index = pd.Index(classes)
    ti, pi = index.get_indexer(t), index.get_indexer(p)
    if (ti < 0).any() or (pi < 0).any():
        raise ValueError("a true or predicted class is missing from labels")
    counts = np.bincount(ti * classes.size + pi, minlength=classes.size**2).reshape(classes.size, -1)
    return pd.DataFrame(
        counts, index=pd.Index(classes, name="true"), columns=pd.Index(classes, name="predicted")
    )


def per_class_accuracy(y_true: Sequence[Any], y_pred: Sequence[Any]) -> pd.DataFrame:
    """One row per true class: ``class``, ``n_test``, ``n_correct``, ``accuracy``."""
    t, p = np.asarray(y_true, dtype=object), np.asarray(y_pred, dtype=object)
    classes, inverse, n_test = np.unique(t, return_inverse=True, return_counts=True)
    correct = np.bincount(inverse, weights=(t == p).astype(np.float64), minlength=classes.size)
    return pd.DataFrame(
        {
            "class": classes,
            "n_test": n_test,
            "n_correct": correct.astype(np.int64),
            "accuracy": correct / n_test,
        }
    )


# --------------------------------------------------------------------------- summary tables


def summarise(results: pd.DataFrame) -> pd.DataFrame:
    """Mean and sample standard deviation over seeds, one row per (task, method, n_classes).

    Columns: ``task``, ``method``, ``n_classes``, ``n_seeds``, ``n_train``, ``n_test``, one
    ``accuracy[<feature set>]`` per feature set, ``baseline``, then the ``*_std`` columns
    (NaN with a single seed), as in the paper's Tables 2-4.
    """
    keys = ["task", "method", "n_classes"]
    sizes = results.drop_duplicates(keys + ["seed"])
    size_stats = sizes.groupby(keys, sort=True).agg(
        n_seeds=("seed", "nunique"),
        n_train=("n_train", "mean"),
        n_test=("n_test", "mean"),
        baseline=("baseline", "mean"),
        n_train_std=("n_train", "std"),
        n_test_std=("n_test", "std"),
        baseline_std=("baseline", "std"),
    )
    order = list(dict.fromkeys(results["feature_set"]))
    grouped = results.groupby(keys + ["feature_set"], sort=True)["accuracy"]
    mean = grouped.mean().unstack("feature_set").reindex(columns=order)
    std = grouped.std().unstack("feature_set").reindex(columns=order)
    mean.columns = [f"accuracy[{c}]" for c in mean.columns]
    std.columns = [f"accuracy_std[{c}]" for c in std.columns]
    table = size_stats.join(mean).join(std).reset_index()
    front = keys + ["n_seeds", "n_train", "n_test"] + list(mean.columns) + ["baseline"]
    return table[front + ["n_train_std", "n_test_std"] + list(std.columns) + ["baseline_std"]]


def markdown_table(
    headers: Sequence[str], rows: Sequence[Sequence[Any]], align: Sequence[str] | None = None
) -> str:
    """A GitHub-flavoured markdown table; ``align`` per column: ``"l"``, ``"r"`` or ``"c"``."""
    marks = {"l": ":---", "r": "---:", "c": ":---:"}
    align = align or ["r"] * len(headers)

    def cell(value: Any) -> str:
        return str(value).replace("|", "\\|").replace("\n", " ")

    lines = [
        "| " + " | ".join(cell(h) for h in headers) + " |",
        "| " + " | ".join(marks[a] for a in align) + " |",
    ]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def _mean_std(mean: float, std: float, fmt: str) -> str:
    if mean is None or (isinstance(mean, float) and math.isnan(mean)):
        return ""
    text = format(mean, fmt)
    # a spread below round-off (identical values over seeds) is no spread
    if std is not None and not math.isnan(std) and std > 1e-12 * max(1.0, abs(mean)):
        text += " ± " + format(std, fmt)
    return text


def _class_header(task: str) -> str:
    return {"author": "No. authors", "genre": "No. genres"}.get(task, "No. classes")


def to_markdown(summary: pd.DataFrame, *, digits: int = 2, baseline_digits: int = 2) -> str:
    """The summary as markdown, one table per (task, method), laid out like the paper's tables.

    Columns: number of classes, training size, testing size, the accuracy per feature set
    (``mean ± std`` over seeds, ``digits`` decimals) and the baseline (``baseline_digits``
    significant digits).
    """
    parts = []
    for (task, method), table in summary.groupby(["task", "method"], sort=False):
        feature_columns = [c for c in table.columns if c.startswith("accuracy[") and table[c].notna().any()]
        names = [c[len("accuracy[") : -1] for c in feature_columns]
        headers = [_class_header(task), "Training size", "Testing size"]
        headers += [feature_set_label(n) for n in names] + ["baseline"]
        rows = []
        for _, r in table.sort_values("n_classes").iterrows():
            row = [
                int(r["n_classes"]),
                _mean_std(r["n_train"], r["n_train_std"], ".0f"),
                _mean_std(r["n_test"], r["n_test_std"], ".0f"),
            ]
            row += [
                _mean_std(r[c], r[f"accuracy_std[{n}]"], f".{digits}f")
                for c, n in zip(feature_columns, names)
            ]
            row.append(_mean_std(r["baseline"], r["baseline_std"], f"#.{baseline_digits}g"))
            rows.append(row)
        title = f"**{task} recognition, {METHOD_LABELS.get(method, method)}**\n\n"
        parts.append(title + markdown_table(headers, rows))
    return "\n".join(parts)


__all__ = [
    "DEFAULT_CLASS_SIZES",
    "FEATURE_SETS",
    "KL_FEATURE_SETS",
    "METHODS",
    "MLPParams",
    "TrainedMLP",
    "Experiment",
    "RowSplit",
    "accuracy",
    "baseline_accuracy",
    "class_signatures",
    "classify_kl",
    "confusion_matrix",
    "effective_class_sizes",
    "feature_set_label",
    "fit_scaler",
    "kl_nearest",
    "load_model",
    "markdown_table",
    "matrices_from_tables",
    "per_class_accuracy",
    "predictions_frame",
    "recognition_experiments",
    "resolve_device",
    "resolve_feature_set",
    "results_frame",
    "row_rng",
    "row_split",
    "run_recognition_grid",
    "sample_classes",
    "save_model",
    "stack_features",
    "stratified_split",
    "summarise",
    "to_markdown",
    "train_mlp",
]
