"""Rule figures_corpus: documents per author, f1 histograms and the data-set table (section 2)."""

import pandas as pd

from punctstyle.corpus.tables import feature_matrix
from punctstyle.corpus.summary import read_corpus_summary
from punctstyle.corpus.exclusions import read_exclusions
from punctstyle.io import write_text_atomic
from punctstyle.logs import configure_logging
from punctstyle.report.plots import plot_documents_per_author, plot_f1_histograms, save_figure
from punctstyle.report.render import html_page, html_table
from punctstyle.report.tables import corpus_tables

log = configure_logging(snakemake.log[0])
output = snakemake.output
table = pd.read_parquet(snakemake.input.f1)
summary = read_corpus_summary(snakemake.input.summary)
exclusions = read_exclusions(snakemake.input.exclusions)

save_figure(plot_documents_per_author(table["author"]), output.documents_per_author, output.documents_per_author_pdf)
save_figure(plot_f1_histograms(feature_matrix(table, "f1")), output.f1_histograms, output.f1_histograms_pdf)

counts, reasons, genres = corpus_tables(summary, exclusions, table)
write_text_atomic(
    output.table,
    html_page(
        "Data set (section 2.1)",
        [
            html_table(counts, formats="auto", caption="Corpus"),
            html_table(reasons, caption="Books excluded, by stage and reason"),
            html_table(genres, caption="Genres (book counts in the corpus)"),
        ],
    ),
)
log.info("corpus figures: %d books by %d authors", len(table), table["author"].nunique())
