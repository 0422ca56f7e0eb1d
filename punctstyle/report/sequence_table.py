"""Rule sequence_table's body: the classifier on raw sequences against the feature MLP on the same rows
(mean and standard deviation over seeds): CSV, Markdown and the report's HTML table."""

from __future__ import annotations

from typing import Any

import pandas as pd

from punctstyle.classifiers import display_name
from punctstyle.featuresets import feature_set_label
from punctstyle.io import atomic_open
from punctstyle.analyses.recognition_files import read_results
from punctstyle.report.recognition_tables import mean_std
from punctstyle.report.render import html_page, html_paragraph, html_table, markdown_table
from punctstyle.training.sequence_recognition import (
    SEQUENCE_FEATURE_SET,
    comparison_table,
    length_summary,
    read_length_rows,
    read_sequence_rows,
)


def sequence_table_job(inputs: Any, output: Any, log: Any) -> None:
    """Rule sequence_table: the sequence network's rows (``inputs.rows``, ``inputs.lengths``) against the
    feature MLP of the same rows (``inputs.recognition``): CSV, Markdown, the excerpt lengths' CSV
    and the report's HTML table."""
    table = comparison_table(read_sequence_rows(inputs.rows), read_results(inputs.recognition))
    with atomic_open(output.csv, "w", newline="") as handle:
        table.to_csv(handle, index=False)
    shown = comparison_display(table)
    title = "Author recognition: sequence CNN on raw punctuation sequences vs. the feature MLP (same splits)"
    note = "accuracy: mean ± sample sd over seeds; training s: mean wall seconds of one sequence-CNN training"
    if shown.empty:
        note = "no row could run (the corpus has fewer than two authors)"
    # the same classifiers scored on the test books cut to the length curve's excerpts
    lengths = length_summary(read_length_rows(inputs.lengths))
    with atomic_open(output.lengths, "w", newline="") as handle:
        lengths.to_csv(handle, index=False)
    by_length = length_display(lengths)
    length_title = "The sequence CNN on test excerpts of n marks (the length curve's excerpts; trained on whole books)"
    length_note = "compare with the length curve's table (analysis/length/author_summary.csv): same excerpts"
    with atomic_open(output.markdown, "w") as handle:
        handle.write(f"**{title}**\n\n" + (markdown_table(shown) if len(shown) else "") + f"\n{note}\n")
        if len(by_length):
            handle.write(f"\n**{length_title}**\n\n" + markdown_table(by_length) + f"\n{length_note}\n")
    sections = [html_table(shown) if len(shown) else "", html_paragraph(note, note=True)]
    if len(by_length):
        sections += [html_paragraph(length_title), html_table(by_length), html_paragraph(length_note, note=True)]
    with atomic_open(output.table, "w") as handle:
        handle.write(html_page(title, sections))
    log.info("\n%s\n%s", table.to_string(), lengths.to_string())


def length_display(summary: pd.DataFrame, digits: int = 2) -> pd.DataFrame:
    """The length summary as the report shows it: one row per (task, n_classes, method), one
    ``mean ± sd`` column per length."""
    rows = []
    for (task, n_classes, method), group in summary.groupby(["task", "n_classes", "method"], sort=False):
        row: dict[str, Any] = {"task": task, "classes": int(n_classes), "method": display_name(method)}
        for item in group.itertuples(index=False):
            row[f"{item.length} marks"] = mean_std(item.accuracy, item.accuracy_std, f".{digits}f")
        row["baseline"] = f"{group['baseline'].iloc[0]:#.2g}"
        rows.append(row)
    return pd.DataFrame(rows)


def _column_label(method: str, feature_set: str) -> str:
    if feature_set == SEQUENCE_FEATURE_SET:
        return display_name(method)
    try:
        label = feature_set_label(feature_set)
    except ValueError:  # a set the feature registry does not know (e.g. word features): its name
        label = feature_set
    return f"{display_name(method)} {label}"


def comparison_display(table: pd.DataFrame, digits: int = 2) -> pd.DataFrame:
    """The comparison as the report shows it: one row per (task, n_classes); training and testing
    sizes, one ``mean ± sd`` accuracy column per classifier and feature set, the baseline, the
    number of seeds and the sequence classifier's mean training time in seconds."""
    rows = []
    for (task, n_classes), group in table.groupby(["task", "n_classes"], sort=False):
        first = group.iloc[0]
        row: dict[str, Any] = {
            "task": task,
            "classes": int(n_classes),
            "seeds": int(first["n_seeds"]),
            "training size": f"{first['n_train']:.0f}",
            "testing size": f"{first['n_test']:.0f}",
        }
        for item in group.itertuples(index=False):
            row[_column_label(item.method, item.feature_set)] = mean_std(
                item.accuracy, item.accuracy_std, f".{digits}f"
            )
        row["baseline"] = f"{first['baseline']:#.2g}"
        row["training s (sequence)"] = f"{group['train_seconds'].dropna().mean():.0f}"
        rows.append(row)
    return pd.DataFrame(rows)
