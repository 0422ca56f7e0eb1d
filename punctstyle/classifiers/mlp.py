"""The neural-network classifier of the recognition experiments (section 2.4 of the paper).

A feed-forward network with one hidden layer (``hidden`` ReLU units) and a softmax output,
on the standardised concatenation of a feature set (mean and scale of the training rows);
Adam (its update: ``MLPParams.adam``, :func:`adam`), minibatches. Two stopping rules
(``MLPParams.stopping``):

* ``"paper"`` -- the authors' protocol: every training document is used, and training stops
  when the training loss (mean cross-entropy over the epoch's minibatches) has improved by
  less than ``tolerance`` for ``patience`` consecutive epochs (:class:`LossPlateau`), or
  after ``max_epochs``; the last weights are kept.
* ``"validation"`` -- early stopping on a stratified ``validation_fraction`` hold-out of the
  training documents: stop when its loss has not improved for ``patience`` epochs and
  restore the best weights.

This is the only module that imports torch.
"""

from __future__ import annotations

import contextlib
import copy
import math
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar

import numpy as np
import torch

from punctstyle.experiments.row import documents_split
from punctstyle.featuresets import stack_features
from punctstyle.io import atomic_path
from punctstyle.settings import load_settings

MODEL_FORMAT: str = "punctstyle-mlp/1"
STOPPING_RULES: tuple[str, ...] = ("paper", "validation")
ADAM_UPDATES: tuple[str, ...] = ("foreach", "fused")
"""How :func:`adam` applies its update (``recognition.mlp.adam``)."""
SAVED_BEFORE_ADAM_OPTION: dict[str, str] = {"adam": "foreach"}
"""The update of a model or fit saved before ``adam`` was a parameter: the grouped one (or the
per-tensor loop before it, the same weights to the bit on the CPU: docs/performance.md)."""


@dataclass(frozen=True)
class MLPParams:
    """Hyper-parameters of the network and of its training (saved with every model)."""

    hidden: int
    learning_rate: float
    batch_size: int
    max_epochs: int
    patience: int
    stopping: str
    tolerance: float
    validation_fraction: float
    adam: str

    SECTION: ClassVar[tuple[str, ...]] = ("recognition", "mlp")
    SCHEMA_NAMES: ClassVar[dict[str, str]] = {"hidden": "hidden_units"}

    def __post_init__(self) -> None:
        if self.stopping not in STOPPING_RULES:
            raise ValueError(f"bad MLP stopping rule {self.stopping!r}: expected one of {STOPPING_RULES}")
        if self.adam not in ADAM_UPDATES:
            raise ValueError(f"bad MLP Adam update {self.adam!r}: expected one of {ADAM_UPDATES}")

    @classmethod
    def from_config(cls, mlp: Mapping[str, Any]) -> MLPParams:
        """From the ``recognition.mlp`` config block (``device`` and ``threads`` are not read;
        a missing key takes the schema's default: :func:`punctstyle.settings.load_settings`)."""
        return load_settings(cls, mlp)


@dataclass
class LossPlateau:
    """The paper's stopping rule on the training loss.

    Epoch ``t`` is *stale* when ``loss_t > min_{s<t} loss_s - tolerance`` (it improved on the
    best loss so far by less than ``tolerance``); training stops after ``patience``
    consecutive stale epochs.
    """

    tolerance: float
    patience: int
    best: float = math.inf
    stale: int = 0

    def update(self, loss: float) -> bool:
        """Record one epoch's loss; True when training should stop."""
        self.stale = self.stale + 1 if loss > self.best - self.tolerance else 0
        self.best = min(self.best, loss)
        return self.stale >= self.patience


def plateau_stop_epoch(losses: Sequence[float], tolerance: float, patience: int) -> int | None:
    """The (1-based) epoch at which :class:`LossPlateau` stops on ``losses``; None if it never does."""
    rule = LossPlateau(tolerance, patience)
    for epoch, loss in enumerate(losses, start=1):
        if rule.update(float(loss)):
            return epoch
    return None


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
                batch = torch.as_tensor(Z[start : start + batch_size], dtype=torch.float32, device=self.device)
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


def resolve_device(device: str) -> str:
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
    return torch.nn.Sequential(torch.nn.Linear(n_inputs, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, n_classes))


def adam(parameters: Any, learning_rate: float, update: str = "foreach") -> torch.optim.Adam:
    """The networks' optimiser: Adam at ``learning_rate``, its update applied one of
    :data:`ADAM_UPDATES` ways (``recognition.mlp.adam``):

    * ``"foreach"`` (the default): to all parameters at once (``foreach=True``, torch's default
      on CUDA only); on the CPU the same weights to the bit as the per-tensor loop, and a few
      percent less CPU over the grid's networks (benchmarks/mlp_rate.py, docs/performance.md);
    * ``"fused"``: torch's fused kernel (``fused=True``), one pass over each parameter; other
      arithmetic (the step count in float32, the operations in another order), so other weights
      in the last bits and, through training, other networks (benchmarks/fused_adam.py).
    """
    if update not in ADAM_UPDATES:
        raise ValueError(f"bad Adam update {update!r}: expected one of {ADAM_UPDATES}")
    return torch.optim.Adam(parameters, lr=learning_rate, **{update: True})


def _loss(network: torch.nn.Module, X: torch.Tensor, y: torch.Tensor) -> float:
    network.eval()
    with torch.no_grad():
        return float(torch.nn.functional.cross_entropy(network(X), y))


def _train_epoch(network, optimiser, X, y, batch_size, generator) -> float:
    """One pass over shuffled minibatches; the mean training loss of the epoch (weighted by batch size)."""
    network.train()
    order = torch.randperm(X.shape[0], generator=generator).to(X.device)
    total = torch.zeros((), device=X.device)
    for start in range(0, X.shape[0], batch_size):
        batch = order[start : start + batch_size]
        optimiser.zero_grad(set_to_none=True)
        loss = torch.nn.functional.cross_entropy(network(X[batch]), y[batch])
        loss.backward()
        optimiser.step()
        total += loss.detach() * batch.numel()
    return float(total) / max(X.shape[0], 1)


def _fit_paper(network, optimiser, data, params: MLPParams, generator) -> tuple[int, int, list[float]]:
    """The paper's rule: all training rows, stop on a training-loss plateau, keep the last weights."""
    X_fit, y_fit = data
    rule, history, epoch = LossPlateau(params.tolerance, params.patience), [], 0
    for epoch in range(1, params.max_epochs + 1):
        history.append(_train_epoch(network, optimiser, X_fit, y_fit, params.batch_size, generator))
        if rule.update(history[-1]):
            break
    return epoch, epoch, history


def _fit_validation(network, optimiser, data, params: MLPParams, generator) -> tuple[int, int, list[float]]:
    """Early stopping on the hold-out loss: ``patience`` epochs without a better one; restore the best."""
    X_fit, y_fit, X_val, y_val = data
    best_loss, best_state, best_epoch, stale, history, epoch = math.inf, None, 0, 0, [], 0
    for epoch in range(1, params.max_epochs + 1):
        _train_epoch(network, optimiser, X_fit, y_fit, params.batch_size, generator)
        if X_val.shape[0] == 0:
            continue
        history.append(_loss(network, X_val, y_val))
        if history[-1] < best_loss:
            best_loss, best_epoch, stale = history[-1], epoch, 0
            best_state = copy.deepcopy(network.state_dict())
        else:
            stale += 1
            if stale >= params.patience:
                break
    if best_state is None:
        return epoch, epoch, history
    network.load_state_dict(best_state)
    return epoch, best_epoch, history


def train_mlp(
    X: np.ndarray,
    labels: Sequence[Any],
    *,
    params: MLPParams,
    seed: int,
    feature_set: Sequence[str] = (),
    device: str = "cpu",
    num_threads: int | None = None,
) -> TrainedMLP:
    """Train the one-hidden-layer network on (X, labels) with ``params.stopping``.

    Inputs are standardised with the training statistics. ``"validation"`` holds out a
    stratified ``params.validation_fraction`` of the training rows (same rule as
    :func:`punctstyle.experiments.splits.stratified_split`); without any validation row all epochs run.
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

    def tensors(index: np.ndarray) -> tuple[torch.Tensor, torch.Tensor]:
        return (
            torch.as_tensor(Z[index], dtype=torch.float32, device=dev),
            torch.as_tensor(y_idx[index], dtype=torch.long, device=dev),
        )

    deterministic = dev == "cpu" or "CUBLAS_WORKSPACE_CONFIG" in os.environ
    with torch_settings(num_threads, deterministic), torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        network = build_network(X.shape[1], params.hidden, classes.size).to(dev)
        optimiser = adam(network.parameters(), params.learning_rate, params.adam)
        generator = torch.Generator().manual_seed(seed)
        if params.stopping == "paper":
            fit = _fit_paper(network, optimiser, tensors(np.arange(y.size)), params, generator)
        else:
            # the classifier sees rows, not texts: its validation rows are split by class only
            part, held_out = documents_split(y_idx, None, params.validation_fraction, np.random.default_rng(seed))
            data = (*tensors(part), *tensors(held_out))
            fit = _fit_validation(network, optimiser, data, params, generator)
    network.eval()
    epochs, best_epoch, history = fit
    return TrainedMLP(network, mean, scale, classes, tuple(feature_set), params, seed, epochs, best_epoch, dev, history)


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
    """Load a model written by :func:`save_model` (``torch.load(weights_only=True)``).

    Models saved before the stopping rule was a parameter were trained with ``"validation"``,
    those saved before the Adam update was one with ``"foreach"`` (:data:`SAVED_BEFORE_ADAM_OPTION`).
    """
    payload = torch.load(path, map_location="cpu", weights_only=True)
    if not isinstance(payload, dict) or payload.get("format") != MODEL_FORMAT:
        raise ValueError(f"{path}: not a punctstyle MLP model ({MODEL_FORMAT})")
    params = MLPParams(**{"stopping": "validation", "tolerance": 0.0, **SAVED_BEFORE_ADAM_OPTION, **payload["params"]})
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


def model_arrays(model: TrainedMLP) -> dict[str, np.ndarray]:
    """The arrays that define a trained model, value for value: the layers' float32 weights and
    biases (``w0, b0, w1, b1``), the float64 scaler (``mean``, ``scale``) and the classes (str).
    :func:`model_from_arrays` rebuilds the model; its predictions are the same numbers."""
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
    params: MLPParams,
    feature_set: Sequence[str],
    seed: int,
    epochs: int,
    best_epoch: int,
    device: str = "cpu",
) -> TrainedMLP:
    """The :class:`TrainedMLP` of :func:`model_arrays` (weights loaded as stored, no training)."""
    w0, w1 = np.asarray(arrays["w0"]), np.asarray(arrays["w1"])
    if w0.shape[0] != params.hidden:
        raise ValueError(f"stored network has {w0.shape[0]} hidden units, the parameters say {params.hidden}")
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


class MLPClassifier:
    """The registered ``mlp`` classifier: :func:`train_mlp`, then the most probable class.

    ``params``: :class:`MLPParams` or the ``recognition.mlp`` config block; ``device`` and
    ``num_threads`` decide where it runs, not what it computes (on CPU).
    """

    def __init__(
        self,
        *,
        seed: int,
        feature_set: tuple[str, ...],
        params: MLPParams | Mapping[str, Any],
        device: str = "cpu",
        num_threads: int | None = None,
    ) -> None:
        self.seed, self.feature_set = seed, tuple(feature_set)
        self.params = params if isinstance(params, MLPParams) else MLPParams.from_config(params)
        self.device, self.num_threads = device, num_threads
        self.model: TrainedMLP | None = None

    def fit(self, X: np.ndarray, y: Sequence[Any]) -> MLPClassifier:
        """Train the network (:func:`train_mlp`)."""
        self.model = train_mlp(
            X, y, params=self.params, seed=self.seed, feature_set=self.feature_set,
            device=self.device, num_threads=self.num_threads,
        )
        return self

    def predict(self, X: np.ndarray) -> np.ndarray:
        """The most probable class of each row."""
        if self.model is None:
            raise RuntimeError("MLPClassifier.predict called before fit")
        return self.model.predict(X)

    def diagnostics(self) -> dict[str, int]:
        """``epochs``: the number of training epochs run."""
        return {"epochs": self.model.epochs if self.model else 0}

    def save(self, path: str | os.PathLike[str]) -> None:
        """Save the trained model (:func:`save_model`)."""
        if self.model is None:
            raise RuntimeError("MLPClassifier.save called before fit")
        save_model(path, self.model)

    def fitted_state(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """The fit as arrays (:func:`model_arrays`) and plain values (``feature_columns``,
        ``protocol`` = the parameters, ``epochs``, ``best_epoch``): what a fit store keeps
        (:mod:`punctstyle.experiments.fit_store`); :meth:`load_fitted_state` reads it back."""
        if self.model is None:
            raise RuntimeError("MLPClassifier.fitted_state called before fit")
        meta = {
            "feature_columns": list(self.model.feature_set),
            "protocol": asdict(self.model.params),
            "epochs": int(self.model.epochs),
            "best_epoch": int(self.model.best_epoch),
        }
        return model_arrays(self.model), meta

    def load_fitted_state(self, arrays: Mapping[str, np.ndarray], meta: Mapping[str, Any]) -> MLPClassifier:
        """This classifier, fitted with a stored state (:meth:`fitted_state`) instead of trained;
        a ValueError naming the field when the state was fitted on other feature columns or with
        other parameters than this classifier's (a state fitted before the Adam update was a
        parameter was fitted with ``"foreach"``: :data:`SAVED_BEFORE_ADAM_OPTION`)."""
        checks = (
            ("feature columns", list(meta["feature_columns"]), list(self.feature_set)),
            ("protocol", {**SAVED_BEFORE_ADAM_OPTION, **meta["protocol"]}, asdict(self.params)),
        )
        for name, stored, asked in checks:
            if stored != asked:
                raise ValueError(f"its {name} differ ({_short(stored)} != {_short(asked)})")
        self.model = model_from_arrays(arrays, params=self.params, feature_set=self.feature_set, seed=self.seed,
                                       epochs=meta["epochs"], best_epoch=meta["best_epoch"], device=self.device)
        return self


def _short(value: Any, limit: int = 60) -> str:
    """``repr(value)``, cut to ``limit`` characters."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
