"""Checks of an attribution bundle's files when it is loaded: each bad field is refused in
one line naming the file and the field (:class:`punctstyle.io.InputError`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import pandas as pd

from punctstyle.io import InputError
from punctstyle.marks import FEATURE_SIZES, feature_column_names

if TYPE_CHECKING:  # torch is imported only when a model is loaded
    from punctstyle.classifiers.mlp import TrainedMLP


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


def _check_curves(path: Any, key: str, curves: Any, what: str) -> None:
    """``key`` of the threshold file: an object of ``what`` -> ``{"curve": [...]}``, each curve
    checked by :func:`_check_curve`; a one-line :func:`_bad` error otherwise."""
    if not isinstance(curves, Mapping):
        raise _bad(path, key, f'expected an object of {what} -> {{"curve": [...]}}')
    for name, entry in curves.items():
        if not isinstance(entry, Mapping):
            raise _bad(path, f"{key}.{name}", 'expected an object with a "curve" list')
        _check_curve(path, f"{key}.{name}.curve", entry.get("curve", []))


def _check_curve(path: Any, field: str, curve: Any) -> None:
    if not isinstance(curve, list) or not all(
        isinstance(r, Mapping)
        and _is_int(r.get("n_marks"))
        and (r.get("accuracy") is None or _is_number(r.get("accuracy")))
        for r in curve
    ):
        raise _bad(path, field, 'expected a list of {"n_marks": integer, "accuracy": number} records')


def check_threshold(path: Any, threshold: Mapping[str, Any]) -> None:
    """``min_marks``: null or a positive integer; ``feature``: null or a feature name;
    ``fraction``: a number; ``curves``: per feature a ``curve``; ``mlp_curve``: records of
    ``n_marks`` and ``accuracy``; ``word_curves``: per word method a ``curve``; ``rolling.default``:
    null or a ``punctstyle rolling --method`` (what :meth:`AttributionBundle.too_short` and
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
    _check_curves(path, "curves", threshold.get("curves", {}), "feature")
    _check_curve(path, "mlp_curve", threshold.get("mlp_curve") or [])
    _check_curves(path, "word_curves", threshold.get("word_curves") or {}, "method")
    rolling = threshold.get("rolling")
    if rolling is not None and not (isinstance(rolling, Mapping)
                                    and rolling.get("default") in (None, "punctuation", "words", "both")):
        raise _bad(path, "rolling.default", "expected null, punctuation, words or both")
    calibration = threshold.get("calibration")
    if calibration is not None:
        temperature = calibration.get("temperature") if isinstance(calibration, Mapping) else None
        if not (_is_number(temperature) and 0 < temperature < float("inf")):
            raise _bad(path, "calibration.temperature", f"expected a positive number, got {temperature!r:.80}")


def check_signatures(path: Any, signatures: pd.DataFrame, kl_features: Sequence[str],
                     classes: Sequence[str] | None = None) -> None:
    """Every column of every KL feature is present and numeric; at least two authors; when
    ``classes`` (the manifest's) is given, one signature per class, no more, no fewer."""

    if len(signatures) < 2:
        raise _bad(path, "author", f"{len(signatures)} author(s), at least 2 needed")
    if classes is not None:
        _check_signature_authors(path, signatures, classes)
    for feature in kl_features:
        columns = feature_column_names(feature)
        missing = [c for c in columns if c not in signatures.columns]
        if missing:
            raise _bad(path, feature, f"{len(missing)} of its {len(columns)} columns missing (first: {missing[0]!r})")
        if not all(pd.api.types.is_numeric_dtype(signatures[c]) for c in columns):
            raise _bad(path, feature, "non-numeric columns")


def _check_signature_authors(path: Any, signatures: pd.DataFrame, classes: Sequence[str]) -> None:
    """The signatures' authors are the model's classes, each once (else the KL column would
    read ``n/a`` and KL would pick its winner among the others)."""
    authors = [str(a) for a in (signatures["author"] if "author" in signatures.columns else signatures.index)]
    missing = [str(c) for c in classes if str(c) not in authors]
    if missing:
        raise _bad(path, "author", f"{len(missing)} of the model's {len(classes)} authors have no signature "
                                   f"(first: {missing[0]!r})")
    extra = sorted(set(authors) - {str(c) for c in classes})
    if extra or len(set(authors)) != len(authors):
        what = f"not an author of the model: {extra[0]!r}" if extra else "an author listed twice"
        raise _bad(path, "author", what)


def check_model(path: Any, model: TrainedMLP, manifest: Mapping[str, Any]) -> None:
    """The model's feature set is the manifest's and its input width is that feature set's
    size (:data:`punctstyle.marks.FEATURE_SIZES`); its classes are the manifest's."""

    feature_set = list(model.feature_set)
    if feature_set != list(manifest["feature_set"]):
        raise _bad(
            path, "feature_set", f"{'+'.join(feature_set)}, but the manifest says {'+'.join(manifest['feature_set'])}"
        )
    unknown = [f for f in feature_set if f not in FEATURE_SIZES]
    if unknown:
        raise _bad(path, "feature_set", f"unknown feature {', '.join(map(repr, unknown))}")
    width = sum(FEATURE_SIZES[f] for f in feature_set)
    inputs = int(model.mean.size)
    first = next(iter(model.network.parameters()), None)
    network_inputs = inputs if first is None or first.ndim != 2 else int(first.shape[1])
    if inputs != width or network_inputs != width:
        raise _bad(
            path,
            "feature_set",
            f"{'+'.join(feature_set)} has {width} columns but the weights take {network_inputs} inputs",
        )
    if [str(c) for c in model.classes] != [str(c) for c in manifest["classes"]]:
        raise _bad(path, "classes", "not the manifest's classes")
