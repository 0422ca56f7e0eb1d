"""Feature sets of the recognition experiments (Tables 3 and 4 of the paper).

A feature set is ``"all"`` (the paper's f1..f6, :data:`punctstyle.marks.PAPER_FEATURES`; not f7,
so that the column compares with the paper), one feature (``"f3"``) or features joined by ``"+"``
(``"f1+f3+f4+f5"``); its matrix is the column-wise concatenation of the features' matrices.

Word sets (the word baselines, :mod:`punctstyle.corpus.words`): ``"words100"`` is the relative
frequencies of the row's 100 most frequent training words, ``"all+words100"`` the paper's
f1..f6 followed by them (any punctuation set may precede ``+words<k>``). The configuration
names them without ``k`` (``words``, ``all+words``): :func:`expand_word_sets` adds each
``recognition.words.top_k``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from punctstyle.corpus.tables import feature_matrix
from punctstyle.marks import DISTRIBUTION_FEATURES, FEATURES, PAPER_FEATURES

FEATURE_SETS: dict[str, tuple[str, ...]] = {
    "f1": ("f1",),
    "f3": ("f3",),
    "f4": ("f4",),
    "f5": ("f5",),
    "f1+f3+f4+f5": ("f1", "f3", "f4", "f5"),
    "all": PAPER_FEATURES,
}
"""The paper's feature sets (Tables 3 and 4)."""

KL_FEATURE_SETS: tuple[str, ...] = tuple(f for f in FEATURE_SETS if f in DISTRIBUTION_FEATURES)
"""The single distribution features, the only sets a KL classifier accepts (Table 2)."""


def resolve_feature_set(name: str) -> tuple[str, ...]:
    """Features of a set name: ``"all"`` -> the paper's f1..f6, ``"f3+f7"`` -> (f3, f7), ``"f3"`` -> (f3,)."""
    if name == "all":
        return PAPER_FEATURES
    features = tuple(name.split("+"))
    unknown = [f for f in features if f not in FEATURES]
    if unknown or len(set(features)) != len(features):
        raise ValueError(f"bad feature set {name!r}: expected 'all' or '+'-joined names of {', '.join(FEATURES)}")
    return features


_WORD_SET = re.compile(r"(?:(?P<punctuation>.+)\+)?words(?P<k>[1-9][0-9]*)")


def word_set_parts(name: str) -> tuple[str | None, int] | None:
    """``"all+words100"`` -> ``("all", 100)``, ``"words500"`` -> ``(None, 500)``; None for a
    punctuation-only set; ``ValueError`` for a bad punctuation part."""
    match = _WORD_SET.fullmatch(name)
    if match is None:
        return None
    punctuation = match.group("punctuation")
    if punctuation is not None:
        resolve_feature_set(punctuation)
    return punctuation, int(match.group("k"))


def expand_word_sets(sets: Iterable[str], top_k: Iterable[int]) -> list[str]:
    """Configured word sets (``words``, ``all+words``) for each ``k``: ``words100``, ..., in
    the order set by set, ``k`` by ``k``."""
    out = []
    for name in sets:
        if name != "words" and not name.endswith("+words"):
            raise ValueError(f"bad word feature set {name!r}: expected 'words' or '<feature set>+words'")
        if name != "words":
            resolve_feature_set(name[: -len("+words")])
        out.extend(f"{name}{int(k)}" for k in top_k)
    return out


def word_methods(words: Mapping[str, Any], task: str) -> dict[str, list[str]]:
    """The word baselines of a task's rows (config ``recognition.words``): classifier -> word sets,
    one per ``k`` (:func:`expand_word_sets`); ``{}`` when the task is not
    in ``words["tasks"]`` or no ``top_k`` or method is configured."""
    if task not in words["tasks"] or not words["top_k"]:
        return {}
    return {name: expand_word_sets(sets, words["top_k"]) for name, sets in words["methods"].items() if sets}


def is_distribution_set(name: str) -> bool:
    """Whether a set is one distribution feature (:data:`punctstyle.marks.DISTRIBUTION_FEATURES`), as KL needs."""
    features = resolve_feature_set(name)
    return len(features) == 1 and features[0] in DISTRIBUTION_FEATURES


def feature_set_label(name: str) -> str:
    """Table header of a feature set: ``f3``, ``{f1, f3, f4, f5}``, ``all``, ``100 words``,
    ``all + 100 words``."""
    parts = word_set_parts(name)
    if parts is not None:
        punctuation, k = parts
        return f"{k} words" if punctuation is None else f"{feature_set_label(punctuation)} + {k} words"
    features = resolve_feature_set(name)
    if name == "all" or len(features) == 1:
        return name
    return "{" + ", ".join(features) + "}"


def stack_features(features: Mapping[str, Any], feature_set: str | Sequence[str]) -> np.ndarray:
    """Concatenate the features of a set column-wise: an (n_docs, total size) float64 array.

    ``features`` maps feature names to (n_docs, size) arrays, or to 1-d vectors of one document
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
    """Feature matrices, labels and book ids from the corpus tables (one per feature name).

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
