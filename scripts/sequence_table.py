"""Rule sequence_table: the classifier on raw sequences against the feature MLP on the same rows
(mean and standard deviation over seeds): CSV, Markdown and the report's HTML table."""

from punctstyle.io import atomic_open
from punctstyle.logs import configure_logging
from punctstyle.recognition_files import read_results
from punctstyle.render import html_page, html_paragraph, html_table, markdown_table
from punctstyle.sequence_recognition import comparison_display, comparison_table, read_sequence_rows

log = configure_logging(snakemake.log[0])
output = snakemake.output
table = comparison_table(read_sequence_rows(snakemake.input.rows), read_results(snakemake.input.recognition))
with atomic_open(output.csv, "w", newline="") as handle:
    table.to_csv(handle, index=False)
shown = comparison_display(table)
title = "Author recognition: sequence CNN on raw punctuation sequences vs. the feature MLP (same splits)"
note = "accuracy: mean ± sample sd over seeds; training s: mean wall seconds of one sequence-CNN training"
if shown.empty:
    note = "no row could run (the corpus has fewer than two authors)"
with atomic_open(output.markdown, "w") as handle:
    handle.write(f"**{title}**\n\n" + (markdown_table(shown) if len(shown) else "") + f"\n{note}\n")
with atomic_open(output.table, "w") as handle:
    handle.write(html_page(title, [html_table(shown) if len(shown) else "", html_paragraph(note, note=True)]))
log.info("\n%s", table.to_string())
