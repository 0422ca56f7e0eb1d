"""Rule figures_recognition: accuracy versus number of classes, and Tables 2-4 as HTML."""

from pathlib import Path

import pandas as pd

from punctstyle.io import write_text_atomic
from punctstyle.logs import configure_logging
from punctstyle.plots import plot_accuracy_vs_classes, save_figure
from punctstyle.plots.base import placeholder_figure
from punctstyle.render import html_page, markdown_to_html
from punctstyle.report_tables import METHOD_NAMES, accuracy_long

log = configure_logging(snakemake.log[0])
task = snakemake.wildcards.task
output = snakemake.output
summary = pd.read_csv(snakemake.input.summary)
markdown = Path(snakemake.input.markdown).read_text(encoding="utf-8")

long = accuracy_long(summary) if len(summary) else pd.DataFrame()
if long.empty:
    figure = placeholder_figure(f"No {task} recognition results: {markdown.strip() or 'the summary is empty'}")
else:
    long["method"] = long["method"].map(lambda m: METHOD_NAMES.get(m, m))
    figure = plot_accuracy_vs_classes(long, label=f"{task}s", title=f"{task} recognition: test accuracy (mean and "
                                      "standard deviation over seeds) and baseline")
save_figure(figure, output.accuracy, output.accuracy_pdf)

title = {"author": "Author recognition (Tables 2 and 3)", "genre": "Genre recognition (Table 4)"}.get(task, task)
note = ("Accuracy on the test set, mean ± standard deviation over the seeds (no ± when the seeds agree "
        "or there is one seed); baseline: expected accuracy of assigning each test document to a class "
        "at random with the class's share of the training set (section 2.5).")
write_text_atomic(output.tables, html_page(title, [markdown_to_html(markdown), f'<p class="note">{note}</p>']))
log.info("%s recognition: %d accuracy points", task, len(long))
