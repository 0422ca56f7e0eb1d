"""The length curve's summary over seeds, and its Markdown table.

(Split from the former length_curve.py.)"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd

from punctstyle.training.length_curve import TRAINING_MODES, length_sort_key
from punctstyle.training.length_features import WHOLE
from punctstyle.featuresets import feature_set_label

# ----------------------------------------------------------------------------- summary

SUMMARY_COLUMNS: list[str] = [
    "n_classes",
    "method",
    "feature_set",
    "training",
    "length",
    "accuracy_mean",
    "accuracy_sd",
    "n_seeds",
    "baseline",
    "n_short_test",
    "median_words",
]


def median_words(excerpts: pd.DataFrame) -> pd.Series:
    """Median words of ``n`` marks, per length label: the median of ``n_words`` over the
    complete test excerpts of every row (whole documents for ``"whole"``)."""
    test = excerpts[(excerpts["role"] == "test") & excerpts["complete"].astype(bool)]
    return test.groupby(test["length"].astype(str))["n_words"].median()


def summarise(results: pd.DataFrame, excerpts: pd.DataFrame) -> pd.DataFrame:
    """Mean and sample sd (ddof 1; NaN for one seed) of the accuracy over seeds per (class size,
    method, feature set, training, length); the mean chance level (``baseline``) and short test
    documents; the median words of the length (:func:`median_words`). Sorted by class size,
    method, feature set (``words<k>`` by ``k``), training mode (:data:`TRAINING_MODES` order) and
    length.

    Two requested class sizes capped to the same number of authors are the same rows (same
    :func:`punctstyle.experiments.splits.row_rng`): they count once."""
    if results.empty:
        return pd.DataFrame(columns=SUMMARY_COLUMNS)
    keys = ["n_classes", "method", "feature_set", "training", "length"]
    frame = results.assign(length=results["length"].astype(str)).drop_duplicates([*keys, "seed"])
    summary = (
        frame.groupby(keys, sort=False)
        .agg(
            accuracy_mean=("accuracy", "mean"),
            accuracy_sd=("accuracy", "std"),
            n_seeds=("seed", "nunique"),
            baseline=("baseline", "mean"),
            n_short_test=("n_short_test", "mean"),
        )
        .reset_index()
    )
    words = median_words(excerpts.drop_duplicates(["n_classes", "seed", "length", "book_id", "role"]))
    summary["median_words"] = summary["length"].map(words).astype(float)
    mode = summary["training"].map({m: i for i, m in enumerate(TRAINING_MODES)})
    sets = summary["feature_set"].astype(str)
    summary = summary.assign(
        _mode=mode,
        _order=summary["length"].map(length_sort_key),
        _set=sets.str.replace(r"words[0-9]+$", "words", regex=True),  # words100 < words500 < words1000
        _k=sets.str.extract(r"words([0-9]+)$", expand=False).astype(float).fillna(0.0),
    ).sort_values(["n_classes", "method", "_set", "_k", "_mode", "_order"], kind="stable")
    return summary.drop(columns=["_mode", "_order", "_set", "_k"]).reset_index(drop=True)[SUMMARY_COLUMNS]


def summary_markdown(summary: pd.DataFrame, display: Callable[[str], str] = str) -> str:
    """One Markdown table per class size: a line per (method, feature set, training), a column
    per length (accuracy ``mean ± sd`` over seeds), then the chance level and median words."""
    if summary.empty:
        return "No length-curve rows (fewer than two authors in the corpus).\n"
    parts = []
    for n_classes, block in summary.groupby("n_classes", sort=True):
        labels = sorted(block["length"].unique(), key=length_sort_key)
        header = (
            "| method | features | training | "
            + " | ".join("whole document" if label == WHOLE else f"{label} marks" for label in labels)
            + " |"
        )
        lines = [f"### {n_classes} authors", "", header, "|" + "---|" * (len(labels) + 3)]
        for (method, feature_set, mode), line in block.groupby(["method", "feature_set", "training"], sort=False):
            by_length = line.set_index("length")
            cells = [_cell(by_length, label) for label in labels]
            lines.append(f"| {display(method)} | {feature_text(feature_set)} | {mode} | " + " | ".join(cells) + " |")
        chance = block.groupby("length")["baseline"].mean()
        words = block.groupby("length")["median_words"].first()
        lines.append("| chance level | | | " + " | ".join(f"{chance[label]:.3f}" for label in labels) + " |")
        lines.append(
            "| median words | | | "
            + " | ".join("" if pd.isna(words[label]) else f"{words[label]:,.0f}" for label in labels)
            + " |"
        )
        parts.append("\n".join(lines))
    note = (
        "Training on excerpts has no whole-document column: at that length it is the whole-document "
        "experiment (the training-on-whole line). Chance level: the proportional random classifier."
    )
    return "\n\n".join(parts) + "\n\n" + note + "\n"


def feature_text(feature_set: str) -> str:
    """How tables show a feature set: ``words100`` -> ``100 words``, ``all+words1000`` ->
    ``all + 1000 words``, ``f1+f5`` -> ``{f1, f5}`` (:func:`punctstyle.featuresets.feature_set_label`);
    a name it does not know as given."""
    try:
        return feature_set_label(feature_set)
    except ValueError:
        return feature_set


def _cell(by_length: pd.DataFrame, label: str) -> str:
    if label not in by_length.index or pd.isna(by_length.at[label, "accuracy_mean"]):
        return ""
    mean, sd = by_length.at[label, "accuracy_mean"], by_length.at[label, "accuracy_sd"]
    return f"{mean:.3f}" if pd.isna(sd) else f"{mean:.3f} ± {sd:.3f}"
