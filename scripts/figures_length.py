"""Rule figures_length_curve: accuracy against the excerpt length (figure and report table)."""

import pandas as pd

from punctstyle.classifiers import display_name
from punctstyle.io import write_text_atomic
from punctstyle.beyond.length_summary import feature_text, summary_markdown
from punctstyle.logs import configure_logging
from punctstyle.report.plots.base import placeholder_figure, save_figure
from punctstyle.report.plots.length import plot_length_curve
from punctstyle.report.render import html_page, html_paragraph, html_preformatted, html_table

log = configure_logging(snakemake.log[0])
inputs, output = snakemake.input, snakemake.output
summary = pd.read_csv(inputs.summary, dtype={"length": str})
title = "Author recognition on excerpts of n consecutive marks: punctuation and words"
if summary.empty:
    reason = "No length-curve rows: the corpus has fewer than two authors"
    figure, parts = placeholder_figure(reason), [html_paragraph(reason)]
else:
    figure = plot_length_curve(summary, display_name, title)
    table = summary.assign(
        method=summary["method"].map(display_name), feature_set=summary["feature_set"].map(feature_text)
    )
    parts = [
        html_table(
            table,
            {"n_classes": "auto", "n_seeds": "auto", "median_words": "auto"},
            caption="Test accuracy over seeds per length (whole = whole documents)",
        ),
        html_preformatted(summary_markdown(summary, display_name)),
    ]
save_figure(figure, output.figure, output.figure_pdf)
write_text_atomic(output.table, html_page("Accuracy against the length of the punctuation sequence", parts))
