"""Who punctuates like this text? Ranking authors for one text, and how long it must be.

For one text with features ``f^{l,t}`` the ranking reports, for each author ``a``:

* the MLP probability ``P(a | t)`` (softmax output of a model trained by
  :func:`punctstyle.recognition.train_mlp`, on the model's feature set);
* the KL divergence ``d_KL(f^{l,a}, f^{l,t})`` of the text to the author signature
  (signature first, text second, as in section 2.4), where the signature
  ``f^{l,a} = (1/|D_a|) sum_{k in D_a} f^{l,k}`` is the mean feature of the author's books;
  for f3 by default and f1. NaN means an empty common support.

:func:`minimum_marks_for_attribution` estimates from data how many punctuation marks a text
needs before KL-nearest attribution becomes reliable.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from punctstyle.divergence import pairwise_kl
from punctstyle.marks import feature_column_names
from punctstyle.recognition import (
    TrainedMLP,
    accuracy,
    class_signatures,
    kl_nearest,
    stratified_split,
)

DEFAULT_KL_FEATURES: tuple[str, ...] = ("f3", "f1")
DEFAULT_MARK_GRID: tuple[int, ...] = (50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000)

FeaturesFunction = Callable[[np.ndarray, np.ndarray], Mapping[str, np.ndarray]]
"""``compute_features(marks, gaps) -> {"f1": ..., ..., "f6": ...}``."""

Signatures = pd.DataFrame | Mapping[str, Any]


def author_signatures(
    features: Mapping[str, np.ndarray],
    labels: Sequence[Any],
    feature_names: Sequence[str] = DEFAULT_KL_FEATURES,
) -> pd.DataFrame:
    """Class-mean features per author: index ``author``, the features' named columns.

    ``features`` maps f1..f6 to (n_books, size) arrays aligned with ``labels``; columns are
    named by :func:`punctstyle.marks.feature_column_names` (``f3[" ,]`` ...).
    """
    blocks = []
    authors = None
    for name in feature_names:
        authors, signatures, _ = class_signatures(features[name], labels)
        blocks.append(pd.DataFrame(signatures, columns=feature_column_names(name)))
    frame = pd.concat(blocks, axis=1)
    frame.index = pd.Index(authors, name="author")
    return frame


def signature_matrix(signatures: Signatures, feature: str) -> tuple[np.ndarray, np.ndarray]:
    """(authors, (n_authors, size) array) of one feature from a signatures table or dict.

    Accepted forms: a DataFrame indexed by author (or with an ``author`` column) holding the
    feature's named columns (as :func:`author_signatures` returns); or a dict mapping the
    feature name to such a DataFrame, or to a dict ``{author: vector}``.
    """
    table = signatures[feature] if isinstance(signatures, Mapping) else signatures
    if isinstance(table, Mapping):
        authors = np.asarray(list(table), dtype=object)
        return authors, np.vstack([np.asarray(table[a], dtype=np.float64) for a in authors])
    if "author" in table.columns:
        table = table.set_index("author")
    columns = feature_column_names(feature)
    if all(c in table.columns for c in columns):
        values = table.loc[:, columns]
    elif table.shape[1] == len(columns):
        values = table
    else:
        raise KeyError(f"signatures have no columns of feature {feature}")
    return np.asarray(table.index, dtype=object), values.to_numpy(dtype=np.float64)


def signature_divergences(
    text_features: Mapping[str, Any], signatures: Signatures, feature: str
) -> pd.Series:
    """``d_KL(signature_a, text)`` for every author ``a`` (signature first, text second)."""
    authors, S = signature_matrix(signatures, feature)
    text = np.asarray(text_features[feature], dtype=np.float64).reshape(1, -1)
    return pd.Series(pairwise_kl(S, text)[:, 0], index=pd.Index(authors, name="author"), name=f"kl_{feature}")


def rank_authors(
    text_features: Mapping[str, Any],
    model: TrainedMLP | None,
    signatures: Signatures | None,
    *,
    kl_features: Sequence[str] = DEFAULT_KL_FEATURES,
    top: int | None = 10,
) -> pd.DataFrame:
    """Ranking of authors for one text: ``rank``, ``author``, ``probability``, ``kl_<feature>``.

    ``probability`` is the model's softmax probability of each author (NaN without a model
    or for an author the model does not know); ``kl_f3``, ``kl_f1`` ... the KL divergence
    of the text to each author signature (NaN without a signature or for an empty common
    support). Rows are sorted by decreasing probability, ties and missing probabilities by
    increasing divergence of the first KL feature; ``top`` keeps the first rows (None: all).
    """
    if model is None and signatures is None:
        raise ValueError("need a model, signatures or both")
    columns: list[pd.Series] = []
    if model is not None:
        proba = model.predict_features(text_features)[0]
        columns.append(pd.Series(proba, index=pd.Index(model.classes, name="author"), name="probability"))
    if signatures is not None:
        columns += [signature_divergences(text_features, signatures, f) for f in kl_features]
    table = pd.concat(columns, axis=1)
    if "probability" not in table:
        table.insert(0, "probability", np.nan)
    table.index.name = "author"
    sort_by = ["probability"] + ([f"kl_{kl_features[0]}"] if signatures is not None and kl_features else [])
    ascending = [False] + [True] * (len(sort_by) - 1)
    table = table.reset_index().sort_values(sort_by, ascending=ascending, na_position="last", kind="stable")
    table.insert(0, "rank", np.arange(1, len(table) + 1))
    table = table.reset_index(drop=True)
    return table if top is None else table.head(top)


# --------------------------------------------------------------------------- minimum length


@dataclass(frozen=True)
class MarksThreshold:
    """Result of :func:`minimum_marks_for_attribution`.

    ``n_min``: smallest grid length whose accuracy reaches ``target_accuracy`` (None if
    none does, or if the full-length accuracy is 0); ``curve``: one row per grid length
    (``n_marks``, ``accuracy``, ``n_test``, ``n_truncated``: test books longer than
    ``n_marks``, ``n_fallback``: all-NaN divergences).
    """

    n_min: int | None
    full_accuracy: float
    target_accuracy: float
    fraction: float
    feature: str
    curve: pd.DataFrame


def truncate_sequence(marks: np.ndarray, gaps: np.ndarray, n_marks: int) -> tuple[np.ndarray, np.ndarray]:
    """The first ``n_marks`` marks and their gaps (the whole text if it is shorter)."""
    return np.asarray(marks)[:n_marks], np.asarray(gaps)[:n_marks]


def _feature_rows(
    sequences: Sequence[tuple[np.ndarray, np.ndarray]],
    index: np.ndarray,
    compute_features: FeaturesFunction,
    feature: str,
    n_marks: int | None = None,
) -> np.ndarray:
    """(len(index), size) array of ``feature`` for the chosen texts, optionally truncated."""
    rows = []
    for i in index:
        marks, gaps = sequences[i]
        if n_marks is not None:
            marks, gaps = truncate_sequence(marks, gaps, n_marks)
        rows.append(np.asarray(compute_features(marks, gaps)[feature], dtype=np.float64))
    return np.vstack(rows)


def minimum_marks_for_attribution(
    sequences: Sequence[tuple[np.ndarray, np.ndarray]],
    labels: Sequence[Any],
    compute_features: FeaturesFunction,
    *,
    grid: Sequence[int] = DEFAULT_MARK_GRID,
    fraction: float = 0.9,
    feature: str = "f3",
    test_fraction: float = 0.2,
    seed: int = 0,
) -> MarksThreshold:
    """Estimate the number of marks below which KL-nearest attribution is unreliable.

    Books (``(marks, gaps)`` sequences with author ``labels``) are split 80/20 (closed
    set, :func:`punctstyle.recognition.stratified_split`). Author signatures are the mean
    ``feature`` of the full-length training books. Each test book is then truncated to its
    first ``n`` marks for every ``n`` of ``grid`` and attributed to
    ``argmin_a d_KL(signature_a, f(truncated book))``. The threshold is the smallest ``n``
    whose top-1 accuracy is at least ``fraction`` times the full-length accuracy.
    """
    y = np.asarray(labels, dtype=object)
    if len(sequences) != y.size:
        raise ValueError(f"{len(sequences)} sequences for {y.size} labels")
    if not 0.0 < fraction <= 1.0:
        raise ValueError(f"fraction must lie in (0, 1], got {fraction}")
    train, test = stratified_split(y, test_fraction, np.random.default_rng(seed))
    if test.size == 0:
        raise ValueError("no test books: every class needs at least 3 books for a test document")
    classes, signatures, counts = class_signatures(
        _feature_rows(sequences, train, compute_features, feature), y[train]
    )
    fallback = int(np.argmax(counts))

    def evaluate(n_marks: int | None) -> tuple[float, int]:
        X = _feature_rows(sequences, test, compute_features, feature, n_marks)
        nearest, n_fallback = kl_nearest(signatures, X, fallback)
        return accuracy(y[test], classes[nearest]), n_fallback

    full_accuracy, _ = evaluate(None)
    lengths = np.array([len(sequences[i][0]) for i in test])
    rows = []
    for n in sorted({int(n) for n in grid}):
        acc, n_fallback = evaluate(n)
        rows.append(
            {
                "n_marks": n,
                "accuracy": acc,
                "n_test": int(test.size),
                "n_truncated": int((lengths > n).sum()),
                "n_fallback": n_fallback,
            }
        )
    curve = pd.DataFrame(rows, columns=["n_marks", "accuracy", "n_test", "n_truncated", "n_fallback"])
    target = fraction * full_accuracy
    reached = curve.loc[curve["accuracy"] >= target - 1e-12, "n_marks"]
    n_min = None if full_accuracy == 0 or reached.empty or math.isnan(full_accuracy) else int(reached.iloc[0])
    return MarksThreshold(n_min, full_accuracy, target, fraction, feature, curve)


__all__ = [
    "DEFAULT_KL_FEATURES",
    "DEFAULT_MARK_GRID",
    "MarksThreshold",
    "author_signatures",
    "minimum_marks_for_attribution",
    "rank_authors",
    "signature_divergences",
    "signature_matrix",
    "truncate_sequence",
]


# --------------------------------------------------------------------------- bundle
#
# The attribution bundle (``models/attribution/`` of the workflow, ``--model`` of the CLI):
#
# * ``mlp.pt``: the MLP trained on every corpus book with the author labels
#   (:func:`punctstyle.recognition.save_model`);
# * ``signatures.parquet``: one row per author: ``author``, ``n_books``, then the class-mean
#   f1..f6 in their named columns (:func:`author_signatures`);
# * ``threshold.json``: the minimum number of marks for attribution
#   (:func:`minimum_marks_for_attribution`) with its accuracy curve;
# * ``manifest.json``: format, feature set, classes, corpus size, versions, settings used.
#   Written last: a manifest means the bundle is complete.

BUNDLE_FORMAT: str = "punctstyle-attribution/1"
BUNDLE_FILES: dict[str, str] = {
    "model": "mlp.pt",
    "signatures": "signatures.parquet",
    "threshold": "threshold.json",
    "manifest": "manifest.json",
}
DEFAULT_THRESHOLD_GRID: tuple[int, ...] = (50, 100, 200, 400, 800, 1600, 3200, 6400)

ATTRIBUTION_DEFAULTS: dict[str, Any] = {
    "feature_set": "all",
    "kl_features": list(DEFAULT_KL_FEATURES),
    "mark_grid": list(DEFAULT_THRESHOLD_GRID),
    "fraction": 0.9,
    "threshold_features": list(DEFAULT_KL_FEATURES),
    "test_fraction": 0.2,
    "seed": 0,
}
"""Settings of the bundle (the workflow's ``attribution`` config block)."""


def attribution_settings(block: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """:data:`ATTRIBUTION_DEFAULTS` updated by ``block``; unknown keys and bad values raise."""
    from punctstyle.marks import DISTRIBUTION_FEATURES

    block = dict(block or {})
    unknown = sorted(set(block) - set(ATTRIBUTION_DEFAULTS))
    if unknown:
        raise ValueError(
            f"unknown attribution setting {unknown[0]!r}: expected one of {sorted(ATTRIBUTION_DEFAULTS)}"
        )
    settings = {**ATTRIBUTION_DEFAULTS, **block}
    for key in ("kl_features", "mark_grid", "threshold_features"):
        settings[key] = list(settings[key])
    if not settings["threshold_features"]:
        raise ValueError("threshold_features must name at least one distribution feature")
    bad = [
        f
        for f in [*settings["kl_features"], *settings["threshold_features"]]
        if f not in DISTRIBUTION_FEATURES
    ]
    if bad:
        raise ValueError(f"KL feature {bad[0]!r} is not a distribution feature {DISTRIBUTION_FEATURES}")
    if not settings["mark_grid"] or any(int(n) < 1 for n in settings["mark_grid"]):
        raise ValueError("mark_grid must hold positive numbers of marks")
    if not 0.0 < float(settings["fraction"]) <= 1.0:
        raise ValueError(f"fraction must lie in (0, 1], got {settings['fraction']}")
    return settings


def resolve_attribution_features(
    name: str, named_sets: Mapping[str, Sequence[str]] | None = None
) -> tuple[str, ...]:
    """Features of the MLP: a set name of :func:`punctstyle.recognition.resolve_feature_set`
    (``all``, ``f3``, ``f1+f3+f4+f5``), or a key of the mapping ``named_sets``."""
    from punctstyle.recognition import resolve_feature_set

    if isinstance(named_sets, Mapping) and name in named_sets:
        return resolve_feature_set("+".join(named_sets[name]))
    return resolve_feature_set(name)


def mlp_params_from_config(mlp: Mapping[str, Any]) -> Any:
    """:class:`punctstyle.recognition.MLPParams` from the ``recognition.mlp`` config block."""
    from punctstyle.recognition import MLPParams

    defaults = MLPParams()
    return MLPParams(
        hidden=int(mlp.get("hidden_units", defaults.hidden)),
        learning_rate=float(mlp.get("learning_rate", defaults.learning_rate)),
        batch_size=int(mlp.get("batch_size", defaults.batch_size)),
        max_epochs=int(mlp.get("max_epochs", defaults.max_epochs)),
        patience=int(mlp.get("patience", defaults.patience)),
        validation_fraction=float(mlp.get("validation_fraction", defaults.validation_fraction)),
    )


def single_feature_function(feature: str) -> FeaturesFunction:
    """A :data:`FeaturesFunction` that computes only ``feature`` (cheaper than all six)."""
    from punctstyle import features as F

    functions: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
        "f1": lambda m, g: F.mark_frequencies(m),
        "f2": lambda m, g: F.transition_matrix(m).ravel(),
        "f3": lambda m, g: F.joint_transition_matrix(m).ravel(),
        "f4": F.sentence_length_distribution,
        "f5": lambda m, g: F.gap_distribution(g),
        "f6": lambda m, g: F.mean_gap_matrix(m, g).ravel(),
    }
    if feature not in functions:
        raise ValueError(f"unknown feature {feature!r}: expected one of f1..f6")
    compute = functions[feature]
    return lambda marks, gaps: {feature: compute(marks, gaps)}


class SequenceFiles(Sequence):
    """``(marks, gaps)`` of sequence files (``sequences/{id}.parquet``), read on access.

    Lets :func:`minimum_marks_for_attribution` run on a whole corpus without holding every
    sequence in memory.
    """

    def __init__(self, paths: Sequence[Any]) -> None:
        self.paths = list(paths)

    def __len__(self) -> int:
        return len(self.paths)

    def __getitem__(self, index: int) -> tuple[np.ndarray, np.ndarray]:  # type: ignore[override]
        from punctstyle.book import read_sequence

        sequence, _ = read_sequence(self.paths[index])
        return sequence.marks, sequence.gaps


def sequence_paths_for_books(paths: Sequence[Any], book_ids: Sequence[int]) -> list[str]:
    """The sequence files of ``book_ids``, in that order, from files named ``{id}.parquet``.

    Files of other books are ignored; a book without a file raises :class:`InputError`.
    """
    import os

    from punctstyle.io import InputError

    by_id: dict[int, str] = {}
    for path in paths:
        stem = os.path.basename(os.fspath(path)).split(".", 1)[0]
        if stem.isdigit():
            by_id[int(stem)] = os.fspath(path)
    missing = [int(b) for b in book_ids if int(b) not in by_id]
    if missing:
        raise InputError(f"no sequence file for {len(missing)} corpus books, e.g. book {missing[0]}")
    return [by_id[int(b)] for b in book_ids]


def _json_number(value: Any) -> Any:
    """A float for JSON: NaN and infinities become None."""
    if value is None:
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def _curve_records(curve: pd.DataFrame) -> list[dict[str, Any]]:
    return [
        {
            "n_marks": int(r.n_marks),
            "accuracy": _json_number(r.accuracy),
            "n_test": int(r.n_test),
            "n_truncated": int(r.n_truncated),
            "n_fallback": int(r.n_fallback),
        }
        for r in curve.itertuples(index=False)
    ]


def threshold_record(
    sequences: Sequence[tuple[np.ndarray, np.ndarray]],
    labels: Sequence[Any],
    *,
    grid: Sequence[int] = DEFAULT_THRESHOLD_GRID,
    fraction: float = 0.9,
    features: Sequence[str] = DEFAULT_KL_FEATURES,
    test_fraction: float = 0.2,
    seed: int = 0,
) -> dict[str, Any]:
    """:func:`minimum_marks_for_attribution` as the JSON record of ``threshold.json``.

    The estimate is run for each candidate KL feature of ``features`` (same split). The
    threshold is taken from the feature whose full-length KL-nearest accuracy is highest
    (the first on a tie) among those that beat the proportional random baseline
    (:func:`punctstyle.recognition.baseline_accuracy` on the same split): a feature that
    attributes no better than chance at full length cannot say how long a text must be.

    ``min_marks`` is what the CLI compares a text with: the chosen feature's ``n_min``; when
    no grid length reaches the target, the largest grid length (a lower bound,
    ``estimated`` false); None when nothing can be estimated (no test book, or no feature
    better than chance). ``curve`` is the chosen feature's accuracy per grid length,
    ``curves`` those of every candidate; ``note`` says how the value was obtained.
    """
    from punctstyle.recognition import baseline_accuracy

    y = np.asarray(labels, dtype=object)
    grid = sorted({int(n) for n in grid})
    features = list(dict.fromkeys(features))
    record: dict[str, Any] = {
        "fraction": float(fraction),
        "grid": grid,
        "candidates": features,
        "test_fraction": float(test_fraction),
        "seed": int(seed),
        "n_books": int(y.size),
        "n_authors": int(np.unique(y).size),
    }
    not_estimated = dict(
        min_marks=None,
        n_min=None,
        estimated=False,
        feature=None,
        full_accuracy=None,
        target_accuracy=None,
        baseline_accuracy=None,
        curve=[],
        curves={},
    )
    results: dict[str, MarksThreshold] = {}
    try:
        for feature in features:
            results[feature] = minimum_marks_for_attribution(
                sequences,
                y,
                single_feature_function(feature),
                grid=grid,
                fraction=fraction,
                feature=feature,
                test_fraction=test_fraction,
                seed=seed,
            )
    except ValueError as exc:
        record.update(not_estimated, note=f"not estimated: {exc}")
        return record
    train, test = stratified_split(y, test_fraction, np.random.default_rng(seed))  # the same split
    baseline = baseline_accuracy(y[train], y[test])
    curves = {
        f: {
            "full_accuracy": _json_number(r.full_accuracy),
            "target_accuracy": _json_number(r.target_accuracy),
            "n_min": r.n_min,
            "curve": _curve_records(r.curve),
        }
        for f, r in results.items()
    }
    better = [f for f in features if results[f].full_accuracy > baseline + 1e-12]
    if not better:
        accuracies = ", ".join(f"{f} {results[f].full_accuracy:.3f}" for f in features)
        record.update(
            not_estimated,
            baseline_accuracy=_json_number(baseline),
            curves=curves,
            note=(
                f"not estimated: at full length no KL feature attributes better than the "
                f"random baseline {baseline:.3f} ({accuracies})"
            ),
        )
        return record
    feature = max(better, key=lambda f: (results[f].full_accuracy, -features.index(f)))
    result = results[feature]
    full = float(result.full_accuracy)
    if result.n_min is not None:
        min_marks, estimated = result.n_min, True
        note = (
            f"smallest grid length whose KL-nearest ({feature}) top-1 accuracy reaches "
            f"{fraction:g} x the full-length accuracy {full:.3f} (random baseline {baseline:.3f})"
        )
    else:
        min_marks, estimated = grid[-1], False
        note = (
            f"no grid length reached {fraction:g} x the full-length KL-nearest ({feature}) accuracy "
            f"{full:.3f}; the largest grid length {grid[-1]} is a lower bound"
        )
    record.update(
        min_marks=min_marks,
        n_min=result.n_min,
        estimated=estimated,
        feature=feature,
        full_accuracy=_json_number(full),
        target_accuracy=_json_number(result.target_accuracy),
        baseline_accuracy=_json_number(baseline),
        curve=_curve_records(result.curve),
        curves=curves,
        note=note,
    )
    return record


def signatures_table(features: Mapping[str, np.ndarray], labels: Sequence[Any]) -> pd.DataFrame:
    """``signatures.parquet``: ``author``, ``n_books``, then the class-mean f1..f6 columns."""
    from punctstyle.marks import FEATURES

    table = author_signatures(features, labels, FEATURES)
    authors, counts = np.unique(np.asarray(labels, dtype=object), return_counts=True)
    n_books = pd.Series(counts, index=pd.Index(authors, name="author"), name="n_books")
    table.insert(0, "n_books", n_books.reindex(table.index).to_numpy())
    return table.reset_index()


def build_attribution_bundle(
    tables: Mapping[str, pd.DataFrame],
    sequence_paths: Sequence[Any],
    outputs: Mapping[str, Any],
    *,
    settings: Mapping[str, Any] | None = None,
    mlp: Mapping[str, Any] | None = None,
    named_feature_sets: Mapping[str, Sequence[str]] | None = None,
    num_threads: int | None = None,
    config: Mapping[str, Any] | None = None,
    log: Any = None,
) -> dict[str, Any]:
    """Train, summarise and write the attribution bundle; return the manifest.

    ``tables``: the corpus tables f1..f6 (one row per book, ``author`` labels);
    ``sequence_paths``: ``sequences/{id}.parquet`` files, those of the corpus books among
    them (others are ignored); ``outputs``: paths keyed like :data:`BUNDLE_FILES`;
    ``settings``: the ``attribution`` block (:func:`attribution_settings`); ``mlp``: the
    ``recognition.mlp`` block (hyper-parameters, ``device``); ``config``: stored in the
    manifest as the configuration used. Every file is written atomically, the manifest last.
    """
    import torch

    from punctstyle import __version__
    from punctstyle.io import write_json_atomic, write_parquet_atomic
    from punctstyle.marks import FEATURES
    from punctstyle.recognition import matrices_from_tables, save_model, stack_features, train_mlp

    settings = attribution_settings(settings)
    mlp = dict(mlp or {})
    params = mlp_params_from_config(mlp)
    feature_set = resolve_attribution_features(str(settings["feature_set"]), named_feature_sets)
    missing = [f for f in FEATURES if f not in tables]
    if missing:
        raise ValueError(f"no corpus table for feature {missing[0]}")
    features, labels, book_ids = matrices_from_tables({f: tables[f] for f in FEATURES}, "author")
    if labels.size == 0:
        raise ValueError("the corpus has no book: nothing to attribute to")
    authors = np.unique(labels)

    def say(message: str, *args: Any) -> None:
        if log is not None:
            log.info(message, *args)

    say(
        "training the MLP on %d books by %d authors, features %s",
        labels.size,
        authors.size,
        "+".join(feature_set),
    )
    model = train_mlp(
        stack_features(features, feature_set),
        labels,
        params=params,
        seed=int(settings["seed"]),
        feature_set=feature_set,
        device=str(mlp.get("device", "auto")),
        num_threads=num_threads,
    )
    say("MLP: %d epochs (best %d)", model.epochs, model.best_epoch)
    signatures = signatures_table(features, labels)
    sequences = SequenceFiles(sequence_paths_for_books(sequence_paths, book_ids.tolist()))
    threshold = threshold_record(
        sequences,
        labels,
        grid=settings["mark_grid"],
        fraction=float(settings["fraction"]),
        features=settings["threshold_features"],
        test_fraction=float(settings["test_fraction"]),
        seed=int(settings["seed"]),
    )
    say("minimum marks for attribution: %s (%s)", threshold["min_marks"], threshold["note"])
    manifest = {
        "format": BUNDLE_FORMAT,
        "punctstyle_version": __version__,
        "torch_version": str(torch.__version__),
        "files": dict(BUNDLE_FILES),
        "feature_set_name": str(settings["feature_set"]),
        "feature_set": list(feature_set),
        "kl_features": list(settings["kl_features"]),
        "classes": [str(c) for c in model.classes],
        "n_authors": int(authors.size),
        "n_books": int(labels.size),
        "min_marks": threshold["min_marks"],
        "mlp": {
            "params": {k: getattr(params, k) for k in params.__dataclass_fields__},
            "seed": int(model.seed),
            "epochs": int(model.epochs),
            "best_epoch": int(model.best_epoch),
            "device": str(model.device),
        },
        "settings": settings,
        "config": dict(config or {}),
    }
    save_model(outputs["model"], model)
    write_parquet_atomic(signatures, outputs["signatures"])
    write_json_atomic(outputs["threshold"], threshold)
    write_json_atomic(outputs["manifest"], manifest)
    return manifest


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
        return tuple(self.manifest.get("kl_features") or DEFAULT_KL_FEATURES)

    def rank(self, text_features: Mapping[str, Any], top: int | None = 5) -> pd.DataFrame:
        """:func:`rank_authors` with the bundle's model, signatures and KL features."""
        return rank_authors(text_features, self.model, self.signatures, kl_features=self.kl_features, top=top)

    def too_short(self, n_marks: int) -> str | None:
        """Why a text of ``n_marks`` marks is too short to attribute, or None."""
        needed = self.min_marks
        if needed is None:
            return "too short to say anything: the text has no punctuation mark" if n_marks == 0 else None
        if n_marks >= needed:
            return None
        fraction = float(self.threshold.get("fraction", 0.9))
        feature = self.threshold.get("feature", "f3")
        return (
            f"too short to say anything: {n_marks} marks, at least {needed} needed for a reliable "
            f"attribution (on this model's corpus, KL-nearest attribution on {feature} reaches "
            f"{fraction:.0%} of its full-length accuracy from {needed} marks on)"
        )


def load_attribution_bundle(directory: Any) -> AttributionBundle:
    """Read a bundle written by :func:`build_attribution_bundle`.

    Raises :class:`punctstyle.io.InputError` (one line naming the path) when the folder or
    a file is missing or unreadable.
    """
    import json
    import os
    import pickle

    from punctstyle.io import InputError
    from punctstyle.recognition import load_model

    folder = os.fspath(directory)
    hint = "build it with `snakemake attribution_model` or point --model at a bundle folder"
    if not os.path.exists(folder):
        raise InputError(f"{folder}: model folder does not exist ({hint})")
    if not os.path.isdir(folder):
        raise InputError(f"{folder}: model path is not a folder ({hint})")
    paths = {key: os.path.join(folder, name) for key, name in BUNDLE_FILES.items()}
    absent = [name for key, name in BUNDLE_FILES.items() if not os.path.isfile(paths[key])]
    if absent:
        raise InputError(f"{folder}: not an attribution bundle, missing {', '.join(absent)} ({hint})")

    def read_json(path: str) -> dict[str, Any]:
        try:
            with open(path, encoding="utf-8") as handle:
                data = json.load(handle)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise InputError(f"{path}: not a readable JSON file ({exc})") from exc
        if not isinstance(data, dict):
            raise InputError(f"{path}: expected a JSON object")
        return data

    manifest = read_json(paths["manifest"])
    if manifest.get("format") != BUNDLE_FORMAT:
        raise InputError(
            f"{paths['manifest']}: not a {BUNDLE_FORMAT} manifest (format {manifest.get('format')!r})"
        )
    threshold = read_json(paths["threshold"])
    try:
        model = load_model(paths["model"])
    except (OSError, RuntimeError, ValueError, KeyError, TypeError, EOFError, pickle.UnpicklingError) as exc:
        raise InputError(f"{paths['model']}: not a readable punctstyle MLP model ({exc})") from exc
    try:
        signatures = pd.read_parquet(paths["signatures"])
    except (OSError, ValueError) as exc:
        raise InputError(f"{paths['signatures']}: not a readable Parquet file ({exc})") from exc
    if "author" not in signatures.columns:
        raise InputError(f"{paths['signatures']}: no 'author' column")
    return AttributionBundle(folder, model, signatures.set_index("author"), threshold, manifest)


__all__ += [
    "ATTRIBUTION_DEFAULTS",
    "AttributionBundle",
    "BUNDLE_FILES",
    "BUNDLE_FORMAT",
    "DEFAULT_THRESHOLD_GRID",
    "SequenceFiles",
    "attribution_settings",
    "build_attribution_bundle",
    "load_attribution_bundle",
    "mlp_params_from_config",
    "resolve_attribution_features",
    "sequence_paths_for_books",
    "signatures_table",
    "single_feature_function",
    "threshold_record",
]
