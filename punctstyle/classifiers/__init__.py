"""The recognition classifiers, registered in one place (section 2.4 of the paper).

A classifier is built by a *factory* ``factory(seed=..., feature_set=..., **options)`` (a
class or a function; ``feature_set`` is the tuple of features behind the columns, ``options``
come from the workflow, e.g. the MLP's hyper-parameters) and has two methods:

* ``fit(X_train, y_train)``: learn from an (n_train, d) float matrix and its labels;
* ``predict(X_test)``: the predicted label of each row of an (n_test, d) matrix.

It may also have ``diagnostics() -> dict`` (``n_fallback``, ``epochs``: reported in the
results table) and ``save(path)`` (a model file the workflow keeps for full-corpus rows).

:data:`CLASSIFIERS` maps a name (the key of ``recognition.methods`` in the config) to a
:class:`ClassifierSpec`: the display name used by tables and figures, whether the classifier
needs a single distribution feature (f1, f3, f4 or f5: KL divergence does), and the factory
as ``"module:attribute"``, imported only when a classifier is built, so that torch is
imported only when an MLP is built, trained or loaded. See docs/CONVENTIONS.md.

Classifiers whose input is a document's raw punctuation sequence rather than a feature matrix
(``input_kind="sequence"``: ``fit(documents, y)`` and ``predict(documents)`` on lists of
``(marks, gaps)`` arrays) are registered apart, in :data:`SEQUENCE_CLASSIFIERS` (built with
:func:`build_sequence_classifier`): the recognition grid (``recognition.methods``) takes feature
classifiers only.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np


class Classifier(Protocol):
    """What the recognition grid calls: fit on training rows, predict test rows."""

    def fit(self, X: np.ndarray, y: np.ndarray) -> Any: ...

    def predict(self, X: np.ndarray) -> np.ndarray: ...


INPUT_KINDS: tuple[str, ...] = ("features", "sequence")
OPTION_KINDS: tuple[str, ...] = ("params", "keywords")


@dataclass(frozen=True)
class ClassifierSpec:
    """A registered classifier: display name, feature restriction, lazily imported factory."""

    display_name: str
    factory: str
    distribution_features_only: bool = False
    input_kind: str = "features"
    """``"features"`` (fit/predict on feature matrices) or ``"sequence"`` (on (marks, gaps) lists)."""
    config_section: tuple[str, ...] = ()
    """Where its options live in the config; ``()``: ``recognition.<name>`` (none when absent)."""
    option_kind: str = "params"
    """How the section reaches the factory: ``"params"`` (its hyper-parameters, without the
    execution-only keys, as ``params=``) or ``"keywords"`` (the config block as keyword options)."""
    runs_on_device: bool = False
    """Whether it also takes the run-time context: ``device`` (its section's) and ``num_threads``."""
    plan_keys: tuple[str, ...] = ()
    """Keys of its section that plan the runs (which rows) rather than decide a fit: not options."""

    def __post_init__(self) -> None:
        if self.input_kind not in INPUT_KINDS:
            raise ValueError(f"bad classifier input kind {self.input_kind!r}: expected one of {INPUT_KINDS}")
        if self.option_kind not in OPTION_KINDS:
            raise ValueError(f"bad classifier option kind {self.option_kind!r}: expected one of {OPTION_KINDS}")

    def section(self, name: str) -> tuple[str, ...]:
        """The config keys of the options of the classifier registered as ``name``."""
        return self.config_section or ("recognition", name)

    def load_factory(self) -> Callable[..., Classifier]:
        """Import ``module:attribute`` and return the factory."""
        module, _, attribute = self.factory.partition(":")
        if not module or not attribute:
            raise ValueError(f"bad classifier factory {self.factory!r}: expected 'module:attribute'")
        return getattr(importlib.import_module(module), attribute)


CLASSIFIERS: dict[str, ClassifierSpec] = {
    "kl": ClassifierSpec(
        "KL nearest class", "punctstyle.classifiers.kl_nearest:KLNearestClass", distribution_features_only=True
    ),
    "mlp": ClassifierSpec("neural network", "punctstyle.classifiers.mlp:MLPClassifier", runs_on_device=True),
    "delta": ClassifierSpec("Burrows' Delta", "punctstyle.classifiers.delta:BurrowsDelta", option_kind="keywords"),
}
"""Every recognition classifier, by config name (``recognition.methods``)."""

SEQUENCE_METHOD = "sequence_cnn"
"""The sequence classifier of the sequence rows (``beyond.sequence``; the job:
:func:`punctstyle.jobs.sequence.sequence_row_job`)."""

SEQUENCE_CLASSIFIERS: dict[str, ClassifierSpec] = {
    SEQUENCE_METHOD: ClassifierSpec(
        "sequence CNN",
        "punctstyle.classifiers.sequence_cnn:SequenceCNNClassifier",
        input_kind="sequence",
        config_section=("beyond", "sequence"),
        runs_on_device=True,
        plan_keys=("enabled", "class_sizes"),
    ),
}
"""Every classifier on raw punctuation sequences (``input_kind="sequence"``), by name."""


def classifier_spec(name: str) -> ClassifierSpec:
    """The registered classifier ``name``; a one-line error naming the known ones otherwise."""
    try:
        return CLASSIFIERS[name]
    except KeyError:
        raise ValueError(f"unknown classifier {name!r}: expected one of {sorted(CLASSIFIERS)}") from None


def any_classifier_spec(name: str) -> ClassifierSpec:
    """The registered classifier ``name``, on features or on sequences; a one-line error else."""
    spec = CLASSIFIERS.get(name) or SEQUENCE_CLASSIFIERS.get(name)
    if spec is None:
        known = sorted({*CLASSIFIERS, *SEQUENCE_CLASSIFIERS})
        raise ValueError(f"unknown classifier {name!r}: expected one of {known}")
    return spec


def display_name(name: str) -> str:
    """The name tables and figures show (``"kl"`` -> ``"KL nearest class"``); unknown names as given."""
    spec = CLASSIFIERS.get(name) or SEQUENCE_CLASSIFIERS.get(name)
    return spec.display_name if spec else name


def build_classifier(name: str, *, seed: int, feature_set: tuple[str, ...], **options: Any) -> Classifier:
    """A fresh classifier ``name`` from its factory (imported now, not before)."""
    return classifier_spec(name).load_factory()(seed=seed, feature_set=feature_set, **options)


def build_sequence_classifier(name: str, *, seed: int, **options: Any) -> Any:
    """A fresh sequence classifier ``name`` (:data:`SEQUENCE_CLASSIFIERS`) from its factory."""
    try:
        spec = SEQUENCE_CLASSIFIERS[name]
    except KeyError:
        raise ValueError(
            f"unknown sequence classifier {name!r}: expected one of {sorted(SEQUENCE_CLASSIFIERS)}"
        ) from None
    return spec.load_factory()(seed=seed, **options)


__all__ = [
    "CLASSIFIERS",
    "INPUT_KINDS",
    "OPTION_KINDS",
    "SEQUENCE_CLASSIFIERS",
    "SEQUENCE_METHOD",
    "Classifier",
    "ClassifierSpec",
    "any_classifier_spec",
    "build_classifier",
    "build_sequence_classifier",
    "classifier_spec",
    "display_name",
]
