"""Tests of punctstyle.report_tables: what the figures draw, the appendix tables, rendering."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from punctstyle import render
from punctstyle import report_tables as rt
from punctstyle.plots.base import placeholder_figure
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


def test_heatmap_key_uses_the_capped_k():
    assert rt.heatmap_key(10, [3, 10]) == 10
    assert rt.heatmap_key(50, [10, 30]) == 30  # the corpus ranks only 30 authors
    assert rt.heatmap_key(5, []) is None
    assert rt.heatmap_key(5, [10]) is None


# ------------------------------------------------------------------------ recognition


def _summary() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "task": ["author"] * 3,
            "method": ["kl", "kl", "mlp"],
            "n_classes": [2, 3, 3],
            "accuracy[f1]": [0.75, 0.5, 1.0],
            "accuracy[all]": [np.nan, np.nan, 0.9],
            "baseline": [0.5, 0.33, 0.33],
            "accuracy_std[f1]": [0.35, np.nan, 0.0],
            "accuracy_std[all]": [np.nan, np.nan, 0.1],
        }
    )


def test_accuracy_long():
    long = rt.accuracy_long(_summary())
    assert list(long.columns) == ["method", "n_classes", "feature_set", "accuracy_mean", "accuracy_std",
                                  "baseline_mean"]
    assert len(long) == 4  # the kl rows have no "all"
    row = long[(long["method"] == "kl") & (long["n_classes"] == 2)].iloc[0]
    got = (row["feature_set"], row["accuracy_mean"], row["accuracy_std"], row["baseline_mean"])
    assert got == ("f1", 0.75, 0.35, 0.5)
    single = long[(long["method"] == "kl") & (long["n_classes"] == 3)].iloc[0]
    assert single["accuracy_std"] == 0.0  # NaN std (one seed) drawn as no error bar
    assert long[long["feature_set"] == "all"]["accuracy_mean"].tolist() == [0.9]


def _per_class() -> pd.DataFrame:
    rows = []
    for seed, tested in ((0, {"A": (2, 1), "B": (1, 1)}), (1, {"A": (2, 2)}), (2, {"A": (2, 0), "B": (1, 0)})):
        for cls, (n_test, n_correct) in tested.items():
            rows.append(dict(task="author", n_classes=3, seed=seed, method="mlp", feature_set="all", **{"class": cls},
                             n_test=n_test, n_correct=n_correct, accuracy=n_correct / n_test))
    # rows that must be ignored: another method, another feature set, a class sample
    rows.append(dict(task="author", n_classes=3, seed=0, method="kl", feature_set="f1", **{"class": "C"},
                     n_test=1, n_correct=1, accuracy=1.0))
    rows.append(dict(task="author", n_classes=3, seed=0, method="mlp", feature_set="f1", **{"class": "C"},
                     n_test=1, n_correct=1, accuracy=1.0))
    rows.append(dict(task="author", n_classes=2, seed=0, method="mlp", feature_set="all", **{"class": "C"},
                     n_test=1, n_correct=1, accuracy=1.0))
    return pd.DataFrame(rows)


def test_full_corpus_per_class_means_over_seeds():
    got = rt.full_corpus_per_class(_per_class(), 3, n_seeds=3).set_index("class")
    assert sorted(got.index) == ["A", "B"]  # C only in other experiments
    assert got.loc["A", "accuracy"] == pytest.approx((0.5 + 1.0 + 0.0) / 3)
    assert got.loc["A", "test_size"] == pytest.approx(2.0)
    # B was tested in seeds 0 and 2 only: accuracy over those, test size over all 3 seeds
    assert got.loc["B", "accuracy"] == pytest.approx(0.5)
    assert got.loc["B", "test_size"] == pytest.approx(2 / 3)
    assert got.loc["B", "n_seeds_tested"] == 2


def test_full_corpus_per_class_without_results():
    assert rt.full_corpus_per_class(pd.DataFrame(columns=["class", "n_test", "accuracy"]), 3).empty
    assert rt.full_corpus_per_class(_per_class(), 4).empty  # no experiment with 4 classes
    assert rt.full_corpus_per_class(_per_class(), 3, feature_set="f3").empty


def test_appendix_table_orders_by_consistency_with_na():
    consistency = pd.DataFrame(
        {"class": ["C", "A", "B", "D"], "n_docs": [4, 3, 2, 1], "consistency": [0.2, 0.1, 0.2, np.nan]}
    )
    per_class = rt.full_corpus_per_class(_per_class(), 3, n_seeds=3)
    table = rt.appendix_table(consistency, per_class, "author", "f3")
    assert list(table.columns) == ["rank", "author", "documents", "test_size", "consistency_f3", "accuracy"]
    assert table["author"].tolist() == ["A", "B", "C", "D"]  # ties (B, C) by name, NaN last
    assert table["rank"].tolist() == [1, 2, 3, 4]
    assert table["documents"].tolist() == [3, 2, 4, 1]
    assert table["accuracy"].iloc[1] == pytest.approx(0.5)
    assert math.isnan(table["accuracy"].iloc[2]) and math.isnan(table["test_size"].iloc[2])
    markdown = render.markdown_table(table, {"test_size": "auto", "consistency_f3": ".4g", "accuracy": ".2f"})
    lines = markdown.splitlines()
    assert lines[0] == "| rank | author | documents | test_size | consistency_f3 | accuracy |"
    assert lines[1] == "| ---: | :--- | ---: | ---: | ---: | ---: |"
    assert lines[2] == "| 1 | A | 3 | 2 | 0.1 | 0.50 |"
    assert lines[3] == "| 2 | B | 2 | 0.7 | 0.2 | 0.50 |"
    assert lines[5] == "| 4 | D | 1 | NA | NA | NA |"


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


def test_markdown_to_html_tables_and_paragraphs():
    markdown = (
        "**author recognition, neural network**\n\n"
        "| No. authors | f1 | note |\n| ---: | ---: | :--- |\n| 2 | 0.75 ± 0.35 | a \\| b |\n| 3 | <1> | x |\n\n"
        "Plain text.\n"
    )
    html = render.markdown_to_html(markdown)
    assert html.startswith("<p><strong>author recognition, neural network</strong></p>")
    assert "<th>No. authors</th><th>f1</th><th>note</th>" in html
    assert '<td class="num">0.75 ± 0.35</td>' in html
    assert "<td>a | b</td>" in html  # escaped pipe kept in its cell
    assert "&lt;1&gt;" in html and "<1>" not in html
    assert html.count("<tr>") == 3 and html.endswith("<p>Plain text.</p>")


def test_corpus_tables():
    summary = {"books_selected": 12, "books_in_corpus": 9, "authors_in_corpus": 4, "excluded_by_stage": {"download": 3}}
    exclusions = pd.DataFrame({"book_id": [10, 11, 12], "stage": ["download", "download", "features"],
                               "reason": ["HTTP 404", "HTTP 404", "too few marks: 5 < 100"]})
    counts, reasons, genres = rt.corpus_tables(summary, exclusions, _corpus())
    values = dict(zip(counts["quantity"], counts["value"]))
    assert values["books selected from the catalog"] == 12 and values["documents in the corpus"] == 9
    assert values["documents per author: maximum"] == 3 and values["documents per author: minimum"] == 1
    assert reasons.iloc[0].to_dict() == {"stage": "download", "reason": "HTTP N", "books": 2}
    assert reasons.iloc[1]["reason"] == "too few marks: N < N"
    assert genres.to_dict("list") == {"genre": ["x", "y"], "documents": [3, 3]}


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
