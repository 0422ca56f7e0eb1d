"""Figure jobs (punctstyle.report.figure_jobs): what the report and the end of a run say."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import pandas as pd

from punctstyle.report.figure_jobs import recognition_figures, uncomputed_rows_lines, uncomputed_rows_note


def test_a_class_size_above_the_corpus_is_named_not_dropped_silently():
    """Issue 38: the 50-author row is not run on a corpus of 36 authors (the "all" row is that
    experiment); the report and the end of the run say so."""
    note = uncomputed_rows_note("author", [10, 50, "all"], 36)
    assert note == ("No 50-author row: the corpus has 36 authors, so recognition.class_sizes 50 would sample "
                    "all of them, which is the 'all' row (36 authors).")
    assert "No 36-author and 50-author row" in uncomputed_rows_note("author", [10, 36, 50, "all"], 36)
    assert uncomputed_rows_note("author", [10, 20, "all"], 36) is None
    assert uncomputed_rows_note("author", [10, 50], 36) is None  # without "all" the 50 row is capped, and runs
    assert uncomputed_rows_note("genre", [2, 10, "all"], 1) is None
    # a task beyond the paper is named as a noun (metadata_tasks)
    assert uncomputed_rows_note("time_slot", [2, 4, "all"], 3) == (
        "No 4-time slot row: the corpus has 3 time slots, so recognition.class_sizes 4 would sample all of them, "
        "which is the 'all' row (3 time slots).")


def _summary(n_classes: list[int]) -> pd.DataFrame:
    return pd.DataFrame({"task": "author", "method": "kl", "n_classes": n_classes, "n_seeds": 1, "n_train": 10,
                         "n_test": 4, "accuracy[f3]": 0.5, "baseline": 0.2, "n_train_std": 0.0, "n_test_std": 0.0,
                         "accuracy_std[f3]": 0.0, "baseline_std": 0.0})


def test_the_recognition_page_and_the_run_end_name_the_rows_not_run(tmp_path, caplog):
    (tmp_path / "analysis/recognition").mkdir(parents=True)
    summary = tmp_path / "analysis/recognition/author_summary.csv"
    _summary([10, 36]).to_csv(summary, index=False)
    outputs = SimpleNamespace(accuracy=tmp_path / "a.png", accuracy_pdf=tmp_path / "a.pdf",
                              tables=tmp_path / "t.html")
    with caplog.at_level(logging.INFO):
        recognition_figures("author", SimpleNamespace(summary=summary), outputs, logging.getLogger("test"),
                            [10, 50, "all"])
    assert "No 50-author row: the corpus has 36 authors" in outputs.tables.read_text()
    assert "No 50-author row" in caplog.text
    config = {"outdir": str(tmp_path), "recognition": {"class_sizes": [10, 50, "all"]}}
    assert uncomputed_rows_lines(config) == [f"recognition: {uncomputed_rows_note('author', [10, 50, 'all'], 36)}"]
    assert uncomputed_rows_lines({**config, "recognition": {"class_sizes": [10, "all"]}}) == []
