"""What the report shows of the recognition experiments: the paper's Tables 2-4, the
accuracy-versus-classes figure's data, and the appendix tables (classes by consistency).

Pure functions (tables in, tables or strings out); rendering is :mod:`punctstyle.report.render`,
display names of the classifiers come from :mod:`punctstyle.classifiers`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from punctstyle.classifiers import display_name
from punctstyle.featuresets import feature_set_label
from punctstyle.report.render import html_paragraph, html_table, markdown_table

EXPERIMENT_KEYS: list[str] = ["task", "n_classes", "seed", "method", "feature_set"]
PER_CLASS_COLUMNS: tuple[str, ...] = ("n_classes", "seed", "method", "feature_set", "class", "n_test", "accuracy")


def summarise(results: pd.DataFrame) -> pd.DataFrame:
    """Mean and sample standard deviation over seeds, one row per (task, method, n_classes).

    Experiments listed twice (two requested class sizes capped to the same number) count
    once. Columns: ``task``, ``method``, ``n_classes``, ``n_seeds``, ``n_train``, ``n_test``,
    one ``accuracy[<feature set>]`` per feature set, ``baseline``, then the ``*_std`` columns
    (NaN with a single seed), as in the paper's Tables 2-4.
    """
    results = results.drop_duplicates(EXPERIMENT_KEYS)
    keys = ["task", "method", "n_classes"]
    sizes = results.drop_duplicates(keys + ["seed"])
    size_stats = sizes.groupby(keys, sort=True).agg(
        n_seeds=("seed", "nunique"),
        n_train=("n_train", "mean"),
        n_test=("n_test", "mean"),
        baseline=("baseline", "mean"),
        n_train_std=("n_train", "std"),
        n_test_std=("n_test", "std"),
        baseline_std=("baseline", "std"),
    )
    order = list(dict.fromkeys(results["feature_set"]))
    grouped = results.groupby(keys + ["feature_set"], sort=True)["accuracy"]
    mean = grouped.mean().unstack("feature_set").reindex(columns=order)
    std = grouped.std().unstack("feature_set").reindex(columns=order)
    mean.columns = [f"accuracy[{c}]" for c in mean.columns]
    std.columns = [f"accuracy_std[{c}]" for c in std.columns]
    table = size_stats.join(mean).join(std).reset_index()
    front = keys + ["n_seeds", "n_train", "n_test"] + list(mean.columns) + ["baseline"]
    return table[front + ["n_train_std", "n_test_std"] + list(std.columns) + ["baseline_std"]]


def mean_std(mean: Any, std: Any, fmt: str) -> str:
    """``"mean ± std"`` with format ``fmt``; no ``±`` when the spread is nil or undefined, ``""`` for no mean."""
    if mean is None or (isinstance(mean, float) and math.isnan(mean)):
        return ""
    text = format(mean, fmt)
    # a spread below round-off (identical values over seeds) is no spread
    if std is not None and not math.isnan(std) and std > 1e-12 * max(1.0, abs(mean)):
        text += " ± " + format(std, fmt)
    return text


def _class_header(task: str) -> str:
    return {"author": "No. authors", "genre": "No. genres", "time_slot": "No. time slots",
            "gender": "No. genders"}.get(task, "No. classes")


def paper_tables(summary: pd.DataFrame, *, digits: int = 2, baseline_digits: int = 2) -> list[tuple[str, pd.DataFrame]]:
    """(title, table) per (task, method), laid out like the paper's Tables 2-4.

    Columns: number of classes, training size, testing size, the accuracy per feature set
    (``mean ± std`` over seeds, ``digits`` decimals) and the baseline (``baseline_digits``
    significant digits).
    """
    tables = []
    for (task, method), table in summary.groupby(["task", "method"], sort=False):
        sets = [c[len("accuracy[") : -1] for c in table.columns if c.startswith("accuracy[") and table[c].notna().any()]
        rows = table.sort_values("n_classes")
        frame = pd.DataFrame({_class_header(task): rows["n_classes"].astype(np.int64).to_numpy()})
        for header, column, fmt in (("Training size", "n_train", ".0f"), ("Testing size", "n_test", ".0f")):
            frame[header] = [mean_std(m, s, fmt) for m, s in zip(rows[column], rows[f"{column}_std"], strict=True)]
        for name in sets:
            pairs = zip(rows[f"accuracy[{name}]"], rows[f"accuracy_std[{name}]"], strict=True)
            frame[feature_set_label(name)] = [mean_std(m, s, f".{digits}f") for m, s in pairs]
        pairs = zip(rows["baseline"], rows["baseline_std"], strict=True)
        frame["baseline"] = [mean_std(m, s, f"#.{baseline_digits}g") for m, s in pairs]
        tables.append((f"{task} recognition, {display_name(method)}", frame))
    return tables


def to_markdown(summary: pd.DataFrame) -> str:
    """The paper's tables (:func:`paper_tables`) as markdown, each under a bold title."""
    return "\n".join(f"**{title}**\n\n" + markdown_table(frame) for title, frame in paper_tables(summary))


def to_html(summary: pd.DataFrame) -> str:
    """The paper's tables (:func:`paper_tables`) as HTML tables, each with its title as caption."""
    return "\n".join(html_table(frame, caption=title) for title, frame in paper_tables(summary))


def vocabulary_note(results: pd.DataFrame) -> str:
    """How many word experiments have a vocabulary the pool bound proves exact
    (``vocabulary_proven``, :func:`punctstyle.corpus.words.select_vocabulary`)."""
    if results.empty or "vocabulary_proven" not in results.columns:
        return ""
    proven = int(pd.to_numeric(results["vocabulary_proven"], errors="coerce").fillna(0).astype(bool).sum())
    return (
        f"Vocabulary: the k most frequent words of each row's training documents; the pool bound proves "
        f"it equal to the choice over every word in {proven} of {len(results)} experiments."
    )


def word_tables_markdown(summary: pd.DataFrame | None, results: pd.DataFrame, task: str) -> str:
    """The word baselines as markdown: one table per method (:func:`paper_tables`: columns
    ``k words`` and ``<set> + k words``), then :func:`vocabulary_note`."""
    if summary is None or summary.empty:
        return f"No {task} word baselines: the corpus has fewer than 2 classes, or they are switched off.\n"
    tables = "\n".join(
        f"**{title}, word baselines**\n\n" + markdown_table(frame) for title, frame in paper_tables(summary)
    )
    return tables + "\n" + vocabulary_note(results) + "\n"


def word_tables_html(summary: pd.DataFrame | None, results: pd.DataFrame, task: str) -> str:
    """The word baselines as HTML tables (as :func:`word_tables_markdown`)."""
    if summary is None or summary.empty:
        return html_paragraph(
            f"No {task} word baselines: the corpus has fewer than 2 classes, or they are switched off."
        )
    tables = [html_table(frame, caption=f"{title}, word baselines") for title, frame in paper_tables(summary)]
    return "\n".join(tables + [html_paragraph(vocabulary_note(results), note=True)])


def accuracy_long(summary: pd.DataFrame) -> pd.DataFrame:
    """Long accuracy table from a recognition summary (:func:`summarise`).

    One row per (method, n_classes, feature set with a value): ``method``, ``n_classes``,
    ``feature_set``, ``accuracy_mean`` (mean over seeds), ``accuracy_std`` (sample standard
    deviation over seeds, 0 when undefined, i.e. a single seed), ``baseline_mean``.
    """
    columns = ["method", "n_classes", "feature_set", "accuracy_mean", "accuracy_std", "baseline_mean"]
    sets = [c[len("accuracy[") : -1] for c in summary.columns if c.startswith("accuracy[")]
    parts = []
    for name in sets:
        std_column = f"accuracy_std[{name}]"
        std = summary[std_column] if std_column in summary.columns else pd.Series(np.nan, index=summary.index)
        part = pd.DataFrame(
            {
                "method": summary["method"],
                "n_classes": summary["n_classes"].astype(np.int64),
                "feature_set": name,
                "accuracy_mean": pd.to_numeric(summary[f"accuracy[{name}]"], errors="coerce"),
                "accuracy_std": pd.to_numeric(std, errors="coerce").fillna(0.0),
                "baseline_mean": pd.to_numeric(summary["baseline"], errors="coerce"),
            }
        )
        parts.append(part[part["accuracy_mean"].notna()])
    if not parts:
        return pd.DataFrame(columns=columns)
    return pd.concat(parts, ignore_index=True).loc[:, columns]


def full_corpus_per_class(
    per_class: pd.DataFrame, n_classes: int, *, method: str, feature_set: str, n_seeds: int | None = None
) -> pd.DataFrame:
    """Test-set size and accuracy per class in the experiment that uses every class.

    ``per_class``: the per-class rows of every seed (long format: ``n_classes``, ``seed``,
    ``method``, ``feature_set``, ``class``, ``n_test``, ``accuracy``, ...). Keeps
    ``method``/``feature_set`` (the paper: the neural network with all features) and
    ``n_classes`` (every class). Per class: ``test_size`` = mean over the ``n_seeds`` seeds
    of its number of test documents (0 in a seed where it had none; default: the seeds that
    appear in the kept rows) and ``accuracy`` = mean over the seeds in which it was tested.
    Columns ``class``, ``test_size``, ``accuracy``, ``n_seeds_tested``.
    """
    missing = [c for c in PER_CLASS_COLUMNS if c not in per_class.columns]
    empty = pd.DataFrame(
        {
            "class": pd.Series(dtype=object),
            "test_size": pd.Series(dtype=float),
            "accuracy": pd.Series(dtype=float),
            "n_seeds_tested": pd.Series(dtype=np.int64),
        }
    )
    if missing or per_class.empty:
        return empty
    per_class = per_class.drop_duplicates(["n_classes", "seed", "method", "feature_set", "class"])
    keep = (
        (pd.to_numeric(per_class["n_classes"], errors="coerce") == n_classes)
        & (per_class["method"] == method)
        & (per_class["feature_set"].astype(str) == feature_set)
        & (pd.to_numeric(per_class["n_test"], errors="coerce") > 0)
    )
    rows = per_class.loc[keep]
    if rows.empty:
        return empty
    seeds = n_seeds if n_seeds is not None else rows["seed"].nunique()
    grouped = rows.groupby("class", sort=True)
    out = pd.DataFrame(
        {
            "test_size": grouped["n_test"].sum().astype(np.float64) / max(seeds, 1),
            "accuracy": grouped["accuracy"].mean().astype(np.float64),
            "n_seeds_tested": grouped["seed"].nunique().astype(np.int64),
        }
    )
    return out.rename_axis("class").reset_index()


def appendix_table(consistency: pd.DataFrame, per_class: pd.DataFrame, task: str, feature: str) -> pd.DataFrame:
    """The paper's appendix table: classes ordered by consistency, most consistent first.

    ``consistency``: a ``{task}_{feature}.csv`` table (``class``, ``n_docs``, ``consistency``);
    ``per_class``: :func:`full_corpus_per_class`. Columns ``rank`` (1..), ``<task>``
    (the class), ``documents``, ``test_size``, ``consistency_<feature>``, ``accuracy``;
    classes without a consistency (one document) come last, and ``test_size``/``accuracy``
    are missing (NaN) for classes never in a test set.
    """
    table = consistency.loc[:, ["class", "n_docs", "consistency"]].copy()
    table["consistency"] = pd.to_numeric(table["consistency"], errors="coerce")
    table = table.sort_values("class", key=lambda s: s.astype(str), kind="mergesort")
    table = table.sort_values("consistency", kind="mergesort", na_position="last").reset_index(drop=True)
    merged = table.merge(per_class.loc[:, ["class", "test_size", "accuracy"]], on="class", how="left")
    return pd.DataFrame(
        {
            "rank": np.arange(1, len(merged) + 1, dtype=np.int64),
            task: merged["class"].astype(str),
            "documents": merged["n_docs"].astype(np.int64),
            "test_size": merged["test_size"].astype(np.float64),
            f"consistency_{feature}": merged["consistency"].astype(np.float64),
            "accuracy": merged["accuracy"].astype(np.float64),
        }
    )
