"""Rule figures_cross's body: the figures (:data:`punctstyle.report.plots.cross.CROSS_FIGURE_SPECS`)
and the report table of issue 25 (beyond the paper), from rule cross_analyses' tables."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from punctstyle.io import write_text_atomic
from punctstyle.report.plots.base import save_figure
from punctstyle.report.plots.cross import CROSS_FIGURE_SPECS, cross_figure
from punctstyle.report.render import html_page, html_paragraph, html_table


def cross_table_html(tables: Mapping[str, pd.DataFrame]) -> str:
    """The HTML page of the issue-25 tables: across groups, group sizes, translators (consistency,
    recognition and handling, mean and sd over seeds), the Weibull fits by era, their consistency
    and recognition, and the books whose word-gap hazard decreases (β < 1)."""
    decreasing = tables["gap_weibull"][tables["gap_weibull"]["beta"] < 1][["book_id", "title", "author", "p", "beta"]]
    recognition = tables["translator_recognition"].groupby(["label", "method"])["accuracy"]
    handling = tables["translator_handling"].groupby("translated_books")[["n_books", "n_authors", "accuracy"]]
    parts = [
        html_table(tables["cross_domain_summary"], caption="Across genres and forms: accuracy within one group and across groups"),
        html_table(tables["group_sizes"], caption="Pairs of groups: authors with books in both, their books"),
        html_table(tables["translator_consistency"], caption="Translated books: KL (or Delta) of pairs by what they share"),
        html_table(recognition.agg(["mean", "std", "size"]).reset_index(),
                   caption="Translated books: recognition by original author or translator (mean, sd over seeds)"),
        html_table(handling.agg(["mean", "std"]).reset_index(),
                   caption="Main analyses with the translated books kept or dropped (KL f3, every author)"),
        html_table(tables["gap_weibull_era"], caption="Word gaps and sentence lengths: (p, β) by era"),
        html_table(tables["gap_weibull_consistency"], caption="f8 consistency: share of each parameter's spread the author explains"),
        html_table(tables["gap_weibull_recognition"].groupby("input")["accuracy"].agg(["mean", "std", "size"]).reset_index(),
                   caption="Author recognition on f8 (the Weibull parameters) and on f5 (mean, sd over seeds)"),
        html_table(decreasing, caption="Books whose word-gap hazard decreases (β < 1)") if len(decreasing)
        else html_paragraph("No book has a decreasing word-gap hazard (every β >= 1)."),
    ]  # fmt: skip
    return html_page("Where punctuation beats words", parts)


def figures_cross_job(*, tables: Mapping[str, Any], output: Any, log: Any) -> None:
    """Rule figures_cross: read rule cross_analyses' tables (name -> CSV path, the rule's inputs),
    write each figure of :data:`CROSS_FIGURE_SPECS` (``output[name]``, ``output[name + "_pdf"]``) and
    the HTML table ``output.table``."""
    frames = {name: pd.read_csv(tables[name]) for name in tables.keys()}
    for name in CROSS_FIGURE_SPECS:
        save_figure(cross_figure(name, frames), output[name], output[f"{name}_pdf"])
    write_text_atomic(output.table, cross_table_html(frames))
    log.info("figures and table of issue 25 written")
