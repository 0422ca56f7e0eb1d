"""Rule figures_temporal's body: author dates, mean f1 and punctuation rate by decade, authors over
publication years, and the temporal analysis' report table (section 5)."""

from __future__ import annotations

from typing import Any

import json
from pathlib import Path

import pandas as pd

from punctstyle.io import write_text_atomic
from punctstyle.report.plots import (
    plot_author_dates,
    plot_author_f1_over_time,
    plot_f1_by_decade,
    plot_f1_by_decade_panels,
    plot_rate_by_decade,
    save_figure,
)
from punctstyle.report.plots.base import placeholder_figure
from punctstyle.report.render import html_page, html_paragraph, html_table
from punctstyle.report.tables import temporal_tables
from punctstyle.analyses.temporal_tables import author_dates_note


def temporal_figures(options: dict[str, Any], inputs: Any, output: Any, log: Any) -> None:
    """The section's figures and table from the temporal rule's files (``options``: the config's
    ``temporal`` block)."""
    window = tuple(options["window"])
    start = options["decade_start"]
    corpus = pd.read_parquet(inputs.f1)
    f1_table = pd.read_csv(inputs.f1_by_decade)
    rate = pd.read_csv(inputs.rate)
    over_time = pd.read_csv(inputs.over_time)
    summary = json.loads(Path(inputs.summary).read_text(encoding="utf-8"))
    nothing = f"No document has an author middle year in {window[0]}-{window[1]}"

    save_figure(plot_author_dates(corpus, start=window[0], end=window[1]), output.author_dates, output.author_dates_pdf)
    save_decade_figures(f1_table, rate, start, summary["punctuation_rate_source"], output, nothing)

    status = summary["over_time"]
    if "over_time" in output.keys():
        if status["drawn"] and len(over_time):
            found = set(over_time["author"])
            figure = plot_author_f1_over_time(over_time, authors=[a for a in status["authors"] if a in found])
        else:
            figure = placeholder_figure(f"Per-author figure skipped: {status['reason']}")
        save_figure(figure, output.over_time, output.over_time_pdf)

    counts, rate_table, f1_means = temporal_tables(summary, rate, f1_table)
    over_time_text = (
        "Per-author analysis over publication years: " + status["reason"]
        if status["drawn"]
        else "Per-author figure over publication years skipped: " + status["reason"] + "."
    )
    parts = temporal_parts(summary, over_time_text, counts, rate_table, f1_means)
    write_text_atomic(output.table, html_page("Temporal analysis (section 5)", parts))
    log.info("temporal figures: %d decades; %s", rate["decade"].nunique(), over_time_text)


def save_decade_figures(
    f1_table: pd.DataFrame, rate: pd.DataFrame, start: int, rate_source: str, output: Any, nothing: str
) -> None:
    """The figures by decade (f1, f1 in panels, the punctuation rate from ``rate_source``) from
    the decade ``start`` on; placeholders saying ``nothing`` when no decade is left."""
    shown = f1_table[f1_table["decade"] >= start]
    if shown.empty:
        message = f"{nothing} from the decade {start} on (temporal.decade_start)"
        for png, pdf in (
            (output.f1_by_decade, output.f1_by_decade_pdf),
            (output.f1_by_decade_panels, output.f1_by_decade_panels_pdf),
            (output.rate, output.rate_pdf),
        ):
            save_figure(placeholder_figure(message), png, pdf)
        return
    save_figure(
        plot_f1_by_decade(f1_table, start=start, title="mean f1 by decade of the author middle year"),
        output.f1_by_decade,
        output.f1_by_decade_pdf,
    )
    save_figure(
        plot_f1_by_decade_panels(f1_table, start=start), output.f1_by_decade_panels, output.f1_by_decade_panels_pdf
    )
    save_figure(
        plot_rate_by_decade(rate, start=start, source=rate_source),
        output.rate,
        output.rate_pdf,
    )


def temporal_parts(
    summary: dict[str, Any], over_time_text: str, counts: pd.DataFrame, rate_table: pd.DataFrame, f1_means: pd.DataFrame
) -> list[str]:
    """The section page's paragraphs (the author dates' note, ``over_time_text``) and tables
    (authors and documents with dates, the punctuation rate and mean f1 by decade)."""
    return [
        html_paragraph("Author dates figure: documents of " + author_dates_note(summary["author_dates"]) + "."),
        html_paragraph(over_time_text),
        html_table(counts, caption="Authors and documents with dates"),
        html_table(
            rate_table,
            caption="Punctuation rate (mean words per punctuation mark) by decade of middle year, "
            f"with 95 % confidence interval (rate from {summary['punctuation_rate_source']})",
        ),
        html_table(f1_means, caption="Mean punctuation-mark frequency f1 by decade of middle year (documents: n)"),
    ]
