"""Rule figures_documents' body: punctuation-sequence images, f1/f5 bar charts and f1 scatter plots
of the chosen books (sections 1-3), and the choice itself (``figures/documents/books.json``)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from punctstyle.corpus.sequences import document_sequences
from punctstyle.corpus.tables import feature_matrix, first_excerpt_ids, first_excerpts
from punctstyle.io import InputError
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


def chosen_documents(f1: pd.DataFrame, sequence_books: list[int] | None, f1_path: Any, log: Any) -> dict[str, Any]:
    """The books drawn and their pairs (:func:`document_choice`): the configured
    ``sequence_books`` (with excerpts: each text's first excerpt), or two books each of the three
    authors with most books; a configured book outside the corpus ``f1_path``: InputError."""
    if sequence_books is None:
        # with excerpts, the first excerpt of each text: the two books of an author are two texts
        book_ids = choose_sequence_books(first_excerpts(f1))
        log.info("sequence books (two each of the three authors with most books): %s", book_ids)
    else:  # book ids of the selection (with excerpts: each text's first excerpt)
        book_ids = first_excerpt_ids(f1, sequence_books)
    try:
        return document_choice(f1, book_ids)
    except KeyError as exc:
        raise InputError(
            f"config figures.sequence_books: book {exc.args[0]} is not in the corpus "
            f"{f1_path} (see corpus/exclusions.csv)"
        ) from None


def document_figures(
    sequence_books: list[int] | None, sequence_length: int, inputs: Any, output: Any, log: Any
) -> None:
    """The per-book figures (config ``figures.sequence_books``, ``figures.sequence_length``)."""
    f1 = pd.read_parquet(inputs.f1)
    f5 = pd.read_parquet(inputs.f5)

    choice = chosen_documents(f1, sequence_books, inputs.f1, log)
    write_document_choice(output.books, choice)
    books = choice["books"]

    sequences = document_sequences(inputs.sequences, f1, [book["book_id"] for book in books])
    f1_rows = dict(zip(f1["book_id"].astype(int), feature_matrix(f1, "f1")))
    f5_rows = dict(zip(f5["book_id"].astype(int), feature_matrix(f5, "f5")))
    length = sequence_length
    rows, cols = sequence_grid_shape(length)
    missing = (
        f"no book for this slot: the corpus has {len(books)} books to draw "
        f"(two books each of three authors with at least two books are needed)"
    )

    for i, (png, pdf) in enumerate(zip(output.sequence, output.sequence_pdf)):
        if i >= len(books):
            save_figure(placeholder_figure(missing), png, pdf)
            continue
        book = books[i]
        marks, _ = sequences[i]
        window = midpoint_window(marks, length)
        title = f"{book['label']}\n{window.size} marks from the midpoint of {marks.size}"
        save_figure(plot_punctuation_sequence(window, rows, cols, title=title), png, pdf)

    for i, (png, pdf, png5, pdf5) in enumerate(
        zip(output.f1_bars, output.f1_bars_pdf, output.f5_bars, output.f5_bars_pdf)
    ):
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
        figure = plot_f1_scatter(
            f1_rows[a["book_id"]], f1_rows[b["book_id"]], label_x=a["label"], label_y=b["label"], title=pair["relation"]
        )
        save_figure(figure, png, pdf)
    log.info("drew %d books and %d pairs", len(books), len(choice["pairs"]))
