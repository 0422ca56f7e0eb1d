"""Tests of punctstyle.report.tables: what the figures draw, the appendix tables, rendering."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from punctstyle.report import render
from punctstyle.report import tables as rt
from punctstyle.io import InputError
from punctstyle.report.plots.base import placeholder_figure
from punctstyle.marks import MARKS, N_MARKS


def _corpus() -> pd.DataFrame:
    """Four authors: A 3 books, B 3, C 2, D 1 (marks chosen to test the orderings)."""
    return pd.DataFrame(
        {
            "book_id": [1, 2, 3, 4, 5, 6, 7, 8, 9],
            "title": [f"T{i}" for i in range(1, 10)],
            "author": ["A", "A", "A", "B", "B", "B", "C", "C", "D"],
            "birth": pd.array([1800, 1800, 1800, 1850, 1850, 1850, None, None, None], dtype="Int64"),
            "death": pd.array([1870, 1870, 1870, None, None, None, 1930, 1930, None], dtype="Int64"),
            "genre": ["x", "x", None, "y", "y", "y", "x", None, None],
            "n_marks": [100, 300, 200, 50, 50, 60, 10, 20, 999],
        }
    )


# ------------------------------------------------------------------ choosing what to draw


def test_choose_sequence_books_ranks_authors_then_books_by_marks():
    # A and B tie on 3 books (A first by name); per author the two books with most marks,
    # ties by book id; D (one book) is passed over.
    assert rt.choose_sequence_books(_corpus()) == [2, 3, 6, 4, 8, 7]
    assert rt.choose_sequence_books(_corpus(), n_authors=1, per_author=3) == [2, 3, 1]
    assert rt.choose_sequence_books(_corpus(), n_authors=9, per_author=3) == [2, 3, 1, 6, 4, 5]


def test_scatter_pairs_are_the_papers_same_then_different_pairs():
    assert rt.scatter_pairs(6) == [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 0)]
    assert rt.scatter_pairs(3) == [(0, 1), (1, 2), (2, 0)]
    assert rt.scatter_pairs(2) == [(0, 1)]
    assert rt.scatter_pairs(1) == [] and rt.scatter_pairs(0) == []


def test_document_choice_labels_and_relations():
    choice = rt.document_choice(_corpus(), [2, 3, 6, 4])
    assert [b["book_id"] for b in choice["books"]] == [2, 3, 6, 4]
    assert choice["books"][0] == {"book_id": 2, "title": "T2", "author": "A", "n_marks": 300, "label": "T2 (A, #2)"}
    relations = [(p["first"], p["second"], p["relation"]) for p in choice["pairs"]]
    assert relations == [(0, 1, "same author"), (1, 2, "different authors"), (2, 3, "same author"),
                         (3, 0, "different authors")]
    assert choice["pairs"][1]["books"] == "T3 (A, #3) vs T6 (B, #6)"
    with pytest.raises(KeyError) as info:
        rt.document_choice(_corpus(), [2, 42])
    assert info.value.args[0] == 42


@pytest.mark.parametrize(("length", "shape"), [(3000, (50, 60)), (600, (23, 27)), (1, (1, 1)), (7, (3, 3))])
def test_sequence_grid_shape(length, shape):
    rows, cols = rt.sequence_grid_shape(length)
    assert (rows, cols) == shape
    assert rows * cols >= length > (rows - 1) * cols


def test_sequence_grid_shape_rejects_zero():
    with pytest.raises(ValueError):
        rt.sequence_grid_shape(0)


def test_default_over_time_authors():
    years = pd.DataFrame({"book_id": [1, 4, 5, 7, 8, 9], "year": [1850] * 6})
    # B has 2 dated books, C 2, A 1, D 1: ties by name
    assert rt.default_over_time_authors(_corpus(), years) == ["B", "C", "A"]
    assert rt.default_over_time_authors(_corpus(), years, n=1) == ["B"]
    assert rt.default_over_time_authors(_corpus(), years.iloc[:0]) == []


def test_author_date_counts():
    counts = rt.author_date_counts(_corpus(), (1500, 2012))
    # A: both (middle 1835); B: birth only (1880); C: death only (1900); D: neither
    assert counts == {
        "authors": 4,
        "authors_with_birth": 2,
        "authors_with_death": 2,
        "authors_with_both": 1,
        "authors_with_a_year": 3,
        "authors_in_window": 3,
        "documents": 9,
        "documents_with_a_year": 8,
    }
    assert rt.author_date_counts(_corpus(), (1850, 1890))["authors_in_window"] == 1


def test_document_choice_file_round_trip(tmp_path):
    choice = rt.document_choice(_corpus(), [2, 3, 5, 4])
    path = tmp_path / "documents" / "books.json"
    rt.write_document_choice(path, choice)
    assert rt.read_document_choice(path) == choice
    bad = tmp_path / "bad.json"
    bad.write_text('{"books": []}', encoding="utf-8")
    with pytest.raises(InputError, match=f"^{bad}: expected a JSON object with 'books' and 'pairs'$"):
        rt.read_document_choice(bad)
    with pytest.raises(InputError, match="not a readable JSON file"):
        rt.read_document_choice(tmp_path / "missing.json")


# ------------------------------------------------------------------------ rendering


def test_format_value():
    assert render.format_value(None) == "NA" and render.format_value(np.nan) == "NA" and render.format_value(pd.NA) == "NA"
    assert render.format_value(np.int64(3)) == "3"
    assert render.format_value(0.12345) == "0.123"
    assert render.format_value(0.12345, ".2g") == "0.12"
    assert render.format_value(4.0, "auto") == "4" and render.format_value(4.25, "auto") == "4.2"
    assert render.format_value("x") == "x"


def test_markdown_table_escapes_pipes():
    text = render.markdown_table(pd.DataFrame({"name": ["a|b"], "v": [1.5]}))
    assert "a\\|b" in text and "1.500" in text


def test_html_table_escapes_and_aligns():
    html = render.html_table(pd.DataFrame({"name": ["<Smith & Co>"], "v": [np.nan]}), caption="T <1>")
    assert "&lt;Smith &amp; Co&gt;" in html and "<Smith" not in html
    assert '<td class="num">NA</td>' in html
    assert "<caption>T &lt;1&gt;</caption>" in html
    page = render.html_page("A & B", [html])
    assert page.startswith("<!DOCTYPE html>") and "<h2>A &amp; B</h2>" in page and html in page


def test_corpus_tables():
    summary = {"books_selected": 12, "books_in_corpus": 9, "authors_in_corpus": 4, "excluded_by_stage": {"download": 3}}
    exclusions = pd.DataFrame({"book_id": [10, 11, 12, 13], "stage": ["download", "download", "features", "features"],
                               "reason": ["http 404", "http 404", "too few punctuation marks: 5 < min_marks 100",
                                          "too few punctuation marks: 42 < min_marks 100"]})
    counts, reasons, genres = rt.corpus_tables(summary, exclusions, _corpus())
    values = dict(zip(counts["quantity"], counts["value"]))
    assert values["books selected from the catalog"] == 12 and values["documents in the corpus"] == 9
    assert values["documents per author: maximum"] == 3 and values["documents per author: minimum"] == 1
    median = values["documents per author: median"]  # 1, 2, 3, 3 books: 2.5
    assert median == 2.5 and render.format_value(median, "auto") == "2.5"
    assert reasons.to_dict("records") == [
        {"stage": "download", "reason": "http 404", "books": 2, "example": "http 404"},
        {"stage": "features", "reason": "too few punctuation marks (< 100)", "books": 2,
         "example": "too few punctuation marks: 5 < min_marks 100"},
    ]
    assert genres.to_dict("list") == {"genre": ["x", "y"], "documents": [3, 3]}
    whole = rt.corpus_tables(summary, exclusions, _corpus().iloc[:6])[0]  # A 3 books, B 3
    median = dict(zip(whole["quantity"], whole["value"]))["documents per author: median"]
    assert isinstance(median, int) and median == 3
    html = render.html_table(whole, formats="auto")
    assert "<td class=\"num\">3</td>" in html or ">3<" in html and "3.000" not in html


def test_temporal_tables():
    f1 = pd.DataFrame({"decade": np.repeat([1850, 1860], N_MARKS), "code": np.tile(np.arange(N_MARKS), 2),
                       "n": np.repeat([3, 1], N_MARKS), "mean": np.arange(2 * N_MARKS) / 100.0})
    rate = pd.DataFrame({"decade": [1850, 1860], "n": [3, 1], "mean": [4.0, 5.0], "sd": [0.1, np.nan],
                         "ci_low": [3.9, np.nan], "ci_high": [4.1, np.nan]})
    summary = {"window": [1500, 2012], "authors": 5, "authors_in_window": 4}
    counts, rate_table, means = rt.temporal_tables(summary, rate, f1)
    assert counts["value"].tolist() == ["1500-2012", 5, 4]
    assert list(rate_table.columns) == ["decade", "n", "mean", "ci_low", "ci_high"]
    assert list(means.columns) == ["decade", "n", *MARKS]
    assert means["n"].tolist() == [3, 1]
    assert means.loc[1, "!"] == pytest.approx(0.10) and means.loc[0, "..."] == pytest.approx(0.09)


def test_placeholder_figure_says_why():
    fig = placeholder_figure("nothing to draw: no $ here", title="T")
    assert isinstance(fig, Figure)
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert texts == ["nothing to draw: no \\$ here"]
