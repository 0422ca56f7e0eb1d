"""A classifier on raw punctuation sequences (the paper's section 5: "classifiers that can take
raw punctuation sequences (rather than features) as input and exploit long-range correlations").

A document is its sequence of marks ``m_1..m_n`` (codes 0..9, :mod:`punctstyle.marks`) and the
word gaps ``g_1..g_n`` before each mark. The network reads *windows* of ``L = window_marks``
consecutive positions; position ``i`` of a window is the vector

    x_i = [E(m_i), t(g_i)],   t(g) = log1p(min(g, cap)) / log1p(cap)  (in [0, 1]),

with ``E`` a learned embedding of the 10 marks (a padding code 10, embedded as zeros with
``t = 0``, fills windows of documents shorter than ``L``). Three 1-D convolutions of ``channels``
filters of width ``k = kernel_size`` (ReLU after each), the first two followed by a max-pooling of
``POOL = 4`` positions (so the layers see 1, 4 and 16 marks a step, and a unit of the last layer
sees ``k + (k - 1) * (POOL + POOL**2) + POOL**2 - 1`` marks: 100 for ``k = 5``; the pooling keeps
the cost of the deeper layers small), then global pooling over the valid positions of the window
(their mean and their maximum, concatenated) and one linear layer give the class logits.

Training (training documents only): every epoch draws ``windows_per_document`` windows of each
training document, at uniform random starts (:func:`sample_windows`, seeded), and runs Adam on
the cross-entropy of the window's label over shuffled minibatches, for a fixed number of
``epochs`` (the last weights are kept). Prediction: a document is cut into at most
``test_windows`` evenly spaced windows (:func:`tiling_windows`) and its class scores are the mean
of its windows' log-probabilities (:func:`document_log_probs`),

    s_d(c) = (1 / |W_d|) * sum_{w in W_d} log p(c | w),

the predicted class the argmax. CPU by default, CUDA with ``device="cuda"`` or ``"auto"`` (as
the MLP, :func:`punctstyle.classifiers.mlp.resolve_device`); deterministic on CPU for a seed.
Only this module (and :mod:`punctstyle.classifiers.mlp`) imports torch.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar

import numpy as np
import torch

from punctstyle.classifiers.mlp import adam, resolve_device, torch_settings
from punctstyle.io import atomic_path
from punctstyle.marks import N_MARKS
from punctstyle.settings import load_settings

MODEL_FORMAT: str = "punctstyle-sequence-cnn/1"
PAD: int = N_MARKS
"""Code of the padding positions (after the end of a document shorter than a window)."""
N_LAYERS: int = 3
"""Convolutions of the network."""
POOL: int = 4
"""Max-pooling width (and stride) between two convolutions."""

Document = tuple[np.ndarray, np.ndarray]
"""A document: (marks, gaps), two 1-D arrays of the same length (uint8 codes, word gaps)."""


@dataclass(frozen=True)
class SequenceParams:
    """Hyper-parameters of the network and its training (saved with every model; the defaults
    are the schema's ``beyond.sequence``: :meth:`from_config`)."""

    window_marks: int
    windows_per_document: int
    test_windows: int
    channels: int
    kernel_size: int
    embedding_dim: int
    gap_cap: int
    epochs: int
    batch_size: int
    learning_rate: float

    SECTION: ClassVar[tuple[str, ...]] = ("beyond", "sequence")

    def __post_init__(self) -> None:
        for name in (
            "window_marks",
            "windows_per_document",
            "test_windows",
            "channels",
            "kernel_size",
            "embedding_dim",
            "gap_cap",
            "epochs",
            "batch_size",
        ):
            if int(getattr(self, name)) < 1:
                raise ValueError(f"sequence model {name} must be a positive integer, got {getattr(self, name)!r}")
        if not self.learning_rate > 0:
            raise ValueError(f"sequence model learning_rate must be positive, got {self.learning_rate!r}")

    @classmethod
    def from_config(cls, block: Mapping[str, Any]) -> SequenceParams:
        """From the ``beyond.sequence`` config block (keys of this class; others are ignored; a
        missing key takes the schema's default: :func:`punctstyle.settings.load_settings`)."""
        return load_settings(cls, block)


def gap_transform(gaps: np.ndarray, cap: int) -> np.ndarray:
    """``t(g) = log1p(min(g, cap)) / log1p(cap)``: word gaps squashed into [0, 1] (float32)."""
    g = np.minimum(np.asarray(gaps, dtype=np.float64), float(cap))
    return (np.log1p(g) / math.log1p(cap)).astype(np.float32)


def sample_windows(
    lengths: np.ndarray, window: int, per_document: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Training windows: ``per_document`` per document at uniform random starts.

    Document ``d`` of length ``n_d`` gets starts ``floor(u * (max(n_d - window, 0) + 1))`` with
    ``u ~ U[0, 1)`` drawn by ``rng`` (``rng.random(n_docs * per_document)``, documents in order,
    ``per_document`` consecutive draws each). Returns ``(document index, start)`` arrays.
    """
    lengths = np.asarray(lengths, dtype=np.int64)
    doc = np.repeat(np.arange(lengths.size), per_document)
    span = np.maximum(lengths - window, 0)[doc] + 1
    start = np.floor(rng.random(doc.size) * span).astype(np.int64)
    return doc, np.minimum(start, span - 1)


def tiling_windows(lengths: np.ndarray, window: int, max_windows: int) -> tuple[np.ndarray, np.ndarray]:
    """Prediction windows: document ``d`` gets ``k_d = min(max_windows, ceil(n_d / window))``
    windows (at least 1) at starts ``round(j * (n_d - window) / (k_d - 1))``, ``j = 0..k_d-1``
    (evenly spaced, first and last flush with the document's ends; start 0 when ``n_d <= window``).
    Returns ``(document index, start)`` arrays."""
    lengths = np.asarray(lengths, dtype=np.int64)
    k = np.clip(-(-lengths // window), 1, max_windows)
    doc = np.repeat(np.arange(lengths.size), k)
    first = np.concatenate(([0], np.cumsum(k)[:-1]))
    j = np.arange(doc.size) - first[doc]
    room = np.maximum(lengths - window, 0)[doc]
    start = np.floor(j * room / np.maximum(k[doc] - 1, 1) + 0.5).astype(np.int64)
    return doc, start


@dataclass(frozen=True)
class PackedDocuments:
    """Documents concatenated: mark codes (int64), transformed gaps (float32), offsets, lengths."""

    codes: np.ndarray
    gaps: np.ndarray
    offsets: np.ndarray
    lengths: np.ndarray

    @classmethod
    def pack(cls, documents: Sequence[Document], gap_cap: int) -> PackedDocuments:
        """Check and concatenate ``documents`` (each (marks, gaps) of one length, marks in 0..9)."""
        marks, gaps = [], []
        for i, (m, g) in enumerate(documents):
            m, g = np.asarray(m), np.asarray(g)
            if m.ndim != 1 or m.shape != g.shape:
                raise ValueError(f"document {i}: marks and gaps must be 1-D of one length, got {m.shape}, {g.shape}")
            if m.size == 0:
                raise ValueError(f"document {i} has no punctuation mark")
            if m.min() < 0 or m.max() >= N_MARKS or (g.size and np.asarray(g).min() < 0):
                raise ValueError(f"document {i}: mark codes must lie in 0..{N_MARKS - 1} and gaps be >= 0")
            marks.append(m.astype(np.int64))
            gaps.append(g)
        if not marks:
            raise ValueError("no documents given")
        lengths = np.array([m.size for m in marks], dtype=np.int64)
        offsets = np.concatenate(([0], np.cumsum(lengths)[:-1]))
        return cls(np.concatenate(marks), gap_transform(np.concatenate(gaps), gap_cap), offsets, lengths)

    def windows(self, doc: np.ndarray, start: np.ndarray, window: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(codes, gaps, valid)`` of windows ``(doc, start)``, each (n_windows, window): position
        ``i`` holds the document's position ``start + i`` where it exists, else ``PAD``, 0, False."""
        pos = start[:, None] + np.arange(window)[None, :]
        valid = pos < self.lengths[doc][:, None]
        index = np.where(valid, self.offsets[doc][:, None] + pos, 0)
        return np.where(valid, self.codes[index], PAD), np.where(valid, self.gaps[index], 0.0), valid


class SequenceCNN(torch.nn.Module):
    """Embedding + gap -> three 1-D convolutions (ReLU; max-pooling by POOL between them) ->
    mean and max over the valid positions -> linear."""

    def __init__(self, n_classes: int, channels: int, kernel_size: int, embedding_dim: int) -> None:
        super().__init__()
        self.embedding = torch.nn.Embedding(N_MARKS + 1, embedding_dim, padding_idx=PAD)
        widths = [embedding_dim + 1] + [channels] * N_LAYERS
        self.convolutions = torch.nn.ModuleList(
            torch.nn.Conv1d(a, b, kernel_size, padding=kernel_size // 2) for a, b in zip(widths[:-1], widths[1:])
        )
        self.output = torch.nn.Linear(2 * channels, n_classes)

    def forward(self, codes: torch.Tensor, gaps: torch.Tensor, valid: torch.Tensor) -> torch.Tensor:
        """Logits (batch, n_classes) of windows: codes (batch, L) long, gaps and valid (batch, L)."""
        x = torch.cat([self.embedding(codes), gaps.unsqueeze(-1)], dim=-1).transpose(1, 2)
        mask = valid.unsqueeze(1).to(x.dtype)
        for i, conv in enumerate(self.convolutions):
            if i:  # valid positions are a prefix: a pooled position is valid when one of its inputs is
                x = torch.nn.functional.max_pool1d(x, POOL, ceil_mode=True)
                mask = torch.nn.functional.max_pool1d(mask, POOL, ceil_mode=True)
            x = torch.relu(conv(x)[..., : x.shape[-1]]) * mask
        mean = x.sum(dim=2) / mask.sum(dim=2).clamp_min(1.0)
        peak = x.amax(dim=2)  # ReLU outputs are >= 0 and padding is 0: the max over valid positions
        return self.output(torch.cat([mean, peak], dim=1))


def document_log_probs(window_log_probs: np.ndarray, doc: np.ndarray, n_docs: int) -> np.ndarray:
    """``s_d(c) = mean over the windows w of document d of log p(c | w)``: (n_docs, n_classes)."""
    lp = np.asarray(window_log_probs, dtype=np.float64)
    sums = np.zeros((n_docs, lp.shape[1]))
    np.add.at(sums, doc, lp)
    counts = np.bincount(doc, minlength=n_docs)
    if np.any(counts == 0):
        raise ValueError("every document needs at least one window")
    return sums / counts[:, None]


def window_log_probs(
    network: SequenceCNN,
    packed: PackedDocuments,
    doc: np.ndarray,
    start: np.ndarray,
    window: int,
    batch_size: int,
    device: str | torch.device,
) -> np.ndarray:
    """``log p(c | w)`` of every window (n_windows, n_classes), computed on ``device`` in batches."""
    network.eval()
    out = []
    with torch.no_grad():
        for lo in range(0, doc.size, batch_size):
            tensors = _batch_tensors(packed, doc[lo : lo + batch_size], start[lo : lo + batch_size], window, device)
            out.append(torch.log_softmax(network(*tensors), dim=1).double().cpu().numpy())
    return np.concatenate(out) if out else np.zeros((0, network.output.out_features))


def _batch_tensors(
    packed: PackedDocuments, doc: np.ndarray, start: np.ndarray, window: int, device: str | torch.device
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    codes, gaps, valid = packed.windows(doc, start, window)
    return (
        torch.as_tensor(codes, dtype=torch.long, device=device),
        torch.as_tensor(gaps, dtype=torch.float32, device=device),
        torch.as_tensor(valid, dtype=torch.bool, device=device),
    )


@dataclass
class TrainedSequenceCNN:
    """A trained network with what is needed to apply it to new documents."""

    network: SequenceCNN
    classes: np.ndarray
    params: SequenceParams
    seed: int = 0
    device: str = "cpu"
    history: list[float] = field(default_factory=list)

    def predict_log_proba(self, documents: Sequence[Document], batch_size: int | None = None) -> np.ndarray:
        """Document scores ``s_d(c)`` (:func:`document_log_probs`), (n_docs, n_classes), ``classes`` order."""
        p = self.params
        packed = PackedDocuments.pack(documents, p.gap_cap)
        doc, start = tiling_windows(packed.lengths, p.window_marks, p.test_windows)
        lp = window_log_probs(self.network, packed, doc, start, p.window_marks, batch_size or p.batch_size, self.device)
        return document_log_probs(lp, doc, packed.lengths.size)

    def predict(self, documents: Sequence[Document]) -> np.ndarray:
        """The class with the highest mean window log-probability, per document."""
        return self.classes[np.argmax(self.predict_log_proba(documents), axis=1)]


def _train_epoch(
    network,
    optimiser,
    packed: PackedDocuments,
    y: np.ndarray,
    params: SequenceParams,
    rng: np.random.Generator,
    device: str | torch.device,
) -> float:
    """One epoch: fresh windows (:func:`sample_windows`), shuffled minibatches; mean training loss."""
    network.train()
    doc, start = sample_windows(packed.lengths, params.window_marks, params.windows_per_document, rng)
    order = rng.permutation(doc.size)
    doc, start = doc[order], start[order]
    total = torch.zeros((), device=device)
    for lo in range(0, doc.size, params.batch_size):
        d, s = doc[lo : lo + params.batch_size], start[lo : lo + params.batch_size]
        target = torch.as_tensor(y[d], dtype=torch.long, device=device)
        optimiser.zero_grad(set_to_none=True)
        loss = torch.nn.functional.cross_entropy(
            network(*_batch_tensors(packed, d, s, params.window_marks, device)), target
        )
        loss.backward()
        optimiser.step()
        total += loss.detach() * d.size
    return float(total) / max(doc.size, 1)


def train_sequence_cnn(
    documents: Sequence[Document],
    labels: Sequence[Any],
    *,
    params: SequenceParams,
    seed: int,
    device: str = "cpu",
    num_threads: int | None = None,
) -> TrainedSequenceCNN:
    """Train the network on the training documents (see the module docstring).

    Seeded: torch's initialisation from ``seed`` and the windows and minibatch order from
    ``np.random.default_rng(seed)``; on CPU the result is the same for a seed (deterministic
    algorithms); torch's global RNG, thread count and deterministic flag are restored.
    """
    y_raw = np.asarray(labels, dtype=object)
    if len(documents) != y_raw.size or y_raw.size == 0:
        raise ValueError(
            f"need one label per document and at least one document; got {len(documents)} and {y_raw.size}"
        )
    dev = resolve_device(device)
    classes, y = np.unique(y_raw, return_inverse=True)
    packed = PackedDocuments.pack(documents, params.gap_cap)
    rng = np.random.default_rng(seed)
    deterministic = dev == "cpu" or "CUBLAS_WORKSPACE_CONFIG" in os.environ
    with torch_settings(num_threads, deterministic), torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        network = SequenceCNN(classes.size, params.channels, params.kernel_size, params.embedding_dim).to(dev)
        optimiser = adam(network.parameters(), params.learning_rate)
        history = [_train_epoch(network, optimiser, packed, y, params, rng, dev) for _ in range(params.epochs)]
    network.eval()
    return TrainedSequenceCNN(network, classes, params, seed, dev, history)


def save_model(path: str | os.PathLike[str], model: TrainedSequenceCNN) -> None:
    """Save a trained model atomically (``torch.save``, loadable with ``weights_only=True``):
    state dict, classes, hyper-parameters, seed, loss history, torch version."""
    payload = {
        "format": MODEL_FORMAT,
        "state_dict": {k: v.detach().cpu().clone() for k, v in model.network.state_dict().items()},
        "classes": np.asarray(model.classes, dtype=object).tolist(),
        "params": asdict(model.params),
        "seed": int(model.seed),
        "history": [float(v) for v in model.history],
        "torch_version": str(torch.__version__),
    }
    with atomic_path(path) as tmp:
        torch.save(payload, tmp)


def load_model(path: str | os.PathLike[str], device: str = "cpu") -> TrainedSequenceCNN:
    """Load a model written by :func:`save_model`."""
    payload = torch.load(path, map_location="cpu", weights_only=True)
    if not isinstance(payload, dict) or payload.get("format") != MODEL_FORMAT:
        raise ValueError(f"{path}: not a punctstyle sequence model ({MODEL_FORMAT})")
    params = SequenceParams(**payload["params"])
    classes = np.empty(len(payload["classes"]), dtype=object)
    classes[:] = payload["classes"]
    network = SequenceCNN(classes.size, params.channels, params.kernel_size, params.embedding_dim)
    network.load_state_dict(payload["state_dict"])
    dev = resolve_device(device)
    network.to(dev).eval()
    return TrainedSequenceCNN(network, classes, params, payload["seed"], dev, list(payload["history"]))


class SequenceCNNClassifier:
    """The registered ``sequence_cnn`` classifier (input kind ``"sequence"``): ``fit(documents, y)``
    and ``predict(documents)`` on lists of (marks, gaps) documents.

    ``params``: :class:`SequenceParams` or the ``beyond.sequence`` config block; ``device`` and
    ``num_threads`` decide where it runs, not what it computes (on CPU). ``feature_set`` is
    accepted for the registry's factory signature and ignored (the input is the raw sequence).
    """

    def __init__(
        self,
        *,
        seed: int,
        params: SequenceParams | Mapping[str, Any] | None = None,
        feature_set: tuple[str, ...] = (),
        device: str = "cpu",
        num_threads: int | None = None,
    ) -> None:
        self.seed = seed
        self.params = params if isinstance(params, SequenceParams) else SequenceParams.from_config(params or {})
        self.device, self.num_threads = device, num_threads
        self.model: TrainedSequenceCNN | None = None

    def fit(self, documents: Sequence[Document], y: Sequence[Any]) -> SequenceCNNClassifier:
        """Train the network (:func:`train_sequence_cnn`)."""
        self.model = train_sequence_cnn(
            documents, y, params=self.params, seed=self.seed, device=self.device, num_threads=self.num_threads
        )
        return self

    def _model(self) -> TrainedSequenceCNN:
        if self.model is None:
            raise RuntimeError("SequenceCNNClassifier used before fit")
        return self.model

    def predict_log_proba(self, documents: Sequence[Document]) -> np.ndarray:
        """Mean window log-probabilities per document (:meth:`TrainedSequenceCNN.predict_log_proba`)."""
        with torch_settings(self.num_threads, False):
            return self._model().predict_log_proba(documents)

    def predict(self, documents: Sequence[Document]) -> np.ndarray:
        """The predicted class of each document."""
        model = self._model()
        return model.classes[np.argmax(self.predict_log_proba(documents), axis=1)]

    def diagnostics(self) -> dict[str, int]:
        """``epochs``: the number of training epochs run."""
        return {"epochs": len(self.model.history) if self.model else 0}

    def save(self, path: str | os.PathLike[str]) -> None:
        """Save the trained model (:func:`save_model`)."""
        save_model(path, self._model())
