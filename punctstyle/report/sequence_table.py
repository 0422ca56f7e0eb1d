"""Rule sequence_table's body: the classifier on raw sequences against the feature MLP on the same rows
(mean and standard deviation over seeds): CSV, Markdown and the report's HTML table."""

from __future__ import annotations

from typing import Any

from punctstyle.io import atomic_open
from punctstyle.analyses.recognition_files import read_results
from punctstyle.report.render import html_page, html_paragraph, html_table, markdown_table
from punctstyle.beyond.sequence_recognition import (
    comparison_display,
    comparison_table,
    length_display,
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
