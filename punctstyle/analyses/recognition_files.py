"""The files a recognition row passes to the tables, figures and appendix rules: each written
and read here, side by side (one owner per file format).

Per (task, class size, seed) row, under ``analysis/recognition/{task}/{classes}_classes/``:

* ``seed{seed}_results.csv``: one row per experiment (:data:`punctstyle.analyses.recognition.RESULT_COLUMNS`);
* ``seed{seed}_per_class.csv``: per test class: ``class``, ``n_test``, ``accuracy`` keyed by the
  experiment (:data:`punctstyle.report.recognition_tables.PER_CLASS_COLUMNS`);
* ``seed{seed}_confusion.parquet``: long confusion counts ``true``, ``predicted``, ``count``
  keyed by the experiment;
* ``seed{seed}_words.csv``: the word baselines of the row, one row per experiment
  (:data:`punctstyle.analyses.recognition.WORD_RESULT_COLUMNS`); empty when they are off for the task.

A row that could not run (fewer than two classes, or a size that caps to the "all" row)
writes the same files empty, with their columns.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

import pandas as pd

from punctstyle.io import atomic_open, write_parquet_atomic
from punctstyle.analyses.recognition import RESULT_COLUMNS, WORD_RESULT_COLUMNS

PER_CLASS_FILE_COLUMNS: tuple[str, ...] = ("class", "n_test", "accuracy")
CONFUSION_COLUMNS: tuple[str, ...] = ("true", "predicted", "count")

Path = str | os.PathLike[str]


def _write_csv(path: Path, frame: pd.DataFrame) -> None:
    with atomic_open(path, "w", newline="") as handle:
        frame.to_csv(handle, index=False)


def write_row_files(
    results_path: Path,
    per_class_path: Path,
    confusion_path: Path,
    results: pd.DataFrame | None,
    per_class: pd.DataFrame | None,
    confusion: pd.DataFrame | None,
) -> None:
    """The three files of one row (``None``: the row did not run; empty files with their columns)."""
    _write_csv(results_path, results if results is not None else pd.DataFrame(columns=RESULT_COLUMNS))
    _write_csv(per_class_path, per_class if per_class is not None else pd.DataFrame(columns=PER_CLASS_FILE_COLUMNS))
    empty_confusion = pd.DataFrame({name: [] for name in CONFUSION_COLUMNS})
    write_parquet_atomic(confusion if confusion is not None else empty_confusion, confusion_path)


def _read_rows(paths: Iterable[Path], columns: Iterable[str]) -> pd.DataFrame:
    frames = [frame for frame in (pd.read_csv(path) for path in paths) if len(frame)]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=list(columns))


def read_results(paths: Iterable[Path]) -> pd.DataFrame:
    """The experiments of several rows' ``_results.csv`` files, concatenated (empty rows skipped)."""
    return _read_rows(paths, RESULT_COLUMNS)


def write_word_results(path: Path, results: pd.DataFrame | None) -> None:
    """The word baselines of one row (``None``: none ran; an empty file with the columns)."""
    _write_csv(path, results if results is not None else pd.DataFrame(columns=WORD_RESULT_COLUMNS))


def read_word_results(paths: Iterable[Path]) -> pd.DataFrame:
    """The word baselines of several rows' ``_words.csv`` files, concatenated (empty rows skipped)."""
    return _read_rows(paths, WORD_RESULT_COLUMNS)


def read_per_class(paths: Iterable[Path]) -> pd.DataFrame:
    """The per-class accuracies of several rows' ``_per_class.csv`` files, concatenated."""
    return _read_rows(paths, PER_CLASS_FILE_COLUMNS)
