"""Synthetic documents shared by the recognition and classifier tests."""

from __future__ import annotations

import dataclasses

import numpy as np

from punctstyle.marks import FEATURE_SIZES, FEATURES
from punctstyle.settings import schema_default


def mlp_params(**overrides):
    """MLPParams from the schema's ``recognition.mlp`` defaults, with ``overrides`` (imports torch)."""
    from punctstyle.classifiers.mlp import MLPParams

    return dataclasses.replace(MLPParams.from_config(schema_default("recognition", "mlp")), **overrides)


def dirichlet_classes(n_classes: int, n_per_class: int, size: int, concentration: float, seed: int):
    """Documents drawn around well separated class means: Dirichlet(concentration * mean_c)."""
    rng = np.random.default_rng(seed)
    means = rng.dirichlet(np.full(size, 0.5), size=n_classes)
    means = (means + 1e-3) / (means + 1e-3).sum(axis=1, keepdims=True)
    labels = np.repeat([f"class{c:02d}" for c in range(n_classes)], n_per_class)
    X = np.vstack([rng.dirichlet(concentration * means[c], size=n_per_class) for c in range(n_classes)])
    return X, labels


def gaussian_classes(n_classes: int, n_per_class: int, dim: int, seed: int, separation: float = 3.0):
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(n_classes, dim)) * separation
    labels = np.repeat([f"c{c}" for c in range(n_classes)], n_per_class)
    X = centres[np.repeat(np.arange(n_classes), n_per_class)] + rng.normal(
        size=(n_classes * n_per_class, dim)
    )
    return X, labels


def feature_dict(n_classes: int, n_per_class: int, seed: int):
    """f1..f6 for synthetic classes: distributions for f1..f5, positive values for f6."""
    rng = np.random.default_rng(seed)
    features = {}
    labels = None
    for i, name in enumerate(FEATURES):
        X, labels = dirichlet_classes(n_classes, n_per_class, FEATURE_SIZES[name], 300.0, seed + i)
        features[name] = X * (5.0 if name == "f6" else 1.0)
    order = rng.permutation(labels.size)  # documents not grouped by class
    return {k: v[order] for k, v in features.items()}, labels[order]


