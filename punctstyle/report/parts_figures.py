"""The figures and report table of the parts of a book against the whole (rule figures_parts;
the analysis: :mod:`punctstyle.descriptive.parts`): the parts' KL distributions, their
closeness by size and the summary table."""

from __future__ import annotations

from typing import Any

import pandas as pd

from punctstyle.descriptive.parts import PART_FEATURES
from punctstyle.io import read_json_object, write_text_atomic
from punctstyle.report.plots.base import placeholder_figure, save_figure
from punctstyle.report.plots.parts import plot_part_distributions, plot_parts_by_size
from punctstyle.report.render import html_page, html_paragraph, html_table


def parts_figures(inputs: Any, output: Any) -> None:
    """Rule figures_parts: the parts' KL distributions, closeness by size and their table."""
    record = read_json_object(inputs.info)
    rows, summary = pd.read_csv(inputs.parts), pd.read_csv(inputs.summary)
    empty = f"No parts: {record['reason'] or 'every book is shorter than p x beyond.parts.min_part_marks'}"
    if rows.empty:
        distributions, by_size = placeholder_figure(empty), placeholder_figure(empty)
    else:
        distributions = plot_part_distributions(
            rows, PART_FEATURES, "KL divergence of a part of a book to three references"
        )
        by_size = plot_parts_by_size(summary, "Parts closer to their own book or author than to any other author")
    save_figure(distributions, output.distributions, output.distributions_pdf)
    save_figure(by_size, output.by_size, output.by_size_pdf)
    table = summary.drop(columns=["n_parts_total"]) if len(summary) else summary
    parts = (
        [html_paragraph(empty)]
        if summary.empty
        else [
            html_table(table, {"n_parts": "auto", "n_books": "auto", "n_skipped": "auto", "median_part_marks": "auto"})
        ]
    )
    write_text_atomic(output.table, html_page("Is a part representative of the whole", parts))


def parts_figures_job(inputs: Any, output: Any, log: Any) -> None:
    """Rule figures_parts (:func:`parts_figures`), logged."""
    parts_figures(inputs, output)
    log.info("figures_parts: done")
