"""Tests of punctstyle.analyses.temporal (section 5 of the paper)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from punctstyle.analyses import temporal
from punctstyle.analyses import temporal_tables
from punctstyle.io import InputError
from punctstyle.marks import MARKS, N_GAP_BINS, N_MARKS, feature_column_names


def _f1(**weights: float) -> np.ndarray:
    """An f1 vector from {mark name: count}, normalised (names: comma, period, quote, ...)."""
    index = {"excl": 0, "quote": 1, "lparen": 2, "rparen": 3, "comma": 4, "period": 5,
             "colon": 6, "semi": 7, "question": 8, "ellipsis": 9}
    v = np.zeros(N_MARKS)
    for name, w in weights.items():
        v[index[name]] = w
    return v / v.sum()


def _f5(gaps: dict[int, float]) -> np.ndarray:
    v = np.zeros(N_GAP_BINS)
    for k, w in gaps.items():
        v[k] = w
    return v / v.sum()


def _table(rows: list[dict]) -> pd.DataFrame:
    """A features table with the metadata, f1 and f5 columns (and n_words if given)."""
    meta = pd.DataFrame(
        {
            "book_id": [r["book_id"] for r in rows],
            "title": [f"Book {r['book_id']}" for r in rows],
            "author": [r.get("author", "Anon") for r in rows],
            "birth": pd.array([r.get("birth") for r in rows], dtype="Int64"),
            "death": pd.array([r.get("death") for r in rows], dtype="Int64"),
            "bookshelves": [[] for _ in rows],
            "genre": [None for _ in rows],
            "n_marks": [r.get("n_marks", 100) for r in rows],
        }
    )
    if any("n_words" in r for r in rows):
        meta["n_words"] = [r["n_words"] for r in rows]
    f1 = pd.DataFrame(np.vstack([r["f1"] for r in rows]), columns=feature_column_names("f1"))
    f5 = pd.DataFrame(np.vstack([r.get("f5", _f5({1: 1})) for r in rows]), columns=feature_column_names("f5"))
    return pd.concat([meta, f1, f5], axis=1)


# ----------------------------------------------------------------------- middle year


def test_middle_year_all_four_cases():
    birth = pd.array([1800, 1800, None, None, 1801], dtype="Int64")
    death = pd.array([1870, None, 1870, None, 1870], dtype="Int64")
    got = temporal.middle_year(birth, death)
    assert str(got.dtype) == "Float64"
    assert got.iloc[0] == 1835.0  # both: mean
    assert got.iloc[1] == 1830.0  # birth only: birth + 30
    assert got.iloc[2] == 1840.0  # death only: death - 30 (not birth + 30 as in the paper's code)
    assert got.isna().iloc[3]  # neither
    assert got.iloc[4] == 1835.5  # a mean can end in .5
    assert got.isna().tolist() == [False, False, False, True, False]


def test_middle_year_keeps_series_index_and_handles_bce():
    frame = pd.DataFrame({"birth": pd.array([-70, None], dtype="Int64"),
                          "death": pd.array([-19, -400], dtype="Int64")}, index=[10, 20])
    got = temporal.middle_year(frame["birth"], frame["death"])
    assert list(got.index) == [10, 20]
    assert got.loc[10] == -44.5
    assert got.loc[20] == -430.0


def test_middle_year_length_mismatch():
    with pytest.raises(ValueError):
        temporal.middle_year([1800, 1900], [1850])


# ----------------------------------------------------------------------- decades


def test_decade_floors_including_negative_and_exact_decades():
    years = pd.array([1859, 1860, 1850, 1869, 0, -1, -10, -11, 9, None], dtype="Int64")
    got = temporal.decade(years)
    assert str(got.dtype) == "Int64"
    assert got.iloc[:9].tolist() == [1850, 1860, 1850, 1860, 0, -10, -10, -20, 0]
    assert got.isna().iloc[9]


def test_decade_of_fractional_middle_years():
    got = temporal.decade([1841.5, 1839.5, -0.5, 2012.0])
    assert got.tolist() == [1840, 1830, -10, 2010]


# ----------------------------------------------------------------------- window


def test_in_window_is_inclusive_and_drops_missing():
    years = pd.array([1499.0, 1500.0, 1750.5, 2012.0, 2012.5, 2013.0, None], dtype="Float64")
    assert temporal.in_window(years).tolist() == [False, True, True, True, False, False, False]
    assert temporal.in_window(years, (1700, 1800)).tolist() == [False, False, True, False, False, False, False]
    assert temporal.DEFAULT_WINDOW == (1500, 2012)
    with pytest.raises(ValueError):
        temporal.in_window(years, (1900, 1800))


def test_dated_documents_filters_on_middle_year():
    rows = [
        dict(book_id=1, birth=1800, death=1860, f1=_f1(comma=1)),   # 1830
        dict(book_id=2, birth=1480, death=1530, f1=_f1(comma=1)),   # 1505: kept (middle year counts)
        dict(book_id=3, birth=1440, death=1500, f1=_f1(comma=1)),   # 1470: out
        dict(book_id=4, birth=1990, f1=_f1(comma=1)),               # 2020: out
        dict(book_id=5, death=2042, f1=_f1(comma=1)),               # 2012: in (inclusive)
        dict(book_id=6, f1=_f1(comma=1)),                           # undated
    ]
    frame = _table(rows)
    got = temporal.dated_documents(frame)
    assert got["book_id"].tolist() == [1, 2, 5]
    assert got["middle_year"].tolist() == [1830.0, 1505.0, 2012.0]
    assert got["decade"].tolist() == [1830, 1500, 2010]
    assert "middle_year" not in frame.columns  # input untouched
    assert temporal.dated_documents(frame, window=None)["book_id"].tolist() == [1, 2, 3, 4, 5]
    assert temporal.dated_documents(frame, window=(1800, 1900))["book_id"].tolist() == [1]


# ----------------------------------------------------------------------- confidence intervals


def test_mean_ci_hand_example():
    mean, low, high = temporal.mean_ci([1.0, 2.0, 3.0, 4.0])
    half = 1.96 * math.sqrt(5.0 / 3.0) / 2.0  # sd (ddof=1) = sqrt(5/3), n = 4
    assert mean == 2.5
    assert low == pytest.approx(2.5 - half, abs=1e-12)
    assert high == pytest.approx(2.5 + half, abs=1e-12)
    assert half == pytest.approx(1.26517456, abs=1e-8)


def test_mean_ci_single_value_has_no_interval():
    mean, low, high = temporal.mean_ci([0.3])
    assert mean == 0.3 and math.isnan(low) and math.isnan(high)
    assert all(math.isnan(v) for v in temporal.mean_ci([]))


def test_grouped_mean_ci():
    frame = pd.DataFrame({"g": [2, 1, 1, 1, 1], "v": [7.0, 1.0, 2.0, 3.0, 4.0]})
    got = temporal.grouped_mean_ci(frame, "g", "v")
    assert got["g"].tolist() == [1, 2]
    assert got["n"].tolist() == [4, 1]
    assert got.loc[0, "ci_high"] - got.loc[0, "mean"] == pytest.approx(1.96 * math.sqrt(5 / 3) / 2)
    assert got.loc[1, "mean"] == 7.0 and np.isnan(got.loc[1, "ci_low"]) and np.isnan(got.loc[1, "ci_high"])


# ----------------------------------------------------------------------- f1 by decade


def test_f1_by_decade_means_and_intervals():
    rows = [
        dict(book_id=1, birth=1800, death=1860, f1=_f1(comma=3, period=1)),      # 1830
        dict(book_id=2, birth=1805, death=1864, f1=_f1(comma=1, period=1)),      # 1834.5 -> 1830
        dict(book_id=3, birth=1900, f1=_f1(quote=1, period=1, excl=2)),          # 1930
        dict(book_id=4, f1=_f1(comma=1)),                                        # undated
        dict(book_id=5, birth=1400, death=1460, f1=_f1(semi=1)),                 # 1430: out of window
    ]
    got = temporal_tables.f1_by_decade(_table(rows))
    assert list(got.columns) == ["decade", "code", "mark", "n", "mean", "sd", "ci_low", "ci_high"]
    assert got["decade"].unique().tolist() == [1830, 1930]
    assert len(got) == 2 * N_MARKS
    assert got.loc[got["decade"] == 1830, "mark"].tolist() == list(MARKS)
    comma = got.loc[(got["decade"] == 1830) & (got["mark"] == ",")].iloc[0]
    assert comma["n"] == 2
    assert comma["mean"] == pytest.approx((0.75 + 0.5) / 2)
    sd = np.std([0.75, 0.5], ddof=1)
    assert comma["ci_low"] == pytest.approx(0.625 - 1.96 * sd / math.sqrt(2))
    assert comma["ci_high"] == pytest.approx(0.625 + 1.96 * sd / math.sqrt(2))
    late = got.loc[got["decade"] == 1930]
    assert late.loc[late["mark"] == "!", "mean"].iloc[0] == pytest.approx(0.5)
    assert late["n"].eq(1).all() and late["ci_low"].isna().all() and late["ci_high"].isna().all()
    # semicolons only appear in the out-of-window book
    assert got.loc[got["mark"] == ";", "mean"].eq(0).all()


# ----------------------------------------------------------------------- punctuation rate


def test_punctuation_rate_sources():
    base = [
        dict(book_id=1, birth=1800, death=1860, f1=_f1(comma=1), n_marks=4, n_words=30,
             f5=_f5({2: 1, 39: 1})),
        dict(book_id=2, birth=1800, death=1860, f1=_f1(comma=1), n_marks=0, n_words=0,
             f5=_f5({3: 1})),
    ]
    frame = _table(base)
    assert temporal.punctuation_rate_source(frame) == temporal.RATE_SOURCE_COUNTS
    rate = temporal.punctuation_rate(frame)
    assert rate.iloc[0] == 7.5 and np.isnan(rate.iloc[1])

    with_column = frame.assign(words_per_mark=[9.0, 4.0])
    assert temporal.punctuation_rate_source(with_column) == temporal.RATE_SOURCE_COLUMN
    assert temporal.punctuation_rate(with_column).tolist() == [9.0, 4.0]

    f5_only = frame.drop(columns=["n_words"])
    assert temporal.punctuation_rate_source(f5_only) == temporal.RATE_SOURCE_F5
    lower = temporal.punctuation_rate(f5_only)
    assert lower.tolist() == pytest.approx([(2 + 39) / 2, 3.0])  # the 39+ bin counts as 39


def test_expected_gap_from_f5_le_guin_quote():
    # D^w of the paper's Le Guin quote: 73 words over 12 marks.
    gaps = [25, 6, 9, 2, 9, 7, 5, 1, 0, 4, 1, 0]
    f5 = np.bincount(gaps, minlength=N_GAP_BINS) / len(gaps)
    assert temporal.expected_gap_from_f5(f5)[0] == pytest.approx(sum(gaps) / 12)
    with pytest.raises(ValueError):
        temporal.expected_gap_from_f5(np.ones(10))


def test_rate_by_decade():
    rows = [
        dict(book_id=1, birth=1800, death=1860, f1=_f1(comma=1), n_marks=10, n_words=50),   # 5
        dict(book_id=2, birth=1802, death=1862, f1=_f1(comma=1), n_marks=10, n_words=70),   # 7
        dict(book_id=3, birth=1802, death=1862, f1=_f1(comma=1), n_marks=10, n_words=90),   # 9
        dict(book_id=4, birth=1950, f1=_f1(comma=1), n_marks=10, n_words=40),               # 1980: 4
    ]
    got = temporal_tables.rate_by_decade(_table(rows))
    assert got["decade"].tolist() == [1830, 1980]
    assert got["n"].tolist() == [3, 1]
    assert got["mean"].tolist() == pytest.approx([7.0, 4.0])
    assert got.loc[0, "ci_high"] == pytest.approx(7.0 + 1.96 * 2.0 / math.sqrt(3))
    assert np.isnan(got.loc[1, "ci_low"])


def _dates_table() -> pd.DataFrame:
    rows = [
        dict(book_id=1, author="Dickens", birth=1812, death=1870, f1=_f1(comma=1)),  # middle 1841
        dict(book_id=2, author="Dickens", birth=1812, death=1870, f1=_f1(comma=1)),
        dict(book_id=3, author="Old", birth=1490, death=1550, f1=_f1(comma=1)),   # born before 1500
        dict(book_id=4, author="Older", birth=1200, death=1260, f1=_f1(comma=1)),  # born before 1500
        dict(book_id=5, author="Older", birth=1200, death=1260, f1=_f1(comma=1)),
        dict(book_id=6, author="Dead", death=1530, f1=_f1(comma=1)),              # no birth year
        dict(book_id=7, author="Nobody", f1=_f1(comma=1)),                        # no year at all
        dict(book_id=8, author="Young", birth=1500, f1=_f1(comma=1)),             # born 1500: kept
    ]
    return _table(rows)


def test_date_counts_by_decade_only_authors_born_from_start():
    got = temporal_tables.date_counts_by_decade(_dates_table())
    assert got["decade"].iloc[0] == 1500 and got["decade"].iloc[-1] == 1870
    assert (np.diff(got["decade"]) == 10).all()
    by = got.set_index("decade")
    # Dickens twice (birth 1810s, death 1870s, middle 1840s) and Young once (birth 1500, middle 1530)
    assert by.loc[1810, "birth"] == 2 and by.loc[1870, "death"] == 2 and by.loc[1840, "middle"] == 2
    assert by.loc[1500, "birth"] == 1 and by.loc[1530, "middle"] == 1
    assert by["birth"].sum() == 3 and by["death"].sum() == 2 and by["middle"].sum() == 3
    # the death-only author (death 1530) and those born before 1500 (death 1550) are not counted
    assert by.loc[1550, "death"] == 0


def test_date_counts_by_decade_end_bounds_the_decades():
    got = temporal_tables.date_counts_by_decade(_dates_table(), start=1500, end=1850)
    assert got["decade"].iloc[-1] == 1840 and got["death"].sum() == 0


def test_author_date_exclusions_and_note():
    frame = _dates_table()
    frame.loc[frame["book_id"] == 7, "author"] = None  # a document without an author: counted as a document
    got = temporal_tables.author_date_exclusions(frame, 1500)
    assert got == {"start": 1500, "authors_born_before_start": 2, "documents_born_before_start": 3,
                   "authors_without_birth": 1, "documents_without_birth": 2}
    assert temporal_tables.author_dates_note(got) == (
        "authors born in 1500 or later; left out: 2 authors born before 1500 (3 documents) and "
        "1 author without a birth year (2 documents)")
    assert temporal_tables.author_date_exclusions(frame, 1800)["authors_born_before_start"] == 3


# ----------------------------------------------------------------------- authors over time


def _authors_table() -> pd.DataFrame:
    rows = [
        dict(book_id=10, author="Wells", birth=1866, death=1946, f1=_f1(comma=1, period=1)),
        dict(book_id=11, author="Wells", birth=1866, death=1946, f1=_f1(comma=3, period=1)),
        dict(book_id=12, author="Wells", birth=1866, death=1946, f1=_f1(period=1)),
        dict(book_id=20, author="Dickens", birth=1812, death=1870, f1=_f1(comma=1)),
    ]
    return _table(rows)


def test_author_f1_over_time_without_file(tmp_path):
    frame = _authors_table()
    table, reason = temporal_tables.author_f1_over_time(frame, None, ["Wells"])
    assert table is None and "no publication-year file" in reason
    table, reason = temporal_tables.author_f1_over_time(frame, tmp_path / "absent.csv", ["Wells"])
    assert table is None and "does not exist" in reason


def test_author_f1_over_time_from_csv(tmp_path):
    path = tmp_path / "years.csv"
    path.write_text("book_id,year\n10,1900\n11,1900\n12,1905\n20,1850\n99,1700\n", encoding="utf-8")
    table, reason = temporal_tables.author_f1_over_time(_authors_table(), path, ["Wells", "Fleming"])
    assert table is not None
    assert set(table["author"]) == {"Wells"}
    assert "3 dated books" in reason and "Fleming" in reason
    comma = table.loc[(table["year"] == 1900) & (table["mark"] == ",")].iloc[0]
    assert comma["n"] == 2
    assert comma["mean"] == pytest.approx(0.625)
    assert comma["min"] == pytest.approx(0.5) and comma["max"] == pytest.approx(0.75)
    assert table.loc[(table["year"] == 1905) & (table["mark"] == "."), "mean"].iloc[0] == 1.0
    none, why = temporal_tables.author_f1_over_time(_authors_table(), path, ["Fleming"])
    assert none is None and "Fleming" in why


def test_read_publication_years_rejects_bad_files(tmp_path):
    bad_column = tmp_path / "a.csv"
    bad_column.write_text("book,year\n1,1900\n", encoding="utf-8")
    with pytest.raises(InputError, match="book_id"):
        temporal_tables.read_publication_years(bad_column)
    bad_value = tmp_path / "b.csv"
    bad_value.write_text("book_id,year\n1,19x0\n", encoding="utf-8")
    with pytest.raises(InputError, match="row 2"):
        temporal_tables.read_publication_years(bad_value)
    duplicate = tmp_path / "c.csv"
    duplicate.write_text("book_id,year\n1,1900\n1,1901\n", encoding="utf-8")
    with pytest.raises(InputError, match="book_id 1"):
        temporal_tables.read_publication_years(duplicate)
