"""The attribution bundle: its files, its settings and loading it (building it:
:mod:`punctstyle.attribution.bundle_build`).

The bundle (``models/attribution/`` of the workflow, ``--model`` of the CLI):

* ``mlp.pt``: the MLP trained on every corpus book with the author labels
  (:func:`punctstyle.classifiers.mlp.save_model`; read with ``weights_only=True``);
* ``signatures.parquet``: one row per author: ``author``, ``n_books``, then the class-mean
  f1..f6 in their named columns (:func:`punctstyle.attribution.attribute.author_signatures`);
* ``threshold.json``: the minimum number of marks for attribution with the measured
  accuracy per length of KL-nearest attribution and of the MLP
  (:func:`punctstyle.attribution.length.threshold_record`, ``mlp_curve``; like ``word_curves``
  cross-fitted over ``folds`` folds of texts, every text held out once, each record with its
  ``n_test`` held-out texts and ``n_right`` attributed right) and the
  ``calibration`` of the MLP's probabilities (:mod:`punctstyle.attribution.calibration`: a
  temperature fitted on cross-fitted predictions of the deployed recipe, reliability before and
  after, the table after out of sample);
* ``words.npz`` (optional: a bundle built with word streams and ``attribution.words`` > 0):
  Burrows' Delta on the most frequent words and on the words with f1..f6
  (:mod:`punctstyle.attribution.bundle_words`); their held-out accuracy per length is
  ``word_curves`` of ``threshold.json``, and the rolling method chosen by change-point F1 on
  synthetic collaborations of held-out books its ``rolling``;
* ``manifest.json``: format, feature set, classes, corpus size, versions, settings used.
  Written last: a manifest means the bundle is complete.

Each file has its writer and its reader here; every reader raises
:class:`punctstyle.io.InputError` with one line naming the file.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
import pandas as pd

from punctstyle.attribution.attribute import (
    MethodAnswer,
    author_signatures,
    method_answer,
    method_disagreement,
    rank_authors,
)
from punctstyle.attribution.bundle_words import WordModels, read_word_models
from punctstyle.attribution.bundle_checks import check_manifest, check_model, check_signatures, check_threshold
from punctstyle.attribution.calibration import scaled_probabilities
from punctstyle.corpus.sequences import SequenceFiles, document_sequences, sequence_paths_for_books
from punctstyle.io import InputError, read_json_object, write_json_atomic, write_parquet_atomic
from punctstyle.rule_names import FEATURES
from punctstyle.settings import load_settings

if TYPE_CHECKING:  # torch is imported only when a model is trained or loaded
    from punctstyle.attribution.attribute import Disagreement
    from punctstyle.classifiers.mlp import TrainedMLP

BUNDLE_FORMAT: str = "punctstyle-attribution/1"
BUNDLE_FILES: dict[str, str] = {
    "model": "mlp.pt",
    "signatures": "signatures.parquet",
    "threshold": "threshold.json",
    "manifest": "manifest.json",
}
OPTIONAL_FILES: dict[str, str] = {"words": "words.npz"}
"""Files a bundle may lack (an older bundle, or one built without word streams)."""
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
    words: int
    collaborations: int
    part_marks: tuple[int, int]

    KEYS: ClassVar[tuple[str, ...]] = (
        "feature_set", "kl_features", "threshold_features", "mark_grid", "fraction", "test_fraction", "seed",
        "words", "collaborations", "part_marks",
    )
    SECTION: ClassVar[tuple[str, ...]] = ("attribution",)

    @classmethod
    def from_config(cls, block: Mapping[str, Any]) -> AttributionSettings:
        """From the ``attribution`` block (a missing key takes the schema's default, every value
        the schema's type: :func:`punctstyle.settings.load_settings`)."""
        return load_settings(cls, block)


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


# --------------------------------------------------------------------------- loading


@dataclass
class AttributionBundle:
    """A loaded attribution bundle: model, author signatures, threshold, manifest."""

    directory: str
    model: TrainedMLP
    signatures: pd.DataFrame
    threshold: dict[str, Any]
    manifest: dict[str, Any]
    words: WordModels | None = None

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

    def method_curves(self) -> dict[str, list[dict[str, Any]]]:
        """The held-out accuracy per length of every method of the bundle, punctuation first:
        ``mlp`` (``mlp_curve``), ``kl_<feature>`` (``curves[<feature>]`` of each KL feature
        measured), ``delta_words`` and ``delta_both`` (``word_curves``)."""
        curves = self.threshold.get("curves") or {}
        out = {"mlp": list(self.threshold.get("mlp_curve") or [])}
        for feature in self.kl_features:
            if feature in curves:
                out[f"kl_{feature}"] = list(curves[feature].get("curve") or [])
        if self.words is not None:
            word_curves = self.threshold.get("word_curves") or {}
            for method in self.words.references:  # delta_words, then delta_both
                out[method] = list((word_curves.get(method) or {}).get("curve") or [])
        return out

    def answers(self, ranking: pd.DataFrame, features: Mapping[str, Any], stream: Sequence[str] | None,
                n_marks: int, top: int = 3) -> list[MethodAnswer]:
        """Every method's answer for one text (:func:`punctstyle.attribution.attribute.method_answer`):
        the MLP and KL of ``ranking`` (every author), the word methods on the text's word ``stream``
        (left out without one or without word models); each curve's own ``n_test`` (every method is
        cross-fitted on the same folds), else, for a bundle whose MLP curve has none, the KL curve's."""
        curves = self.method_curves()
        by_author = ranking.set_index("author")
        feature = self.threshold.get("feature")
        n_test = _held_out_in(curves.get(f"kl_{feature}", []))
        answers = [method_answer("mlp", "probability", by_author["probability"], curves["mlp"], n_marks, top, n_test)]
        for f in self.kl_features:
            answers.append(method_answer(f"kl_{f}", "distance", by_author[f"kl_{f}"], curves.get(f"kl_{f}", []),
                                         n_marks, top, n_test))
        if self.words is not None and stream is not None:
            for method in self.words.references:
                answers.append(method_answer(method, "distance", self.words.distances(method, features, stream),
                                             curves.get(method, []), n_marks, top, n_test))
        return answers

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


def _held_out_in(curve: Sequence[Mapping[str, Any]]) -> int | None:
    for row in curve:
        if isinstance(row.get("n_test"), int):
            return int(row["n_test"])
    return None


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
    check_signatures(paths["signatures"], signatures, manifest["kl_features"], manifest["classes"])
    model = read_model(paths["model"])
    check_model(paths["model"], model, manifest)
    words = None
    if manifest.get("word_methods"):  # the manifest says the build wrote words.npz
        words_path = os.path.join(folder, OPTIONAL_FILES["words"])
        if not os.path.isfile(words_path):
            raise InputError(f"{words_path}: missing, though the manifest lists word methods ({BUILD_HINT})")
        words = read_word_models(words_path)
    return AttributionBundle(folder, model, signatures, threshold, manifest, words)


# --------------------------------------------------------------------------- validation
# Each check raises InputError "<file>: field <name>: <what is wrong>; rebuild the bundle".


__all__ = [
    "AttributionBundle",
    "AttributionSettings",
    "BUNDLE_FILES",
    "BUNDLE_FORMAT",
    "OPTIONAL_FILES",
    "SequenceFiles",
    "check_manifest",
    "check_model",
    "check_signatures",
    "check_threshold",
    "document_sequences",
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
