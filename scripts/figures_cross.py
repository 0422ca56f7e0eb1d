"""Rule figures_cross: the figures and the report table of issue 25 (beyond the paper)."""

import pandas as pd

from punctstyle.io import write_text_atomic
from punctstyle.logs import configure_logging
from punctstyle.report.plots.base import placeholder_figure, save_figure
from punctstyle.report.plots.cross import plot_cross_domain, plot_gap_fit, plot_translators, plot_weibull_plane
from punctstyle.report.render import html_page, html_paragraph, html_table

log = configure_logging(snakemake.log[0])
inputs, output = snakemake.input, snakemake.output
tables = {name: pd.read_csv(inputs[name]) for name in inputs.keys()}


def figure(frame, draw, title, empty):
    return draw(frame, title) if len(frame) else placeholder_figure(empty, title)


save_figure(
    figure(tables["cross_domain_summary"], plot_cross_domain, "Author recognition within one group and across groups",
           "No pair of groups has enough authors with books in both (cross.genres.min_authors)"),
    output.cross_domain, output.cross_domain_pdf,
)  # fmt: skip
save_figure(
    figure(tables["gap_weibull_examples"], plot_gap_fit, "Discrete Weibull fits of the word gaps",
           "No book has two distinct gap lengths"),
    output.gap_weibull_fit, output.gap_weibull_fit_pdf,
)  # fmt: skip
save_figure(
    figure(tables["gap_weibull"], plot_weibull_plane, "Word gaps: (p, β) by author", "No book to fit"),
    output.gap_weibull_plane, output.gap_weibull_plane_pdf,
)  # fmt: skip
save_figure(
    figure(tables["translator_recognition"], plot_translators, "Translated books: original author or translator",
           "Too few translated books with two translators or two original authors (cross.translators.min_books)"),
    output.translators, output.translators_pdf,
)  # fmt: skip
decreasing = tables["gap_weibull"][tables["gap_weibull"]["beta"] < 1][["book_id", "title", "author", "p", "beta"]]
parts = [
    html_table(tables["cross_domain_summary"], caption="Across genres and forms: accuracy within one group and across groups"),
    html_table(tables["group_sizes"], caption="Pairs of groups: authors with books in both, their books"),
    html_table(tables["translator_consistency"], caption="Translated books: KL (or Delta) of pairs by what they share"),
    html_table(
        tables["translator_recognition"].groupby(["label", "method"])["accuracy"].agg(["mean", "std", "size"]).reset_index(),
        caption="Translated books: recognition by original author or translator (mean, sd over seeds)",
    ),
    html_table(
        tables["translator_handling"].groupby("translated_books")[["n_books", "n_authors", "accuracy"]].agg(["mean", "std"]).reset_index(),
        caption="Main analyses with the translated books kept or dropped (KL f3, every author)",
    ),
    html_table(tables["gap_weibull_era"], caption="Word gaps and sentence lengths: (p, β) by era"),
    html_table(tables["gap_weibull_consistency"], caption="f8 consistency: share of each parameter's spread the author explains"),
    html_table(
        tables["gap_weibull_recognition"].groupby("input")["accuracy"].agg(["mean", "std", "size"]).reset_index(),
        caption="Author recognition on f8 (the Weibull parameters) and on f5 (mean, sd over seeds)",
    ),
    html_table(decreasing, caption="Books whose word-gap hazard decreases (β < 1)")
    if len(decreasing)
    else html_paragraph("No book has a decreasing word-gap hazard (every β >= 1)."),
]
write_text_atomic(output.table, html_page("Where punctuation beats words", parts))
log.info("figures and table of issue 25 written")
