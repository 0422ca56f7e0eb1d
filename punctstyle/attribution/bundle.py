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

from punctstyle.attribution.attribute import author_signatures, method_disagreement, rank_authors
from punctstyle.io import InputError, read_json_object, write_json_atomic, write_parquet_atomic
from punctstyle.corpus.sequences import SequenceFiles, document_sequences, sequence_paths_for_books

if TYPE_CHECKING:  # torch is imported only when a model is trained or loaded
    from punctstyle.attribution.attribute import Disagreement
    from punctstyle.classifiers.mlp import MLPParams, TrainedMLP
from punctstyle.rule_names import FEATURES
from punctstyle.featuresets import stack_features
from punctstyle.features import compute_features
from punctstyle.attribution.length import mlp_length_curve, threshold_record
from punctstyle.attribution.length import attribution_split
from punctstyle.attribution.calibration import calibration_record, held_out_predictions
from punctstyle.corpus.tables import text_groups
from punctstyle.featuresets import matrices_from_tables, resolve_feature_set
from punctstyle import __version__
from punctstyle.attribution.calibration import scaled_probabilities
from punctstyle.marks import feature_column_names
from punctstyle.marks import FEATURE_SIZES

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


def _bad(path: Any, field: str, problem: str) -> InputError:
    return InputError(f"{path}: field {field}: {problem}; rebuild the bundle")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _check_feature_list(path: Any, field: str, value: Any) -> None:
    from punctstyle.marks import FEATURES  # lazy: FEATURES is another name at module level

    if not isinstance(value, list) or not value or not all(isinstance(f, str) for f in value):
        raise _bad(path, field, f"expected a non-empty list of feature names, got {value!r:.80}")
    unknown = [f for f in value if f not in FEATURES]
    if unknown:
        raise _bad(path, field, f"unknown feature {', '.join(map(repr, unknown))} (known: {', '.join(FEATURES)})")


def check_manifest(path: Any, manifest: Mapping[str, Any]) -> None:
    """``feature_set`` and ``kl_features``: non-empty lists of known features; ``classes``:
    at least two author names."""
    for field in ("feature_set", "kl_features"):
        _check_feature_list(path, field, manifest.get(field))
    classes = manifest.get("classes")
    if not isinstance(classes, list) or len(classes) < 2 or not all(isinstance(c, str) for c in classes):
        raise _bad(path, "classes", "expected a list of at least 2 author names")


def _check_curve(path: Any, field: str, curve: Any) -> None:
    if not isinstance(curve, list) or not all(
        isinstance(r, Mapping) and _is_int(r.get("n_marks")) and (r.get("accuracy") is None or _is_number(r.get("accuracy")))
        for r in curve
    ):
        raise _bad(path, field, "expected a list of {\"n_marks\": integer, \"accuracy\": number} records")


def check_threshold(path: Any, threshold: Mapping[str, Any]) -> None:
    """``min_marks``: null or a positive integer; ``feature``: null or a feature name;
    ``fraction``: a number; ``curves``: per feature a ``curve``; ``mlp_curve``: records of
    ``n_marks`` and ``accuracy`` (what :meth:`AttributionBundle.too_short` and
    :meth:`AttributionBundle.disagreement` read)."""
    from punctstyle.marks import FEATURES  # lazy: FEATURES is another name at module level

    min_marks = threshold.get("min_marks")
    if min_marks is not None and not (_is_int(min_marks) and min_marks >= 1):
        raise _bad(path, "min_marks", f"expected null or a positive integer, got {min_marks!r:.80}")
    feature = threshold.get("feature")
    if feature is not None and feature not in FEATURES:
        raise _bad(path, "feature", f"expected null or a feature name ({', '.join(FEATURES)}), got {feature!r:.80}")
    if min_marks is not None and feature is None:
        raise _bad(path, "feature", "min_marks is set but the feature it was measured on is not")
    fraction = threshold.get("fraction")
    if min_marks is not None and not _is_number(fraction):
        raise _bad(path, "fraction", f"expected a number, got {fraction!r:.80}")
    curves = threshold.get("curves", {})
    if not isinstance(curves, Mapping):
        raise _bad(path, "curves", "expected an object of feature -> {\"curve\": [...]}")
    for name, entry in curves.items():
        if not isinstance(entry, Mapping):
            raise _bad(path, f"curves.{name}", "expected an object with a \"curve\" list")
        _check_curve(path, f"curves.{name}.curve", entry.get("curve", []))
    _check_curve(path, "mlp_curve", threshold.get("mlp_curve") or [])
    calibration = threshold.get("calibration")
    if calibration is not None:
        temperature = calibration.get("temperature") if isinstance(calibration, Mapping) else None
        if not (_is_number(temperature) and 0 < temperature < float("inf")):
            raise _bad(path, "calibration.temperature", f"expected a positive number, got {temperature!r:.80}")


def check_signatures(path: Any, signatures: pd.DataFrame, kl_features: Sequence[str]) -> None:
    """Every column of every KL feature is present and numeric; at least two authors."""

    if len(signatures) < 2:
        raise _bad(path, "author", f"{len(signatures)} author(s), at least 2 needed")
    for feature in kl_features:
        columns = feature_column_names(feature)
        missing = [c for c in columns if c not in signatures.columns]
        if missing:
            raise _bad(path, feature, f"{len(missing)} of its {len(columns)} columns missing (first: {missing[0]!r})")
        if not all(pd.api.types.is_numeric_dtype(signatures[c]) for c in columns):
            raise _bad(path, feature, "non-numeric columns")


def check_model(path: Any, model: TrainedMLP, manifest: Mapping[str, Any]) -> None:
    """The model's feature set is the manifest's and its input width is that feature set's
    size (:data:`punctstyle.marks.FEATURE_SIZES`); its classes are the manifest's."""

    feature_set = list(model.feature_set)
    if feature_set != list(manifest["feature_set"]):
        raise _bad(path, "feature_set", f"{'+'.join(feature_set)}, but the manifest says {'+'.join(manifest['feature_set'])}")
    unknown = [f for f in feature_set if f not in FEATURE_SIZES]
    if unknown:
        raise _bad(path, "feature_set", f"unknown feature {', '.join(map(repr, unknown))}")
    width = sum(FEATURE_SIZES[f] for f in feature_set)
    inputs = int(model.mean.size)
    first = next(iter(model.network.parameters()), None)
    network_inputs = inputs if first is None or first.ndim != 2 else int(first.shape[1])
    if inputs != width or network_inputs != width:
        raise _bad(
            path, "feature_set",
            f"{'+'.join(feature_set)} has {width} columns but the weights take {network_inputs} inputs",
        )
    if [str(c) for c in model.classes] != [str(c) for c in manifest["classes"]]:
        raise _bad(path, "classes", "not the manifest's classes")


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
