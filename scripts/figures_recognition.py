"""Rule figures_recognition: accuracy versus number of classes, and Tables 2-4 as HTML."""

import pandas as pd

from punctstyle.classifiers import display_name
from punctstyle.io import write_text_atomic
from punctstyle.logs import configure_logging
from punctstyle.report.plots import plot_accuracy_vs_classes, save_figure
from punctstyle.report.plots.base import placeholder_figure
from punctstyle.report.render import html_page, html_paragraph
from punctstyle.report.recognition_tables import accuracy_long, to_html

log = configure_logging(snakemake.log[0])
task = snakemake.wildcards.task
output = snakemake.output
summary = pd.read_csv(snakemake.input.summary)

long = accuracy_long(summary) if len(summary) else pd.DataFrame()
empty = f"No {task} recognition results: the corpus has fewer than 2 {task} classes."
if long.empty:
    figure = placeholder_figure(empty)
else:
    long["method"] = long["method"].map(display_name)
    figure = plot_accuracy_vs_classes(long, label=f"{task}s", title=f"{task} recognition: test accuracy (mean and "
                                      "standard deviation over seeds) and baseline")
save_figure(figure, output.accuracy, output.accuracy_pdf)

title = {"author": "Author recognition (Tables 2 and 3)", "genre": "Genre recognition (Table 4)"}.get(task, task)
note = ("Accuracy on the test set, mean ± standard deviation over the seeds (no ± when the seeds agree "
        "or there is one seed); baseline: expected accuracy of assigning each test document to a class "
        "at random with the class's share of the training set (section 2.5).")
tables = to_html(summary) if len(summary) else html_paragraph(empty)
write_text_atomic(output.tables, html_page(title, [tables, html_paragraph(note, note=True)]))
log.info("%s recognition: %d accuracy points", task, len(long))
