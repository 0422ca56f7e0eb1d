"""Who punctuates like this text? Ranking authors for one text.

For one text with features ``f^{l,t}`` the ranking reports, for each author ``a``:

* the MLP probability ``P(a | t)`` (softmax output of a model trained by
  :func:`punctstyle.classifiers.mlp.train_mlp`, on the model's feature set);
* the KL divergence ``d_KL(f^{l,a}, f^{l,t})`` of the text to the author signature
  (signature first, text second, as in section 2.4), where the signature
  ``f^{l,a} = (1/|D_a|) sum_{k in D_a} f^{l,k}`` is the mean feature of the author's books;
  NaN means an empty common support.

When the MLP's first author and the KL-nearest author differ, :func:`method_disagreement`
says which method the measured length curve (:mod:`punctstyle.attribution.length`) trusts
at the text's length. How many marks a text needs is :mod:`punctstyle.attribution.length`;
the bundle's files are :mod:`punctstyle.attribution.bundle`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from punctstyle.classifiers.kl_nearest import class_signatures
from punctstyle.divergence import pairwise_kl
from punctstyle.marks import feature_column_names

if TYPE_CHECKING:  # torch is imported only when a model is trained or loaded
    from punctstyle.classifiers.mlp import TrainedMLP

Signatures = pd.DataFrame | Mapping[str, Any]


def author_signatures(
    features: Mapping[str, np.ndarray], labels: Sequence[Any], feature_names: Sequence[str]
) -> pd.DataFrame:
    """Class-mean features per author: index ``author``, the features' named columns.

    ``signature_a = (1/|D_a|) sum_{k in D_a} f^k``. ``features`` maps f1..f6 to
    (n_books, size) arrays aligned with ``labels``; columns are named by
    :func:`punctstyle.marks.feature_column_names` (``f3[" ,]`` ...).
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
    kl_features: Sequence[str],
    top: int | None,
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


def shown_authors(ranking: pd.DataFrame, top: int) -> pd.DataFrame:
    """The rows of ``ranking`` (every author, :func:`rank_authors` with ``top=None``) to show:
    the first ``top`` ranks, plus the KL-nearest author of each ``kl_<feature>`` column when it
    ranks lower (``argmin_a d_KL``; NaN never wins), so that both methods' first authors are
    always in the table. Rows stay in rank order and keep their ranks."""
    keep = np.arange(len(ranking)) < top
    for column in (c for c in ranking.columns if c.startswith("kl_")):
        divergences = ranking[column].to_numpy(dtype=np.float64)
        if np.isfinite(divergences).any():
            keep[int(np.nanargmin(np.where(np.isfinite(divergences), divergences, np.nan)))] = True
    return ranking[keep]


# --------------------------------------------------------------------------- MLP versus KL


def nearest_measured_length(grid: Sequence[int], n_marks: int) -> int:
    """The grid length closest to ``n_marks`` (``argmin_n |n - n_marks|``; the shorter on a tie)."""
    lengths = sorted(int(n) for n in grid)
    if not lengths:
        raise ValueError("no measured length")
    return min(lengths, key=lambda n: (abs(n - n_marks), n))


@dataclass(frozen=True)
class Disagreement:
    """The MLP's first author differs from the KL-nearest author of one feature.

    ``measured_at``: the grid length nearest to the text's length (None when the bundle has
    no measured curve for both methods); ``mlp_accuracy``/``kl_accuracy``: the held-out
    top-1 accuracies measured there; ``trusted``: ``"mlp"``, ``"kl"``, or None (no curve, or
    equal accuracies); ``n_held_out``: how many held-out books those accuracies were measured
    on (both methods share the split; None when the curve does not say), so that the rule's
    certainty shows as counts: ``round(accuracy * n_held_out)`` books right of ``n_held_out``.
    """

    mlp_author: str
    kl_author: str
    kl_feature: str
    n_marks: int
    measured_at: int | None
    mlp_accuracy: float | None
    kl_accuracy: float | None
    trusted: str | None
    n_held_out: int | None = None

    def right_of(self, accuracy: float | None) -> int | None:
        """Held-out books attributed right: ``round(accuracy * n_held_out)``."""
        if accuracy is None or self.n_held_out is None:
            return None
        return int(round(accuracy * self.n_held_out))

    def message(self) -> str:
        """One sentence for the table output."""
        head = (
            f"the MLP ({self.mlp_author}) and KL {self.kl_feature} ({self.kl_author}) disagree"
        )
        if self.measured_at is None or self.mlp_accuracy is None or self.kl_accuracy is None:
            return f"{head}; this model has no measured accuracy curve of both methods to choose between them"
        measured = (
            f"at {self.measured_at} marks (the measured length nearest to {self.n_marks}) held-out "
            f"accuracy is MLP {self.mlp_accuracy:.3f}, KL {self.kl_feature} {self.kl_accuracy:.3f}"
        )
        if self.n_held_out is not None:
            measured += (
                f" ({self.right_of(self.mlp_accuracy)} and {self.right_of(self.kl_accuracy)} of "
                f"{self.n_held_out} held-out books right)"
            )
        if self.trusted is None:
            return f"{head}; {measured}: neither is more reliable"
        name = "the MLP" if self.trusted == "mlp" else f"KL {self.kl_feature}"
        return f"{head}; {measured}: trust {name}"

    def as_json(self) -> dict[str, Any]:
        return {
            "mlp_author": self.mlp_author,
            "kl_author": self.kl_author,
            "kl_feature": self.kl_feature,
            "measured_at": self.measured_at,
            "mlp_accuracy": self.mlp_accuracy,
            "kl_accuracy": self.kl_accuracy,
            "trusted": self.trusted,
            "n_held_out": self.n_held_out,
            "mlp_right": self.right_of(self.mlp_accuracy),
            "kl_right": self.right_of(self.kl_accuracy),
            "message": self.message(),
        }


def _accuracy_at(curve: Sequence[Mapping[str, Any]], n_marks: int) -> float | None:
    for row in curve:
        if int(row["n_marks"]) == n_marks:
            value = row.get("accuracy")
            return None if value is None else float(value)
    return None


def method_disagreement(
    ranking: pd.DataFrame,
    kl_feature: str,
    n_marks: int,
    mlp_curve: Sequence[Mapping[str, Any]],
    kl_curve: Sequence[Mapping[str, Any]],
) -> Disagreement | None:
    """None when the MLP's most probable author is also the KL-nearest one, else who to trust.

    ``ranking``: every author (:func:`rank_authors` with ``top=None``); the KL-nearest author
    is ``argmin_a d_KL(signature_a, text)`` of ``kl_<kl_feature>`` (NaN never wins).
    ``mlp_curve``/``kl_curve``: measured accuracy per length (records ``n_marks``,
    ``accuracy``, ``n_test`` of the KL curve, as in ``threshold.json``). The trusted method is the one with the higher
    accuracy at :func:`nearest_measured_length` among the lengths both curves measured.
    """
    column = f"kl_{kl_feature}"
    probabilities = ranking["probability"]
    divergences = ranking[column] if column in ranking else pd.Series(np.nan, index=ranking.index)
    if probabilities.isna().all() or divergences.isna().all():
        return None
    mlp_author = str(ranking.loc[probabilities.idxmax(), "author"])
    kl_author = str(ranking.loc[divergences.idxmin(), "author"])
    if mlp_author == kl_author:
        return None
    grid = sorted({int(r["n_marks"]) for r in mlp_curve} & {int(r["n_marks"]) for r in kl_curve})
    measured_at = nearest_measured_length(grid, n_marks) if grid else None
    mlp_acc = None if measured_at is None else _accuracy_at(mlp_curve, measured_at)
    kl_acc = None if measured_at is None else _accuracy_at(kl_curve, measured_at)
    trusted = None
    if mlp_acc is not None and kl_acc is not None and mlp_acc != kl_acc:
        trusted = "mlp" if mlp_acc > kl_acc else "kl"
    n_held_out = None if measured_at is None else _held_out_at(kl_curve, measured_at)
    return Disagreement(mlp_author, kl_author, kl_feature, n_marks, measured_at, mlp_acc, kl_acc, trusted, n_held_out)


# --------------------------------------------------------------------------- every method (issue 36)


NEAR_CHANCE_SHARE = 0.1
"""A value ``v`` (a top probability, or a held-out accuracy) is near chance for ``n`` authors when
it lies less than a tenth of the way from chance to certainty: ``(v - 1/n) / (1 - 1/n) < 0.1``
(36 authors: below 0.125; 3 authors: below 0.4)."""


def near_chance_bound(n_authors: int) -> float:
    """``1/n + 0.1 (1 - 1/n)``: values below it are near chance (:data:`NEAR_CHANCE_SHARE`)."""
    chance = 1.0 / max(1, n_authors)
    return chance + NEAR_CHANCE_SHARE * (1.0 - chance)


def method_family(method: str) -> str:
    """``punctuation`` (``mlp``, ``kl_<feature>``), ``words`` (``delta_words``) or ``both`` (``delta_both``)."""
    return {"delta_words": "words", "delta_both": "both"}.get(method, "punctuation")


@dataclass(frozen=True)
class MethodAnswer:
    """One method's answer for a text: its first ``authors`` (best first) with their ``scores``
    (``kind``: ``probability``, larger first, or ``distance``, smaller first), and the held-out
    ``accuracy`` measured at ``measured_at`` marks (the length of the method's curve nearest to the
    text's; None without a curve) on ``n_test`` held-out books (None when the curve does not say);
    ``curve_mean``: the mean held-out accuracy over every length of the curve (None without one),
    which decides a tie at the text's length (:func:`trusted_answer`)."""

    method: str
    kind: str
    authors: tuple[str, ...]
    scores: tuple[float, ...]
    measured_at: int | None
    accuracy: float | None
    n_test: int | None
    curve_mean: float | None = None

    @property
    def family(self) -> str:
        return method_family(self.method)

    @property
    def right(self) -> int | None:
        """Held-out books attributed right: ``round(accuracy * n_test)``."""
        if self.accuracy is None or self.n_test is None:
            return None
        return int(round(self.accuracy * self.n_test))

    def as_json(self) -> dict[str, Any]:
        return {
            "method": self.method, "family": self.family, "kind": self.kind, "first_author": self.authors[0],
            "authors": [{"author": a, self.kind: s if np.isfinite(s) else None}
                        for a, s in zip(self.authors, self.scores, strict=True)],
            "measured_at": self.measured_at, "accuracy": self.accuracy, "n_test": self.n_test, "right": self.right,
            "curve_mean": self.curve_mean,
        }


def method_answer(method: str, kind: str, scores: pd.Series, curve: Sequence[Mapping[str, Any]], n_marks: int,
                  top: int, n_test: int | None = None) -> MethodAnswer:
    """The ``top`` authors of ``scores`` (index: authors; ``probability`` larger first,
    ``distance`` smaller first, NaN last, stable) and the curve's accuracy at
    :func:`nearest_measured_length` (``n_test``: the curve's own, else the one given), and the
    curve's mean accuracy over its lengths (:func:`curve_mean`)."""
    values = pd.to_numeric(scores, errors="coerce").astype(np.float64)
    ordered = values.sort_values(ascending=kind != "probability", na_position="last", kind="stable").head(top)
    grid = [int(r["n_marks"]) for r in curve]
    measured_at = nearest_measured_length(grid, n_marks) if grid else None
    accuracy = None if measured_at is None else _accuracy_at(curve, measured_at)
    held_out = None if measured_at is None else _held_out_at(curve, measured_at)
    return MethodAnswer(method, kind, tuple(str(a) for a in ordered.index), tuple(float(v) for v in ordered),
                        measured_at, accuracy, held_out if held_out is not None else n_test, curve_mean(curve))


def curve_mean(curve: Sequence[Mapping[str, Any]]) -> float | None:
    """``(1/K) sum_k accuracy(n_k)`` over the curve's ``K`` lengths with a measured accuracy; None
    without one."""
    values = [float(r["accuracy"]) for r in curve if r.get("accuracy") is not None]
    return float(np.mean(values)) if values else None


def trusted_answer(answers: Sequence[MethodAnswer]) -> MethodAnswer | None:
    """The answer with the highest held-out accuracy at the text's length (``argmax`` over the
    methods with a measured curve); on a tie the one with the higher :attr:`MethodAnswer.curve_mean`
    (the accuracy at one length is a multiple of ``1/n_test``, so ties are common, and the whole
    curve is more held-out evidence than the list's order), then the earlier in ``answers``,
    punctuation first; None when no method has one."""
    measured = [a for a in answers if a.accuracy is not None]
    if not measured:
        return None
    return max(measured, key=lambda a: (a.accuracy, -np.inf if a.curve_mean is None else a.curve_mean,
                                        -answers.index(a)))


def near_chance_note(answer: MethodAnswer, n_authors: int, top_probability: float | None) -> str | None:
    """Why the answer is near chance, or None: for the MLP its top probability below
    :func:`near_chance_bound`; for a distance method (no probability to judge one text by) its
    held-out accuracy at this length below the same bound."""
    bound = near_chance_bound(n_authors)
    chance = 1.0 / max(1, n_authors)
    if answer.kind == "probability" and top_probability is not None and top_probability < bound:
        return (f"near chance: the top probability {top_probability:.3f} is below {bound:.3f}, a tenth of the way "
                f"from chance ({chance:.3f} for {n_authors} authors) to certainty; do not rely on this answer")
    if answer.kind == "distance" and answer.accuracy is not None and answer.accuracy < bound:
        return (f"near chance: {answer.method}'s held-out accuracy at {answer.measured_at} marks is "
                f"{answer.accuracy:.3f}, below {bound:.3f}, a tenth of the way from chance ({chance:.3f}) to certainty")
    return None


def _held_out_at(curve: Sequence[Mapping[str, Any]], n_marks: int) -> int | None:
    """``n_test`` of the curve's record at ``n_marks`` (the held-out books), None when absent."""
    for row in curve:
        if int(row["n_marks"]) == n_marks and isinstance(row.get("n_test"), int):
            return int(row["n_test"])
    return None


__all__ = [
    "Disagreement",
    "MethodAnswer",
    "NEAR_CHANCE_SHARE",
    "near_chance_bound",
    "method_answer",
    "method_family",
    "near_chance_note",
    "trusted_answer",
    "curve_mean",
    "author_signatures",
    "method_disagreement",
    "nearest_measured_length",
    "rank_authors",
    "shown_authors",
    "signature_divergences",
    "signature_matrix",
]
