"""Rule figures_verification's body: the PAN measures against text length (figure) and their
HTML table, from rule verification's summary."""

from __future__ import annotations

import os
from typing import Any

import pandas as pd

from punctstyle.io import write_text_atomic
from punctstyle.report.plots.base import placeholder_figure, save_figure
from punctstyle.report.plots.verification import plot_verification
from punctstyle.report.render import html_page, html_table


def verification_table_html(summary: pd.DataFrame) -> str:
    """The HTML page of the summary: PAN measures per family and length, mean and sd over seeds."""
    table = html_table(summary, {"n_seeds": "auto", "n_cases": "auto"},
                       caption="PAN measures per feature family and text length, mean and sd over seeds")
    return html_page("Verification (General Imposters)", [table])


def figures_verification_job(*, summary: str | os.PathLike[str], output: Any, log: Any) -> None:
    """Rule figures_verification: read the ``summary`` CSV (lengths kept as text: ``whole`` or a
    number of marks), write the figure (``output.figure``, ``output.figure_pdf``; a placeholder
    without a case) and the HTML table ``output.table``."""
    frame = pd.read_csv(summary, dtype={"length": str})
    figure = plot_verification(frame) if len(frame) else placeholder_figure("No verification case")
    save_figure(figure, output.figure, output.figure_pdf)
    write_text_atomic(output.table, verification_table_html(frame))
    log.info("verification figure and table: %d family-length rows", len(frame))
