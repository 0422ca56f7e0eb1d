"""Author recognition from raw punctuation sequences, on the rows of Tables 2-3.

One *row* is (task, number of classes, seed): the class sample and the 80/20 split are those
of the recognition grid for that row (:func:`sequence_row_split` calls
:func:`punctstyle.experiments.splits.row_split` on the labels of the corpus table, in its order, exactly as
:func:`punctstyle.analyses.paper.recognition_run` does), the classifier a sequence classifier
(:data:`punctstyle.classifiers.SEQUENCE_CLASSIFIERS`) trained on the training books' (marks,
gaps) sequences. :func:`comparison_table` puts its accuracy next to the feature MLP's on the same
rows (mean and sample standard deviation over seeds).

The row file (``analysis/beyond/sequence/{task}_{classes}_classes_seed{seed}.csv``) is written
and read here: the columns of the recognition results (:data:`RESULT_COLUMNS`) plus
``train_seconds``, ``predict_seconds`` and ``device``; a row that could not run is an empty file
with these columns.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from punctstyle.analyses.paper import labelled_rows, task_column
from punctstyle.experiments.driver import Documents, Estimator, Split, grid_splits, matrix_views, run_experiments
from punctstyle.io import atomic_open
from punctstyle.experiments.metrics import accuracy, baseline_accuracy
from punctstyle.analyses.recognition import RESULT_COLUMNS
from punctstyle.experiments.splits import effective_class_size
from punctstyle.book.excerpts import SHORT_RULES, cut_excerpt

SEQUENCE_FEATURE_SET: str = "sequence"
"""The ``feature_set`` value of the sequence classifier's rows (its input is the raw sequence)."""
ROW_COLUMNS: list[str] = [*RESULT_COLUMNS, "train_seconds", "predict_seconds", "device"]
"""Columns of a row file."""
COMPARISON_COLUMNS: list[str] = [
    "task",
    "n_classes",
    "method",
    "feature_set",
    "n_seeds",
    "n_train",
    "n_test",
    "accuracy",
    "accuracy_std",
    "baseline",
    "train_seconds",
]
"""Columns of the comparison table's CSV (one row per class size, method and feature set)."""


@dataclass(frozen=True)
class SequenceRowData:
    """The labelled books of a task (corpus order) with their labels and texts (``documents``, the
    experiment driver's rows), the row's class count and its split."""

    book_ids: np.ndarray
    documents: Documents
    n_classes: int
    split: Split

    @property
    def labels(self) -> np.ndarray:
        """The books' labels."""
        return self.documents.labels


def sequence_row_split(
    table: pd.DataFrame, task: str, class_size: int | str, seed: int, test_fraction: float
) -> SequenceRowData:
    """The row's books, labels and split: :func:`punctstyle.experiments.driver.grid_splits` on the labelled rows of
    the corpus table ``table`` (``book_id`` and the task's label column, and ``source_id`` when its
    documents are excerpts: a text's excerpts stay on one side, :func:`punctstyle.corpus.tables.text_groups`),
    in the table's order, with ``n_classes = min(class_size, number of classes)``: the sample and
    split of Tables 2-3."""
    rows = labelled_rows(table, task)
    documents = Documents.from_table(rows, rows[task_column(task)].to_numpy(dtype=object))
    n_available = documents.n_available
    if n_available < 2:
        raise ValueError(f"the corpus has {n_available} {task} class(es) with a label, at least 2 are needed")
    n_classes = effective_class_size(class_size, n_available)
    (split,) = grid_splits(documents, task=task, class_sizes=[n_classes], seeds=[seed], test_fraction=test_fraction)
    return SequenceRowData(rows["book_id"].to_numpy(dtype=np.int64), documents, n_classes, split)


def fit_and_score(
    data: SequenceRowData,
    documents: Sequence[tuple[np.ndarray, np.ndarray]],
    *,
    task: str,
    seed: int,
    method: str,
    make: Callable[[], Any],
    device: str = "cpu",
) -> tuple[Any, pd.DataFrame]:
    """Train ``make()`` on the row's training documents, predict its test documents (the
    experiment driver, :func:`punctstyle.experiments.driver.run_experiments`, on the view
    :data:`SEQUENCE_FEATURE_SET` of the raw sequences): the fitted model and one row of
    :data:`ROW_COLUMNS` (wall seconds of ``fit`` and of ``predict``). ``documents[i]`` is the
    (marks, gaps) of book ``data.book_ids[i]``; only the row's books are read. The row's ``task``
    and ``seed`` are its split's (``task`` and ``seed`` must agree)."""
    if (task, seed) != (data.split.task, data.split.seed):
        raise ValueError(f"row ({task}, seed {seed}) is not the split's ({data.split.task}, seed {data.split.seed})")
    estimator = Estimator(method, lambda _seed, _view: make(), (SEQUENCE_FEATURE_SET,))
    views = matrix_views({SEQUENCE_FEATURE_SET: documents})
    (record,) = run_experiments(data.documents, [data.split], views, [estimator])
    row = {**record.record(), "device": device}
    return record.scored.model, pd.DataFrame([row], columns=ROW_COLUMNS)


def sequence_row(
    data: SequenceRowData,
    documents: Sequence[tuple[np.ndarray, np.ndarray]],
    *,
    task: str,
    seed: int,
    method: str,
    make: Callable[[], Any],
    device: str = "cpu",
) -> pd.DataFrame:
    """:func:`fit_and_score` without the model: the row of :data:`ROW_COLUMNS`."""
    return fit_and_score(data, documents, task=task, seed=seed, method=method, make=make, device=device)[1]


LENGTH_COLUMNS: list[str] = [
    "task",
    "n_classes",
    "seed",
    "method",
    "feature_set",
    "length",
    "n_test",
    "n_short_test",
    "accuracy",
    "baseline",
]
"""Columns of a row's length file (the sequence classifier on test excerpts of n marks)."""


def excerpt_accuracies(
    model: Any,
    data: SequenceRowData,
    documents: Sequence[tuple[np.ndarray, np.ndarray]],
    *,
    task: str,
    seed: int,
    method: str,
    lengths: Sequence[int],
    short_documents: str = "whole",
) -> pd.DataFrame:
    """Accuracy of a fitted sequence classifier on the row's test books cut to ``n`` marks, for
    each ``n`` of ``lengths``: the excerpts of the length curve
    (:func:`punctstyle.book.excerpts.cut_excerpt` with the row's seed and the book id), so the
    sequence classifier is scored on the same test excerpts as the feature classifiers there.

    A book shorter than ``n`` is used whole and counted in ``n_short_test``
    (``short_documents="whole"``) or left out (``"exclude"``). One row of
    :data:`LENGTH_COLUMNS` per length (``length`` is ``str(n)``)."""

    if short_documents not in SHORT_RULES:
        raise ValueError(f"unknown short-document rule {short_documents!r}: expected one of {SHORT_RULES}")
    split, y = data.split, data.labels
    baseline = baseline_accuracy(y[split.train_index], y[split.test_index])
    rows = []
    for n in lengths:
        excerpts, labels, n_short = [], [], 0
        for i in split.test_index:
            marks, gaps = documents[i]
            excerpt = cut_excerpt(marks, gaps, int(n), seed=seed, doc_id=int(data.book_ids[i]))
            if not excerpt.complete:
                n_short += 1
                if short_documents == "exclude":
                    continue
            excerpts.append((excerpt.marks, excerpt.gaps))
            labels.append(y[i])
        predicted = np.asarray(model.predict(excerpts), dtype=object) if excerpts else np.array([], dtype=object)
        rows.append(
            {
                "task": task,
                "n_classes": data.n_classes,
                "seed": seed,
                "method": method,
                "feature_set": SEQUENCE_FEATURE_SET,
                "length": str(int(n)),
                "n_test": len(excerpts),
                "n_short_test": n_short,
                "accuracy": accuracy(np.asarray(labels, dtype=object), predicted) if excerpts else float("nan"),
                "baseline": baseline,
            }
        )
    return pd.DataFrame(rows, columns=LENGTH_COLUMNS)


def write_length_rows(path: str | os.PathLike[str], rows: pd.DataFrame | None) -> None:
    """Write a row's length file (``None``: none ran; an empty file with the columns)."""
    _write_rows(path, rows, LENGTH_COLUMNS)


def read_length_rows(paths: Iterable[str | os.PathLike[str]]) -> pd.DataFrame:
    """The rows of several length files, concatenated (empty files skipped)."""
    return _read_rows(paths, LENGTH_COLUMNS, "sequence length", dtype={"length": str})


def length_summary(rows: pd.DataFrame) -> pd.DataFrame:
    """Per (task, n_classes, method, length): mean and sample sd of the accuracy over seeds, the
    number of seeds, the mean test size, short test books and baseline; lengths in increasing order."""
    columns = [
        "task",
        "n_classes",
        "method",
        "length",
        "n_seeds",
        "n_test",
        "n_short_test",
        "accuracy",
        "accuracy_std",
        "baseline",
    ]
    if rows.empty:
        return pd.DataFrame(columns=columns)
    keys = ["task", "n_classes", "method", "length"]
    summary = (
        rows.groupby(keys, sort=False)
        .agg(
            n_seeds=("seed", "nunique"),
            n_test=("n_test", "mean"),
            n_short_test=("n_short_test", "mean"),
            accuracy=("accuracy", "mean"),
            accuracy_std=("accuracy", "std"),
            baseline=("baseline", "mean"),
        )
        .reset_index()
    )
    summary["order"] = summary["length"].astype(int)
    return (
        summary.sort_values(["task", "n_classes", "method", "order"])
        .drop(columns="order")[columns]
        .reset_index(drop=True)
    )


def _write_rows(path: str | os.PathLike[str], frame: pd.DataFrame | None, columns: list[str]) -> None:
    """Write a row file atomically in ``columns`` (``None``: an empty file with the columns)."""
    frame = frame if frame is not None else pd.DataFrame(columns=columns)
    with atomic_open(path, "w", newline="") as handle:
        frame[columns].to_csv(handle, index=False)


def _read_rows(paths: Iterable[str | os.PathLike[str]], columns: list[str], kind: str, **read: Any) -> pd.DataFrame:
    """Row files with exactly ``columns``, concatenated (empty files skipped); a file with other
    columns is refused in one line naming it and its ``kind``."""
    frames = []
    for path in paths:
        frame = pd.read_csv(path, **read)
        if list(frame.columns) != columns:
            raise ValueError(f"{path}: not a {kind} file (expected columns {columns})")
        if len(frame):
            frames.append(frame)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=columns)


def write_sequence_row(path: str | os.PathLike[str], row: pd.DataFrame | None) -> None:
    """Write a row file (``None``: the row did not run; an empty file with the columns)."""
    _write_rows(path, row, ROW_COLUMNS)


def read_sequence_rows(paths: Iterable[str | os.PathLike[str]]) -> pd.DataFrame:
    """The rows of several row files, concatenated (empty files skipped)."""
    return _read_rows(paths, ROW_COLUMNS, "sequence row")


def comparison_table(
    sequence_rows: pd.DataFrame, recognition_results: pd.DataFrame, compare_method: str = "mlp"
) -> pd.DataFrame:
    """Mean and sample standard deviation over seeds of the sequence classifier's accuracy and of
    ``compare_method``'s (per feature set) on the same (task, n_classes, seed) rows.

    Recognition rows whose (task, n_classes, seed) has no sequence row are left out, so both
    sides average over the same splits (``n_seeds`` says over how many). Columns:
    :data:`COMPARISON_COLUMNS`; ``train_seconds`` is the mean training time (sequence rows only).
    """
    keys = ["task", "n_classes", "seed"]
    seq = sequence_rows.drop_duplicates(keys + ["method"])
    other = recognition_results[recognition_results["method"] == compare_method]
    other = other.drop_duplicates(keys + ["method", "feature_set"]).merge(seq[keys].drop_duplicates(), on=keys)
    both = pd.concat(
        [seq.assign(train_seconds=seq["train_seconds"].astype(float)), other.assign(train_seconds=np.nan)],
        ignore_index=True,
    )
    if both.empty:
        return pd.DataFrame(columns=COMPARISON_COLUMNS)
    both["n_classes"] = both["n_classes"].astype(np.int64)
    grouped = both.groupby(["task", "n_classes", "method", "feature_set"], sort=False)
    table = grouped.agg(
        n_seeds=("seed", "nunique"),
        n_train=("n_train", "mean"),
        n_test=("n_test", "mean"),
        accuracy=("accuracy", "mean"),
        accuracy_std=("accuracy", "std"),
        baseline=("baseline", "mean"),
        train_seconds=("train_seconds", "mean"),
    ).reset_index()
    order = {name: i for i, name in enumerate(dict.fromkeys(both["method"]))}
    table = table.sort_values(
        ["task", "n_classes", "method"], key=lambda s: s.map(order) if s.name == "method" else s, kind="stable"
    )
    return table[COMPARISON_COLUMNS].reset_index(drop=True)
