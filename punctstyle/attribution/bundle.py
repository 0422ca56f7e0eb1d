"""The attribution bundle: its files, its settings, building it and loading it.

The bundle (``models/attribution/`` of the workflow, ``--model`` of the CLI):

* ``mlp.pt``: the MLP trained on every corpus book with the author labels
  (:func:`punctstyle.classifiers.mlp.save_model`; read with ``weights_only=True``);
* ``signatures.parquet``: one row per author: ``author``, ``n_books``, then the class-mean
  f1..f6 in their named columns (:func:`punctstyle.attribution.attribute.author_signatures`);
* ``threshold.json``: the minimum number of marks for attribution with the measured
  accuracy per length of KL-nearest attribution and of the MLP
  (:func:`punctstyle.attribution.length.threshold_record`, ``mlp_curve``) and the
  ``calibration`` of the MLP's probabilities on the same held-out books
  (:mod:`punctstyle.attribution.calibration`: a temperature, reliability before and after);
* ``manifest.json``: format, feature set, classes, corpus size, versions, settings used.
  Written last: a manifest means the bundle is complete.

Each file has its writer and its reader here; every reader raises
:class:`punctstyle.io.InputError` with one line naming the file.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
import pandas as pd

from punctstyle import __version__
from punctstyle.attribution.attribute import author_signatures, method_disagreement, rank_authors
from punctstyle.attribution.bundle_checks import check_manifest, check_model, check_signatures, check_threshold
from punctstyle.attribution.calibration import calibration_record, held_out_predictions, scaled_probabilities
from punctstyle.attribution.length import attribution_split, mlp_length_curve, threshold_record
from punctstyle.corpus.sequences import SequenceFiles, document_sequences, sequence_paths_for_books
from punctstyle.corpus.tables import text_groups
from punctstyle.features import compute_features
from punctstyle.featuresets import matrices_from_tables, resolve_feature_set, stack_features
from punctstyle.io import InputError, read_json_object, write_json_atomic, write_parquet_atomic
from punctstyle.rule_names import FEATURES

if TYPE_CHECKING:  # torch is imported only when a model is trained or loaded
    from punctstyle.attribution.attribute import Disagreement
    from punctstyle.classifiers.mlp import MLPParams, TrainedMLP

BUNDLE_FORMAT: str = "punctstyle-attribution/1"
BUNDLE_FILES: dict[str, str] = {
    "model": "mlp.pt",
    "signatures": "signatures.parquet",
    "threshold": "threshold.json",
    "manifest": "manifest.json",
}
BUILD_HINT = "build it with `snakemake attribution_model` or point --model at a bundle folder"


@dataclass(frozen=True)
class AttributionSettings:
    """The workflow's ``attribution`` block (every key; the schema holds the defaults)."""

    feature_set: str
    kl_features: tuple[str, ...]
    threshold_features: tuple[str, ...]
    mark_grid: tuple[int, ...]
    fraction: float
    test_fraction: float
    seed: int

    KEYS: ClassVar[tuple[str, ...]] = (
        "feature_set", "kl_features", "threshold_features", "mark_grid", "fraction", "test_fraction", "seed",
    )

    @classmethod
    def from_config(cls, block: Mapping[str, Any]) -> AttributionSettings:
        """From a validated ``attribution`` block; a missing key raises ``KeyError``."""
        return cls(
            feature_set=str(block["feature_set"]),
            kl_features=tuple(block["kl_features"]),
            threshold_features=tuple(block["threshold_features"]),
            mark_grid=tuple(int(n) for n in block["mark_grid"]),
            fraction=float(block["fraction"]),
            test_fraction=float(block["test_fraction"]),
            seed=int(block["seed"]),
        )


# --------------------------------------------------------------------------- files


def write_signatures(path: Any, features: Mapping[str, np.ndarray], labels: Sequence[Any]) -> pd.DataFrame:
    """``signatures.parquet``: ``author``, ``n_books``, then the class-mean f1..f6 columns."""

    table = author_signatures(features, labels, FEATURES)
    authors, counts = np.unique(np.asarray(labels, dtype=object), return_counts=True)
    n_books = pd.Series(counts, index=pd.Index(authors, name="author"), name="n_books")
    table.insert(0, "n_books", n_books.reindex(table.index).to_numpy())
    table = table.reset_index()
    write_parquet_atomic(table, path)
    return table


def read_signatures(path: Any) -> pd.DataFrame:
    """The signatures of :func:`write_signatures`, indexed by author."""
    try:
        table = pd.read_parquet(path)
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: not a readable Parquet file ({_first_line(exc)})") from exc
    if "author" not in table.columns:
        raise InputError(f"{path}: no 'author' column")
    return table.set_index("author")


def write_threshold(path: Any, record: Mapping[str, Any]) -> None:
    """``threshold.json`` (:func:`punctstyle.attribution.length.threshold_record` + ``mlp_curve``)."""
    write_json_atomic(path, dict(record))


def read_threshold(path: Any) -> dict[str, Any]:
    """The record of :func:`write_threshold`."""
    return read_json_object(path)


def write_manifest(path: Any, manifest: Mapping[str, Any]) -> None:
    """``manifest.json``; written last, so its presence means the bundle is complete."""
    write_json_atomic(path, {**manifest, "format": BUNDLE_FORMAT})


def read_manifest(path: Any) -> dict[str, Any]:
    """The manifest of :func:`write_manifest`; another format raises :class:`InputError`."""
    manifest = read_json_object(path)
    if manifest.get("format") != BUNDLE_FORMAT:
        raise InputError(f"{path}: not a {BUNDLE_FORMAT} manifest (format {manifest.get('format')!r})")
    return manifest


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def read_model(path: Any) -> TrainedMLP:
    """The MLP of ``mlp.pt``; a file that is not a safe punctstyle weights file raises
    :class:`InputError` in one line (never torch's advice to load it unsafely)."""
    import pickle
    import zipfile

    from punctstyle.classifiers.mlp import load_model  # lazy: loads torch

    if not zipfile.is_zipfile(path):
        raise InputError(
            f"{path}: not a torch weights file (torch.save writes a zip archive; this file is "
            "not one); rebuild the bundle"
        )
    try:
        return load_model(path)
    except pickle.UnpicklingError:
        raise InputError(
            f"{path}: not a safe weights file (it holds Python objects that torch refuses to "
            "load with weights_only=True); rebuild the bundle"
        ) from None
    except (OSError, RuntimeError, ValueError, KeyError, TypeError, EOFError) as exc:
        raise InputError(f"{path}: not a readable punctstyle MLP model ({_first_line(exc)})") from None


# --------------------------------------------------------------------------- building


@dataclass(frozen=True)
class Trainer:
    """How the bundle's MLPs are trained: hyper-parameters and where (not what) they run."""

    params: MLPParams
    feature_set: tuple[str, ...]
    seed: int
    device: str
    num_threads: int | None

    def train(self, X: np.ndarray, labels: np.ndarray) -> TrainedMLP:
        from punctstyle.classifiers.mlp import train_mlp  # lazy: loads torch

        return train_mlp(X, labels, params=self.params, seed=self.seed, feature_set=self.feature_set,
                         device=self.device, num_threads=self.num_threads)

    def inputs_of(self, marks: np.ndarray, gaps: np.ndarray) -> np.ndarray:
        """The model inputs of one text (its features of :attr:`feature_set`, stacked)."""

        return stack_features(compute_features(marks, gaps), self.feature_set)[0]


def length_curves(sequences: Sequence[Any], features: Mapping[str, np.ndarray], labels: np.ndarray,
                  settings: AttributionSettings, trainer: Trainer,
                  groups: Sequence[Any] | None = None) -> dict[str, Any]:
    """``threshold.json``: the KL threshold record plus ``mlp_curve``/``mlp_full_accuracy`` and
    ``calibration`` (:func:`held_out_calibration` of the curve's MLP; None without held-out books).
    ``groups``: each document's text when documents are excerpts (whole texts are held out)."""

    record = threshold_record(sequences, labels, grid=settings.mark_grid, fraction=settings.fraction,
                              features=settings.threshold_features, test_fraction=settings.test_fraction,
                              seed=settings.seed, groups=groups)
    full_features = stack_features(features, trainer.feature_set)
    trained: list[TrainedMLP] = []  # the curve's model, kept for the calibration

    def train_and_keep(X: np.ndarray, y: np.ndarray) -> TrainedMLP:
        trained.append(trainer.train(X, y))
        return trained[-1]

    try:
        mlp = mlp_length_curve(sequences, labels, full_features,
                               trainer.inputs_of, train_and_keep, grid=settings.mark_grid,
                               test_fraction=settings.test_fraction, seed=settings.seed, groups=groups)
    except ValueError:  # no test book: the KL record says so in its note
        mlp = {"full_accuracy": None, "curve": []}
    calibration = None
    if trained:
        calibration = held_out_calibration(trained[-1], sequences, labels, full_features, settings, trainer, groups)
    return {**record, "mlp_full_accuracy": mlp["full_accuracy"], "mlp_curve": mlp["curve"],
            "calibration": calibration}


def held_out_calibration(model: TrainedMLP, sequences: Sequence[Any], labels: np.ndarray, full_features: np.ndarray,
                         settings: AttributionSettings, trainer: Trainer,
                         groups: Sequence[Any] | None = None) -> dict[str, Any] | None:
    """:func:`punctstyle.attribution.calibration.calibration_record` of the length curve's MLP on its
    held-out books (the same :func:`punctstyle.attribution.length.attribution_split`), whole
    and cut to each grid length; None without a held-out prediction."""

    _, test_rows = attribution_split(np.asarray(labels, dtype=object), settings.test_fraction, settings.seed, groups)
    proba, truth = held_out_predictions(model, sequences, labels, test_rows, full_features, trainer.inputs_of,
                                        settings.mark_grid)
    return calibration_record(proba, truth) if truth.size else None


def build_attribution_bundle(
    tables: Mapping[str, pd.DataFrame],
    sequence_paths: Sequence[Any],
    outputs: Mapping[str, Any],
    *,
    settings: AttributionSettings,
    mlp_params: MLPParams,
    device: str,
    num_threads: int | None,
    log: Callable[[str], None] = lambda message: None,
) -> dict[str, Any]:
    """Train, measure and write the attribution bundle; return the manifest.

    ``tables``: the corpus tables f1..f6 (one row per book, ``author`` labels; or per excerpt,
    then the length curves hold out whole texts and read excerpts with
    :func:`document_sequences`); ``sequence_paths``: ``sequences/{id}.parquet`` files, those of
    the corpus books among them (others are ignored); ``outputs``: paths keyed like
    :data:`BUNDLE_FILES`. Every file is written atomically, the manifest last.
    """

    from punctstyle.classifiers.mlp import save_model  # lazy: loads torch

    missing = [f for f in FEATURES if f not in tables]
    if missing:
        raise ValueError(f"no corpus table for feature {missing[0]}")
    features, labels, book_ids = matrices_from_tables({f: tables[f] for f in FEATURES}, "author")
    if labels.size == 0:
        raise ValueError("the corpus has no book: nothing to attribute to")
    trainer = Trainer(mlp_params, resolve_feature_set(settings.feature_set), settings.seed, device, num_threads)
    log(f"training the MLP on {labels.size} books by {np.unique(labels).size} authors, "
        f"features {'+'.join(trainer.feature_set)}")
    model = trainer.train(stack_features(features, trainer.feature_set), labels)
    log(f"MLP: {model.epochs} epochs (best {model.best_epoch})")
    table = tables[FEATURES[0]]
    sequences = document_sequences(sequence_paths, table, book_ids)
    groups = text_groups(table, book_ids)
    threshold = length_curves(sequences, features, labels, settings, trainer, groups)
    log(f"minimum marks for attribution: {threshold['min_marks']} ({threshold['note']})")
    save_model(outputs["model"], model)
    write_signatures(outputs["signatures"], features, labels)
    write_threshold(outputs["threshold"], threshold)
    manifest = bundle_manifest(model, settings, labels, threshold, groups)
    write_manifest(outputs["manifest"], manifest)
    return read_manifest(outputs["manifest"])


def bundle_manifest(model: TrainedMLP, settings: AttributionSettings, labels: np.ndarray,
                    threshold: Mapping[str, Any], groups: Sequence[Any] | None = None) -> dict[str, Any]:
    """What ``manifest.json`` records: versions, the model, the corpus size (``n_books``: its
    documents; ``n_texts`` too when they are excerpts of texts, ``groups``), the settings."""
    import torch  # lazy: torch is slow to import


    texts = {} if groups is None else {"n_texts": int(np.unique(np.asarray(groups, dtype=object)).size)}
    return {
        "format": BUNDLE_FORMAT,
        "punctstyle_version": __version__,
        "torch_version": str(torch.__version__),
        "files": dict(BUNDLE_FILES),
        "feature_set_name": settings.feature_set,
        "feature_set": list(model.feature_set),
        "kl_features": list(settings.kl_features),
        "classes": [str(c) for c in model.classes],
        "n_authors": int(np.unique(labels).size),
        "n_books": int(labels.size),
        **texts,
        "min_marks": threshold["min_marks"],
        "mlp": {
            "params": asdict(model.params),
            "seed": int(model.seed),
            "epochs": int(model.epochs),
            "best_epoch": int(model.best_epoch),
            "device": str(model.device),
        },
        "settings": {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(settings).items()},
    }


# --------------------------------------------------------------------------- loading


@dataclass
class AttributionBundle:
    """A loaded attribution bundle: model, author signatures, threshold, manifest."""

    directory: str
    model: TrainedMLP
    signatures: pd.DataFrame
    threshold: dict[str, Any]
    manifest: dict[str, Any]

    @property
    def min_marks(self) -> int | None:
        value = self.threshold.get("min_marks")
        return None if value is None else int(value)

    @property
    def kl_features(self) -> tuple[str, ...]:
        return tuple(self.manifest["kl_features"])

    def rank(self, text_features: Mapping[str, Any], top: int | None) -> pd.DataFrame:
        """:func:`punctstyle.attribution.attribute.rank_authors` with the bundle's model, signatures and KL
        features; the probabilities calibrated by the bundle's temperature when it has one
        (:func:`punctstyle.attribution.calibration.scaled_probabilities` over every author: same order)."""
        ranking = rank_authors(text_features, self.model, self.signatures, kl_features=self.kl_features, top=None)
        if self.temperature is not None and ranking["probability"].notna().all():

            column = ranking["probability"].to_numpy(dtype=np.float64)[None, :]
            ranking["probability"] = scaled_probabilities(column, self.temperature)[0]
        return ranking if top is None else ranking.head(top)

    @property
    def temperature(self) -> float | None:
        """The calibration temperature of ``threshold.json`` (None: an uncalibrated bundle)."""
        block = self.threshold.get("calibration")
        return None if not block else float(block["temperature"])

    def disagreement(self, ranking: pd.DataFrame, n_marks: int) -> Disagreement | None:
        """:func:`punctstyle.attribution.attribute.method_disagreement` on the measured curves: the KL
        feature is the threshold's (else the first shown), ``ranking`` has every author."""
        shown = [c[3:] for c in ranking.columns if c.startswith("kl_")]
        if not shown:
            return None
        feature = self.threshold.get("feature")
        feature = feature if feature in shown else shown[0]
        kl_curve = (self.threshold.get("curves") or {}).get(feature, {}).get("curve", [])
        return method_disagreement(ranking, feature, n_marks, self.threshold.get("mlp_curve") or [], kl_curve)

    def too_short(self, n_marks: int) -> str | None:
        """Why a text of ``n_marks`` marks is too short to attribute, or None."""
        needed = self.min_marks
        if needed is None or n_marks >= needed:
            return None
        return (
            f"too short to say anything: {n_marks} marks, at least {needed} needed for a reliable "
            f"attribution (on this model's corpus, KL-nearest attribution on {self.threshold['feature']} "
            f"reaches {self.threshold['fraction']:.0%} of its full-length accuracy from {needed} marks on)"
        )


def load_attribution_bundle(directory: Any) -> AttributionBundle:
    """Read a bundle written by :func:`build_attribution_bundle`.

    Raises :class:`punctstyle.io.InputError` (one line naming the path) when the folder or
    a file is missing or unreadable.
    """
    folder = os.fspath(directory)
    if not os.path.exists(folder):
        raise InputError(f"{folder}: model folder does not exist ({BUILD_HINT})")
    if not os.path.isdir(folder):
        raise InputError(f"{folder}: model path is not a folder ({BUILD_HINT})")
    paths = {key: os.path.join(folder, name) for key, name in BUNDLE_FILES.items()}
    absent = [name for key, name in BUNDLE_FILES.items() if not os.path.isfile(paths[key])]
    if absent:
        raise InputError(f"{folder}: not an attribution bundle, missing {', '.join(absent)} ({BUILD_HINT})")
    manifest = read_manifest(paths["manifest"])
    check_manifest(paths["manifest"], manifest)
    threshold = read_threshold(paths["threshold"])
    check_threshold(paths["threshold"], threshold)
    signatures = read_signatures(paths["signatures"])
    check_signatures(paths["signatures"], signatures, manifest["kl_features"])
    model = read_model(paths["model"])
    check_model(paths["model"], model, manifest)
    return AttributionBundle(folder, model, signatures, threshold, manifest)


# --------------------------------------------------------------------------- validation
# Each check raises InputError "<file>: field <name>: <what is wrong>; rebuild the bundle".


__all__ = [
    "AttributionBundle",
    "AttributionSettings",
    "BUNDLE_FILES",
    "BUNDLE_FORMAT",
    "SequenceFiles",
    "Trainer",
    "build_attribution_bundle",
    "bundle_manifest",
    "held_out_calibration",
    "check_manifest",
    "check_model",
    "check_signatures",
    "check_threshold",
    "document_sequences",
    "length_curves",
    "load_attribution_bundle",
    "read_manifest",
    "read_model",
    "read_signatures",
    "read_threshold",
    "sequence_paths_for_books",
    "write_manifest",
    "write_signatures",
    "write_threshold",
]
