"""Rule figures_documents: punctuation-sequence images, f1/f5 bar charts and f1 scatter plots."""

import pandas as pd

from punctstyle.corpus.sequences import document_sequences
from punctstyle.corpus.tables import feature_matrix, first_excerpt_ids, first_excerpts
from punctstyle.io import InputError
from punctstyle.logs import configure_logging
from punctstyle.report.plots import (
    midpoint_window,
    plot_f1_bars,
    plot_f1_scatter,
    plot_f5_bars,
    plot_punctuation_sequence,
    save_figure,
)
from punctstyle.report.plots.base import placeholder_figure
from punctstyle.report.tables import (
    choose_sequence_books,
    document_choice,
    sequence_grid_shape,
    write_document_choice,
)

log = configure_logging(snakemake.log[0])
params = snakemake.params
output = snakemake.output
f1 = pd.read_parquet(snakemake.input.f1)
f5 = pd.read_parquet(snakemake.input.f5)

if params.sequence_books is None:
    # with excerpts, the first excerpt of each text: the two books of an author are two texts
    book_ids = choose_sequence_books(first_excerpts(f1))
    log.info("sequence books (two each of the three authors with most books): %s", book_ids)
else:  # book ids of the selection (with excerpts: each text's first excerpt)
    book_ids = first_excerpt_ids(f1, params.sequence_books)
try:
    choice = document_choice(f1, book_ids)
except KeyError as exc:
    raise InputError(
        f"config figures.sequence_books: book {exc.args[0]} is not in the corpus "
        f"{snakemake.input.f1} (see corpus/exclusions.csv)"
    ) from None
write_document_choice(output.books, choice)
books = choice["books"]

sequences = document_sequences(snakemake.input.sequences, f1, [book["book_id"] for book in books])
f1_rows = dict(zip(f1["book_id"].astype(int), feature_matrix(f1, "f1")))
f5_rows = dict(zip(f5["book_id"].astype(int), feature_matrix(f5, "f5")))
length = params.sequence_length
rows, cols = sequence_grid_shape(length)
missing = (f"no book for this slot: the corpus has {len(books)} books to draw "
           f"(two books each of three authors with at least two books are needed)")

for i, (png, pdf) in enumerate(zip(output.sequence, output.sequence_pdf)):
    if i >= len(books):
        save_figure(placeholder_figure(missing), png, pdf)
        continue
    book = books[i]
    marks, _ = sequences[i]
    window = midpoint_window(marks, length)
    title = f"{book['label']}\n{window.size} marks from the midpoint of {marks.size}"
    save_figure(plot_punctuation_sequence(window, rows, cols, title=title), png, pdf)

for i, (png, pdf, png5, pdf5) in enumerate(zip(output.f1_bars, output.f1_bars_pdf, output.f5_bars, output.f5_bars_pdf)):
    if i >= len(books):
        save_figure(placeholder_figure(missing), png, pdf)
        save_figure(placeholder_figure(missing), png5, pdf5)
        continue
    book = books[i]
    save_figure(plot_f1_bars(f1_rows[book["book_id"]], title=book["label"]), png, pdf)
    save_figure(plot_f5_bars(f5_rows[book["book_id"]], title=book["label"]), png5, pdf5)

for i, (png, pdf) in enumerate(zip(output.scatter, output.scatter_pdf)):
    if i >= len(choice["pairs"]):
        save_figure(placeholder_figure("no pair of books for this slot: " + missing), png, pdf)
        continue
    pair = choice["pairs"][i]
    a, b = books[pair["first"]], books[pair["second"]]
    figure = plot_f1_scatter(f1_rows[a["book_id"]], f1_rows[b["book_id"]], label_x=a["label"], label_y=b["label"],
                             title=pair["relation"])
    save_figure(figure, png, pdf)
log.info("drew %d books and %d pairs", len(books), len(choice["pairs"]))
