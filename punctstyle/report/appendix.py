"""Rule appendix_table's body: the paper's author (or genre) list, ordered by f3 consistency."""

from __future__ import annotations

from typing import Any

import pandas as pd

from punctstyle.io import atomic_open, write_text_atomic
from punctstyle.classifiers import display_name
from punctstyle.analyses.consistency_files import read_consistency_table
from punctstyle.analyses.recognition_files import read_per_class
from punctstyle.report.recognition_tables import appendix_table, full_corpus_per_class
from punctstyle.rule_names import TASK_NOUNS
from punctstyle.report.render import html_page, html_paragraph, html_table, markdown_table


def appendix_job(task: str, params: Any, inputs: Any, output: Any, log: Any) -> None:
    """Rule appendix_table: the author (or genre) list of the appendix, ordered by the consistency of
    ``params.feature``, with the full-corpus test size and accuracy of ``params.method`` on
    ``params.feature_set`` (when the task is ``params.recognised``) over ``params.seeds``: CSV,
    Markdown and the report's HTML."""
    feature = params.feature
    noun = TASK_NOUNS.get(task, task)

    consistency = read_consistency_table(inputs.consistency)
    n_classes = len(consistency)
    notes = []
    if n_classes < 2:
        per_class = full_corpus_per_class(
            pd.DataFrame(), n_classes, method=params.method, feature_set=params.feature_set
        )
        notes.append(
            f"The corpus has {n_classes} {noun}(s) with enough documents, and recognition needs at least 2: "
            "test size and accuracy are NA (see analysis/skipped_analyses.csv)."
        )
    elif params.recognised:
        per_class_rows = read_per_class(inputs.per_class)
        per_class = full_corpus_per_class(
            per_class_rows, n_classes, method=params.method, feature_set=params.feature_set, n_seeds=len(params.seeds)
        )
        if per_class.empty:
            notes.append(
                f"No per-class results for the {params.method} experiment with feature set "
                f"'{params.feature_set}' on all {n_classes} {noun}s (is 'all' in recognition.class_sizes and "
                f"'{params.feature_set}' in recognition.methods.{params.method}?): test size and accuracy are NA."
            )
    else:
        per_class = full_corpus_per_class(
            pd.DataFrame(), n_classes, method=params.method, feature_set=params.feature_set
        )
        notes.append(f"No {noun} recognition (recognition.genre_recognition is false): test size and accuracy are NA.")
    table = appendix_table(consistency, per_class, task, feature)

    formats = {"test_size": "auto", f"consistency_{feature}": ".4g", "accuracy": ".2f"}
    with atomic_open(output.csv, "w", newline="") as handle:
        table.to_csv(handle, index=False, na_rep="NA")
    heading = f"{noun.capitalize()}s ordered by {feature} consistency"
    explanation = (
        f"Columns: rank; {noun}; documents in the corpus; test-set size and accuracy of the "
        f"{display_name(params.method)} ({params.method}) "
        f"experiment with feature set '{params.feature_set}' on every {noun} (mean over {len(params.seeds)} seeds; "
        f"NA: never in a test set); {feature} consistency (mean KL divergence over ordered pairs of the {noun}'s "
        "documents; smaller is more consistent, NA with a single document)."
    )
    write_text_atomic(
        output.markdown,
        f"**{heading}**\n\n{explanation}\n\n" + markdown_table(table, formats) + "".join(f"\n{n}\n" for n in notes),
    )
    parts = [html_paragraph(explanation), *[html_paragraph(n, note=True) for n in notes], html_table(table, formats)]
    write_text_atomic(output.html, html_page(heading, parts))
    for note in notes:
        log.warning("%s", note)
    log.info("%s table: %d rows, %d with an accuracy", task, len(table), int(table["accuracy"].notna().sum()))
