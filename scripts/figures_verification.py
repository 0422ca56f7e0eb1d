"""Rule figures_verification: the PAN measures against text length (figure) and the table."""

import pandas as pd

from punctstyle.logs import configure_logging
from punctstyle.report.plots.base import placeholder_figure, save_figure
from punctstyle.report.plots.verification import plot_verification
from punctstyle.report.render import html_page, html_table
from punctstyle.io import write_text_atomic

log = configure_logging(snakemake.log[0])
output = snakemake.output
summary = pd.read_csv(snakemake.input.summary, dtype={"length": str})
figure = plot_verification(summary) if len(summary) else placeholder_figure("No verification case")
save_figure(figure, output.figure, output.figure_pdf)
write_text_atomic(
    output.table,
    html_page(
        "Verification (General Imposters)",
        [html_table(summary, {"n_seeds": "auto", "n_cases": "auto"},
                    caption="PAN measures per feature family and text length, mean and sd over seeds")],
    ),
)
